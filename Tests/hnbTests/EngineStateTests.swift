// The engine's state types and the invariants they own (issue 27): the live calls and their
// aggregate, the guards' policy in force, the event's button and outcome.

import Foundation
import Testing
@testable import hnb

@Suite("Engine state: the types that own their invariants")
struct EngineStateTests {
    private let second = MonitorEngine.second

    @Test("Rule 1: the live calls own the aggregate; the connected count follows every insert, change and removal, and each call keeps its direction")
    func liveCallsOwnTheAggregate() {
        var calls = LiveCalls()
        #expect(calls.current == .idle && calls.settled == .idle)
        var joined = calls.insert(LiveCall(isConnected: false, isOutgoing: true), as: CallID("A"))
        #expect(joined)
        #expect(calls.current == .ringing)
        var changed = calls.settle()
        #expect(changed && calls.settled == .ringing)
        changed = calls.settle()
        #expect(!changed)
        // The same call again is no new call; connecting it makes the session started.
        joined = calls.insert(LiveCall(isConnected: true, isOutgoing: true), as: CallID("A"))
        #expect(!joined)
        joined = calls.insert(LiveCall(isConnected: false), as: CallID("B"))
        #expect(joined)
        #expect(calls.current == .started)
        #expect(calls[CallID("A")] == LiveCall(isConnected: true, isOutgoing: true))
        #expect(calls[CallID("B")]?.isOutgoing == false)
        // A goes back to ringing (a source may report that), then it ends: ringing, as B is.
        calls.insert(LiveCall(isConnected: false, isOutgoing: true), as: CallID("A"))
        #expect(calls.current == .ringing)
        var removed = calls.remove(CallID("A"))
        #expect(removed == LiveCall(isConnected: false, isOutgoing: true))
        removed = calls.remove(CallID("A"))
        #expect(removed == nil)
        #expect(calls.current == .ringing)
        // A complete list that names only C: B is missing from it.
        #expect(calls.ids(missingFrom: [CallSnapshot(id: CallID("C")), CallSnapshot(id: CallID("B"), hasEnded: true)]) == [CallID("B")])
        calls.removeAll()
        #expect(calls.current == .idle && calls.settled == .ringing)
        changed = calls.settle()
        #expect(changed && calls.settled == .idle)
    }

    @Test("The engine is a value: a copy keeps its session's calls, event and countdown while the original goes on, and the other way round")
    func aCopyOfTheEngineKeepsItsSession() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 5)), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasConnected: true)])), now: 0)
        #expect(engine.shownEventPart({ $0.remaining }) == 5)
        // The session lives behind one reference; the copy shares it until either changes.
        var copy = engine
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("B"))])), now: second)
        _ = engine.handle(.wake(), now: 2 * second)
        #expect(engine.calls.count == 2 && engine.shownEventPart({ $0.remaining }) == 3)
        #expect(copy.calls.count == 1 && copy.calls[CallID("B")] == nil)
        #expect(copy.shownEventPart({ $0.remaining }) == 5 && copy.hasShownEvent)
        // The copy's own steps leave the original as it was.
        _ = copy.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), now: 3 * second)
        #expect(!copy.hasShownEvent && copy.calls.isEmpty && copy.callState == .idle)
        #expect(engine.calls.count == 2 && engine.shownEventPart({ $0.remaining }) == 3 && engine.callState == .started)
        // A step that changes only the event (a countdown tick) copies the shared session too.
        let before = engine
        _ = engine.handle(.wake(), now: 4 * second)
        #expect(engine.shownEventPart({ $0.remaining }) == 1)
        #expect(before.shownEventPart({ $0.remaining }) == 3 && before.calls.count == 2)
    }

    @Test("Rule 19: a call whose exemption is taken back counts again as it was, its direction included")
    func exemptCallComesBackAsItWas() {
        var engine = MonitorEngine()
        _ = engine.handle(.observe(), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("OUT"), isOutgoing: true, hasConnected: true)])), now: 0)
        #expect(engine.calls[CallID("OUT")] == LiveCall(isConnected: true, isOutgoing: true))
        #expect(engine.handle(.exempt(CallID("OUT")), now: second) == [.emit(.ended)])
        #expect(engine.calls.isEmpty)
        #expect(engine.guards.exemptLive == [CallID("OUT"): LiveCall(isConnected: true, isOutgoing: true)])
        #expect(engine.handle(.removeExemption(CallID("OUT")), now: 2 * second) == [.emit(.started)])
        #expect(engine.calls[CallID("OUT")] == LiveCall(isConnected: true, isOutgoing: true))
    }

    @Test("Rule 18: the guards recompute the policy in force themselves and say whether it changed")
    func guardsSayWhetherThePolicyChanged() {
        var guards = MonitorEngine.Guards()
        let terminate5 = MonitorPolicy(flow: .terminate, requestedSeconds: 5)
        let terminate2 = MonitorPolicy(flow: .terminate, requestedSeconds: 2)
        let acknowledge10 = MonitorPolicy(flow: .acknowledge, requestedSeconds: 10)
        var changes: [Bool?] = []
        changes.append(guards.setAppWide(.observe))
        #expect(guards.inForce == nil)
        changes.append(guards.setAppWide(.enforce(terminate5)))
        // A laxer protection changes nothing in force; opening it twice changes nothing at all.
        changes.append(guards.openProtection(1, acknowledge10))
        changes.append(guards.openProtection(1, terminate2))
        #expect(guards.protections == [MonitorEngine.Protection(id: 1, policy: acknowledge10, name: nil, context: nil)])
        changes.append(guards.closeProtection(1))
        changes.append(guards.closeProtection(1))
        // Rule 25: the escalation counts only while open.
        changes.append(guards.setEscalation(terminate2))
        #expect(guards.inForce == terminate5)
        changes.append(guards.setEscalationOpen(true))
        #expect(guards.inForce == terminate2)
        #expect(changes == [false, true, false, false, false, nil, false, true])
        guards.sessionEnded()
        #expect(guards.inForce == terminate5 && !guards.escalationOpen)
        guards.monitoringStopped()
        #expect(guards.inForce == nil && guards.escalation == terminate2)
    }

    @Test("Rules 6 and 17: the button is decided once; the dialog is given it, and the user action is accepted exactly when it is available")
    func buttonDecidedOnce() {
        var engine = MonitorEngine()
        _ = engine.handle(.refusesAcknowledgementWhileScreenCaptured(true), now: 0)
        _ = engine.handle(.screenCapture(isCaptured: true), now: 0)
        _ = engine.handle(.start(MonitorPolicy(flow: .acknowledge, requestedSeconds: 1)), now: 0)
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0) == [
            .emit(.ringing),
            .present(.acknowledge, remaining: 1, token: 1, button: .hidden, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: second),
        ])
        #expect(engine.handle(.userAction(token: 1), now: second / 2) == [])
        // The delay is over while captured: the button says why it is refused, and is.
        #expect(engine.handle(.wake(), now: second) == [.tick(.acknowledge, remaining: 0, token: 1, button: .refused, on: .builtInDialog), .schedule(at: 2 * second)])
        #expect(engine.button == .refused)
        #expect(engine.handle(.userAction(token: 1), now: second) == [])
        // The capture stops: the dialog is told, and the same tap now acknowledges.
        #expect(engine.handle(.screenCapture(isCaptured: false), now: 3 * second / 2) == [.button(.acknowledge, remaining: 0, token: 1, button: .available, on: .builtInDialog)])
        #expect(engine.handle(.userAction(token: 1), now: 2 * second).contains(.cancelWakeUp))
        #expect(engine.shownEvent == nil)
        // SecurityAlert's public initializer asks the same decision.
        let refused = SecurityAlert(flow: .acknowledge, remaining: 0, strings: .english, acknowledgementRefused: true)
        #expect(refused == SecurityAlert(flow: .acknowledge, remaining: 0, button: .refused, strings: .english, verdict: .unknown))
        #expect(refused.button == CallMonitorStrings.english.text(.buttonRefusedWhileCaptured))
        #expect(SecurityAlert(flow: .terminate, remaining: 3, strings: .english, acknowledgementRefused: true).button == "Close App")
    }

    @Test("Rule 16: the engine builds the outcome, with the wall clock of the step the event began in and the one it ended in")
    func outcomeCarriesTheStepsWallClock() {
        var engine = MonitorEngine()
        let begun = Date(timeIntervalSince1970: 1_000)
        let ended = Date(timeIntervalSince1970: 5_000)
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 5)), now: 0, wallClock: .distantPast)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: second, wallClock: begun)
        _ = engine.handle(.wake(), now: 2 * second, wallClock: .distantFuture)
        let actions = engine.handle(.calls(.complete([])), now: 3 * second, wallClock: ended)
        #expect(actions == [
            .emit(.ended), .dismiss(on: .builtInDialog), .cancelWakeUp,
            .outcome({
                var outcome = CallMonitorOutcome(
                    ending: .callEnded, flow: .terminate, seconds: 5, startedAt: second, endedAt: 3 * second,
                    startedDate: begun, endedDate: ended, lowestRemaining: 4,
                    presentations: [.init(surface: .builtInDialog, at: second, remaining: 5)], wasScreenCaptured: false
                )
                outcome.id = 1
                return outcome
            }()),
        ])
    }
}

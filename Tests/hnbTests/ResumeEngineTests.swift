// Split out of ResumeTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
@testable import hnbTesting

/// The engine of the recording up to the suspension: terminate 10 from 0, call A rings at 1
/// (the event begins in the foreground), the app leaves the foreground at 3.
private func suspendedTerminateEngine(seconds: Int32 = 10, flow: CallMonitorFlow = .terminate) -> MonitorEngine {
    var engine = MonitorEngine()
    _ = engine.handle(.start(MonitorPolicy(flow: flow, requestedSeconds: seconds)), now: 0)
    _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 1 * s)
    _ = engine.handle(.appState(isForeground: false), now: 3 * s)
    return engine
}

private let callA = CallSnapshot(id: CallID("A"))

@Suite("Issue 37: no exit on a view of the calls older than the last resume")
struct ResumeEngineTests {
    @Test("Rule 8 (issue 37): the overdue wake-up before the queued list: the exit that falls due in the background asks for the list and waits; the list that ends the call ends the event, no exit")
    func wakeUpFirstCallEnded() {
        var engine = suspendedTerminateEngine()
        #expect(engine.handle(.wake(), now: 30 * s) == [
            .tick(.terminate, remaining: 0, token: 1, button: .available, on: .builtInDialog), .refreshCalls, .schedule(at: 31 * s),
        ])
        #expect(engine.handle(.calls(.complete([])), now: 30 * s) == [
            .emit(.ended), .dismiss(on: .builtInDialog), .cancelWakeUp, outcome(.callEnded, endedAt: 30 * s, lowest: 0),
        ])
        #expect(engine.handle(.appState(isForeground: true), now: 30 * s) == [])
        #expect(engine.handle(.calls(.complete([])), now: 30 * s) == [])
        #expect(engine.handle(.wake(), now: 31 * s) == [])
        #expect(!engine.hasExited)
    }

    @Test("Rule 8 (issue 37): the queued list before the overdue wake-up: the event ends with the call, nothing is left to exit")
    func listFirstCallEnded() {
        var engine = suspendedTerminateEngine()
        #expect(engine.handle(.calls(.complete([])), now: 30 * s) == [
            .emit(.ended), .dismiss(on: .builtInDialog), .cancelWakeUp, outcome(.callEnded, endedAt: 30 * s, lowest: 10),
        ])
        #expect(engine.handle(.wake(), now: 30 * s) == [])
        #expect(engine.handle(.appState(isForeground: true), now: 30 * s) == [])
        #expect(!engine.hasExited)
    }

    @Test("Rule 5 (issue 37), fail closed: the call still live in the list that the waiting exit asked for: the exit happens at once, at the list's instant")
    func wakeUpFirstCallLiveExitsOnTheList() {
        var engine = suspendedTerminateEngine()
        #expect(engine.handle(.wake(), now: 30 * s) == [
            .tick(.terminate, remaining: 0, token: 1, button: .available, on: .builtInDialog), .refreshCalls, .schedule(at: 31 * s),
        ])
        #expect(engine.handle(.calls(.complete([callA])), now: 30 * s) == [
            .cancelWakeUp, .stopSources(callSource: true), outcome(.forceExit, endedAt: 30 * s, lowest: 0), .exit(code: 0),
        ])
        #expect(engine.hasExited)
    }

    @Test("Rule 8 (issue 37): the return to the foreground before the wake-up is no fresh list: the exit still waits for one")
    func foregroundThenWakeUpWaitsForTheList() {
        var engine = suspendedTerminateEngine()
        #expect(engine.handle(.appState(isForeground: true), now: 30 * s) == [])
        #expect(engine.handle(.wake(), now: 30 * s) == [
            .tick(.terminate, remaining: 0, token: 1, button: .available, on: .builtInDialog), .refreshCalls, .schedule(at: 31 * s),
        ])
        #expect(engine.handle(.calls(.complete([callA])), now: 30 * s) == [
            .cancelWakeUp, .stopSources(callSource: true), outcome(.forceExit, endedAt: 30 * s, lowest: 0), .exit(code: 0),
        ])
    }

    @Test("Rule 5 (issue 37): a complete list read after the return to the foreground makes the view current: the exit that falls due then happens at once")
    func foregroundThenListThenWakeUpExitsAtOnce() {
        var engine = suspendedTerminateEngine()
        _ = engine.handle(.appState(isForeground: true), now: 30 * s)
        #expect(engine.handle(.calls(.complete([callA])), now: 30 * s) == [])
        #expect(engine.handle(.wake(), now: 30 * s) == [
            .tick(.terminate, remaining: 0, token: 1, button: .available, on: .builtInDialog), .cancelWakeUp, .stopSources(callSource: true),
            outcome(.forceExit, endedAt: 30 * s, lowest: 0), .exit(code: 0),
        ])
    }

    @Test("Rule 5 (issue 37), fail closed: a list that never comes holds the exit back one second at most; an early wake-up only waits on")
    func noListExitsAfterTheBound() {
        var engine = suspendedTerminateEngine()
        _ = engine.handle(.wake(), now: 30 * s)
        #expect(engine.handle(.wake(), now: 30 * s + s / 2) == [.schedule(at: 31 * s)])
        #expect(engine.handle(.wake(), now: 31 * s) == [
            .cancelWakeUp, .stopSources(callSource: true), outcome(.forceExit, endedAt: 31 * s, lowest: 0), .exit(code: 0),
        ])
    }

    @Test("Rule 5 (issue 37): a change list that is not complete does not release the waiting exit")
    func changesAreNoFreshList() {
        var engine = suspendedTerminateEngine()
        _ = engine.handle(.wake(), now: 30 * s)
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasConnected: true)])), now: 30 * s) == [.emit(.started)])
        #expect(!engine.hasExited)
        #expect(engine.handle(.wake(), now: 31 * s).last == .exit(code: 0))
    }

    @Test("Rule 15 with issue 37: after the return, a change of one call is no complete list: the view stays stale and the exit that falls due waits for the list")
    func changeAfterTheReturnIsNoFreshList() {
        var engine = suspendedTerminateEngine()
        _ = engine.handle(.appState(isForeground: true), now: 30 * s)
        // Call B's queued notification arrives before the list: it says nothing of call A, which
        // may have ended during the suspension.
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("B"))])), now: 30 * s) == [])
        #expect(engine.handle(.wake(), now: 30 * s) == [
            .tick(.terminate, remaining: 0, token: 1, button: .available, on: .builtInDialog), .refreshCalls, .schedule(at: 31 * s),
        ])
        #expect(!engine.hasExited)
        #expect(engine.handle(.calls(.complete([CallSnapshot(id: CallID("B"))])), now: 30 * s) == [
            .cancelWakeUp, .stopSources(callSource: true), outcome(.forceExit, endedAt: 30 * s, lowest: 0), .exit(code: 0),
        ])
    }

    @Test("Rule 10 with issue 37: a followed session that ends takes the wait with it: the next session's exit after a return asks for the list and waits its own full bound")
    func followedSessionEndEndsTheWait() {
        var engine = suspendedTerminateEngine()
        _ = engine.handle(.wake(), now: 30 * s)
        _ = engine.handle(.stop, now: 30 * s + s / 2)   // the session is live: followed (rule 10)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), now: 35 * s)
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 10)), now: 40 * s)
        // A source whose list at start is late (the engine does not count on one): call B's change.
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("B"))])), now: 40 * s)
        _ = engine.handle(.appState(isForeground: true), now: 41 * s)   // no list after this return
        #expect(engine.handle(.wake(), now: 51 * s) == [
            .tick(.terminate, remaining: 0, token: 2, button: .available, on: .builtInDialog), .refreshCalls, .schedule(at: 52 * s),
        ])
        #expect(!engine.hasExited)
    }

    @Test("Rule 21 with issue 37: a change of the policy while the exit waits neither asks again nor restarts the bound")
    func policyChangeKeepsTheBound() {
        var engine = suspendedTerminateEngine()
        _ = engine.handle(.wake(), now: 30 * s)
        // A stricter protection at 30.5: the event ends (policyChanged) and one under it begins in
        // the background at once, its deadline long past (rule 21), so its exit falls due too.
        let actions = engine.handle(.beginProtection(id: 1, MonitorPolicy(flow: .terminate, requestedSeconds: 3)), now: 30 * s + s / 2)
        #expect(actions == [
            .dismiss(on: .builtInDialog), .cancelWakeUp, outcome(.policyChanged, endedAt: 30 * s + s / 2, lowest: 0),
            .present(.terminate, remaining: 0, token: 2, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 31 * s),
        ])
        #expect(engine.handle(.wake(), now: 31 * s).last == .exit(code: 0))
    }

    @Test("Rule 6 with issue 37: the acknowledge flow never exits, so its countdown's end in the background asks for nothing")
    func acknowledgeAsksForNothing() {
        var engine = suspendedTerminateEngine(flow: .acknowledge)
        #expect(engine.handle(.wake(), now: 30 * s) == [.tick(.acknowledge, remaining: 0, token: 1, button: .available, on: .builtInDialog), .schedule(at: 31 * s)])
        #expect(engine.handle(.calls(.complete([])), now: 30 * s) == [
            .emit(.ended), .dismiss(on: .builtInDialog), .cancelWakeUp, outcome(.callEnded, endedAt: 30 * s, lowest: 0, flow: .acknowledge),
        ])
    }

    @Test("Rule 5 (issue 37): Close App while the exit waits is the user's own choice: it exits at once")
    func closeAppWhileWaiting() {
        var engine = suspendedTerminateEngine()
        _ = engine.handle(.wake(), now: 30 * s)
        let token = engine.shownEvent?.token ?? 0
        #expect(engine.handle(.userAction(token: token), now: 30 * s + s / 4).last == .exit(code: 0))
    }

    @Test("Rule 5 (issue 37): a foreground report while already in the foreground is no resume: the exit happens at once, asking for nothing")
    func repeatedForegroundIsNoResume() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 1)), now: 0)
        _ = engine.handle(.calls(.changes([callA])), now: 0)
        #expect(engine.handle(.appState(isForeground: true), now: s / 2) == [])
        #expect(engine.handle(.wake(), now: 1 * s) == [
            .tick(.terminate, remaining: 0, token: 1, button: .available, on: .builtInDialog), .cancelWakeUp, .stopSources(callSource: true),
            .outcome(.engine(ending: .forceExit, flow: .terminate, total: 1, startedAt: 0, endedAt: 1 * s, lowestRemaining: 0, wasScreenCaptured: false,
                             presentations: [.init(surface: .builtInDialog, at: 0, remaining: 1)])),
            .exit(code: 0),
        ])
    }

    @Test("Rule 6 with issue 37: an acknowledge event that replaced the terminate one whose exit waited never exits when the list comes")
    func acknowledgeReplacingAWaitingExitNeverExits() {
        var engine = suspendedTerminateEngine()
        _ = engine.handle(.appState(isForeground: true), now: 30 * s)
        _ = engine.handle(.wake(), now: 30 * s)
        // The app-wide policy becomes acknowledge 0: its event begins at once, its delay already over.
        let replaced = engine.handle(.start(MonitorPolicy(flow: .acknowledge, requestedSeconds: 0)), now: 30 * s + s / 4)
        #expect(replaced.last == .schedule(at: 31 * s + s / 4))
        #expect(engine.handle(.calls(.complete([callA])), now: 30 * s + s / 2) == [])
        #expect(!engine.hasExited)
    }

    @Test("Rule 5 (issue 37): a session that ends while an exit waits takes the wait with it: the next session's exit waits its own full bound")
    func theWaitEndsWithItsSession() {
        var engine = suspendedTerminateEngine()
        _ = engine.handle(.wake(), now: 30 * s)
        // The call's end reported as a change, not a list: the session ends, and with it the wait.
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), now: 30 * s)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("B"))])), now: 40 * s)
        // A call that began in the background starts its event on the return (rule 4).
        #expect(engine.handle(.appState(isForeground: true), now: 50 * s).last == .schedule(at: 51 * s))
        for second in 51...59 { _ = engine.handle(.wake(), now: Int64(second) * s) }
        #expect(engine.handle(.wake(), now: 60 * s) == [
            .tick(.terminate, remaining: 0, token: 2, button: .available, on: .builtInDialog), .refreshCalls, .schedule(at: 61 * s),
        ])
    }

    @Test("Rule 5 (issue 37): an app that never left the foreground has a current view: the exit falls due and happens at once, asking for nothing")
    func inTheForegroundTheViewIsCurrent() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 2)), now: 0)
        _ = engine.handle(.calls(.changes([callA])), now: 0)
        _ = engine.handle(.wake(), now: 1 * s)
        let actions = engine.handle(.wake(), now: 2 * s)
        #expect(actions.last == .exit(code: 0))
        #expect(!actions.contains(.refreshCalls))
    }
}

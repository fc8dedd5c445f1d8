// Split out of VerdictTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

/// The action that hands it to the core's asker, first in the step.
private func installs(_ isSet: Bool) -> MonitorEngine.Action {
    .install(.verifier(isSet ? VerifierBox(verifier: SilentVerifier()) : nil))
}

@Suite("Verdict: the engine (rule 23)", .nothingLeftScheduled)
struct VerdictEngineTests {
    /// An engine enforcing `flow` with a verifier set, and the actions of the first call.
    private func started(_ flow: CallMonitorFlow = .terminate, seconds: Int32 = 5, budget: Int64? = nil) -> (MonitorEngine, [MonitorEngine.Action]) {
        var engine = MonitorEngine()
        #expect(engine.handle(verifier(true), now: 0) == [installs(true)])
        if let budget { #expect(engine.handle(.verdictBudget(budget), now: 0) == []) }
        _ = engine.handle(.start(MonitorPolicy(flow: flow, requestedSeconds: seconds)), now: 0)
        let actions = engine.handle(.calls(.changes([live("A")])), now: 0)
        return (engine, actions)
    }

    @Test("Rule 23: an event asks once, after its presentation and its wake-up, with the default 3 s budget")
    func rule23_asksAfterPresentation() {
        let (_, actions) = started()
        #expect(actions == [
            .emit(.started), .present(.terminate, remaining: 5, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: second), .ask(request: 1, budgetEndsAt: 3 * second),
        ])
    }

    @Test("Rule 23: without a verifier nothing is asked and no verdict is recorded")
    func rule23_noVerifierNoAsk() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 5)), now: 0)
        #expect(engine.handle(.calls(.changes([live("A")])), now: 0) == [
            .emit(.started), .present(.terminate, remaining: 5, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog), .schedule(at: second),
        ])
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsNotCalling), now: second / 2) == [])
        #expect(engine.verdict == .unknown)
    }

    @Test("Rule 23: the first answer counts; a second one, and one after the budget, are ignored")
    func rule23_firstAnswerOnly() {
        var (engine, _) = started()
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsNotCalling), now: second / 2) == [.cancelAsk, .verdict(.bankIsNotCalling, previous: .unknown, flow: .terminate, remaining: 5, token: 1, button: .available, on: .builtInDialog)])
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsCalling), now: second / 2) == [])
        #expect(engine.handle(.verdictBudgetExpired(request: 1), now: 3 * second) == [])
        #expect(engine.verdict == .bankIsNotCalling)
        #expect(engine.signals.verdict == .bankIsNotCalling)
    }

    @Test("Rule 23: no answer within the budget is unknown, and the late answer is ignored")
    func rule23_budgetThenLate() {
        var (engine, _) = started(budget: second / 2)
        #expect(engine.handle(.verdictBudgetExpired(request: 1), now: second / 2) == [.verdict(.unknown, previous: .unknown, flow: .terminate, remaining: 5, token: 1, button: .available, on: .builtInDialog)])
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsNotCalling), now: second) == [])
        #expect(engine.verdict == .unknown)
        #expect(engine.shownEvent?.verdictAt == second / 2)
    }

    @Test("Rule 23: a call that joins asks again; the answer to the earlier question is then stale")
    func rule23_newCallAsksAgain() {
        var (engine, _) = started()
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsCalling), now: 0) == [.cancelAsk, .verdict(.bankIsCalling, previous: .unknown, flow: .terminate, remaining: 5, token: 1, button: .available, on: .builtInDialog)])
        #expect(engine.handle(.calls(.changes([live("B")])), now: second / 2) == [.ask(request: 2, budgetEndsAt: second / 2 + 3 * second)])
        // The verdict shown stays until the new question is answered.
        #expect(engine.verdict == .bankIsCalling)
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsCalling), now: second / 2) == [])
        #expect(engine.handle(.verdictArrived(request: 2, .bankIsNotCalling), now: second / 2) == [.cancelAsk, .verdict(.bankIsNotCalling, previous: .bankIsCalling, flow: .terminate, remaining: 5, token: 1, button: .available, on: .builtInDialog)])
        // A call already known (a state change) is no new call.
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("B"), isOnHold: true)])), now: second / 2) == [])
    }

    @Test("Rule 23: the event's end closes the question after its outcome; the outcome carries the verdict and its time")
    func rule23_endClosesQuestion() {
        var (engine, _) = started(.acknowledge, seconds: 3)
        _ = engine.handle(.verdictArrived(request: 1, .bankIsNotCalling), now: second / 4)
        _ = engine.handle(.calls(.changes([live("B")])), now: second / 2)
        #expect(engine.handle(.calls(.complete([])), now: second) == [
            .emit(.ended), .dismiss(on: .builtInDialog), .cancelWakeUp,
            .outcome(.engine(ending: .callEnded, flow: .acknowledge, total: 3, startedAt: 0, endedAt: second, lowestRemaining: 3,
                           wasScreenCaptured: false, presentations: [.init(surface: .builtInDialog, at: 0, remaining: 3)],
                           verdict: .bankIsNotCalling, verdictAt: second / 4)),
            .cancelAsk,
        ])
        #expect(engine.handle(.verdictArrived(request: 2, .bankIsCalling), now: second) == [])
        #expect(engine.handle(.verdictBudgetExpired(request: 2), now: 4 * second) == [])
        // The next event starts afresh at unknown, with a question of its own.
        #expect(engine.handle(.calls(.changes([live("C")])), now: 5 * second) == [
            .emit(.started), .present(.acknowledge, remaining: 3, token: 2, button: .hidden, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 6 * second), .ask(request: 3, budgetEndsAt: 8 * second),
        ])
        #expect(engine.verdict == .unknown)
    }

    @Test("Rule 23: the exit comes first; the question is closed after it")
    func rule23_exitBeforeCancel() {
        var (engine, _) = started(seconds: 1)
        let actions = engine.handle(.wake(), now: second)
        #expect(Array(actions.prefix(3)) == [.tick(.terminate, remaining: 0, token: 1, button: .available, on: .builtInDialog), .cancelWakeUp, .stopSources(callSource: true)])
        #expect(Array(actions.suffix(2)) == [.exit(code: 0), .cancelAsk])
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsCalling), now: second) == [])
    }

    @Test("Rule 23: a verifier set during an event asks at once; removing it closes the question")
    func rule23_setDuringEvent() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 5)), now: 0)
        _ = engine.handle(.calls(.changes([live("A")])), now: 0)
        #expect(engine.handle(verifier(true), now: second / 2) == [installs(true), .ask(request: 1, budgetEndsAt: second / 2 + 3 * second)])
        #expect(engine.handle(verifier(true), now: second / 2) == [installs(true)])
        #expect(engine.handle(verifier(false), now: second / 2) == [installs(false), .cancelAsk])
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsNotCalling), now: second / 2) == [])
    }

    @Test("Rule 23: a verifier set during an event is asked only if the event was never asked: set again after its removal it is not; a call that joins asks again, and so does the next event")
    func rule23_setAgainDuringEvent() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .acknowledge, requestedSeconds: 0)), now: 0)
        _ = engine.handle(.calls(.changes([live("A")])), now: 0)
        #expect(engine.handle(verifier(true), now: second) == [installs(true), .ask(request: 1, budgetEndsAt: 4 * second)])
        #expect(engine.handle(verifier(false), now: second) == [installs(false), .cancelAsk])
        // The event was asked: setting the verifier again asks nothing, and the old answer is stale.
        #expect(engine.handle(verifier(true), now: 2 * second) == [installs(true)])
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsCalling), now: 2 * second) == [])
        #expect(engine.verdict == .unknown)
        // A call that joins is a new question (rule 23).
        #expect(engine.handle(.calls(.changes([live("B")])), now: 3 * second) == [.ask(request: 2, budgetEndsAt: 6 * second)])
        // The next event asks its own.
        _ = engine.handle(.userAction(token: 1), now: 3 * second)
        #expect(engine.handle(.calls(.changes([live("C")])), now: 4 * second) == [
            .present(.acknowledge, remaining: 0, token: 2, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 5 * second), .ask(request: 3, budgetEndsAt: 7 * second),
        ])
    }

    @Test("Rule 23: the budget is clamped to 0.1…30 s; NaN gives 3 s", arguments: [
        (0.0, Int64(100_000_000)), (-5, 100_000_000), (-.infinity, 100_000_000), (0.1, 100_000_000), (2.5, 2_500_000_000),
        (30, 30_000_000_000), (31, 30_000_000_000), (.infinity, 30_000_000_000), (.nan, 3_000_000_000),
    ])
    func rule23_budgetClamp(seconds: Double, expected: Int64) {
        #expect(CallMonitor.verifierBudgetNanoseconds(clamping: seconds) == expected)
    }

    @Test("Rule 23: a raw verdict from Objective-C outside the three cases is unknown, never bankIsCalling; the three cases are themselves", arguments: [
        (0, CallMonitorCallVerdict.unknown), (1, .bankIsCalling), (2, .bankIsNotCalling),
        (3, .unknown), (-1, .unknown), (257, .unknown), (258, .unknown), (Int.max, .unknown), (Int.min, .unknown),
    ])
    func rule23_outOfRangeRawVerdictIsUnknown(rawValue: Int, expected: CallMonitorCallVerdict) {
        #expect(CallMonitorCallVerdict(sanitizing: rawValue) == expected)
    }
}

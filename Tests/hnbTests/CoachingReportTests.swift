// Rule 33: every coaching question ends with exactly one consumption report, on every ending path,
// with the status the table gives.

import Foundation
import Testing
@testable import hnb

@Suite("Coaching: the consumption report (rule 33)")
struct CoachingReportTests {
    /// An engine with protection 1 (acknowledge 3, payment) open and asked about at 0; a call is
    /// live first when `call`.
    private func asked(
        call: Bool = false, policy: CallMonitor.CoachingPolicy? = nil, flow: MonitorPolicy = ackPolicy(3), budget: Int64? = nil
    ) -> MonitorEngine {
        var engine = coachingEngine(policy: policy, budget: budget)
        if call {
            _ = engine.handle(.start(flow), now: 0)
            _ = engine.handle(.calls(.changes([live("A")])), now: 0)
        }
        #expect(engine.handle(.beginProtection(id: 1, flow, context: coachingContext()), now: 0).coachingQuestions.map(\.id) == [1])
        return engine
    }

    @Test("Rule 33: each kind of answer, and what it ends with",
          arguments: [
              (CallMonitor.CoachingAnswer.unavailable, "1 notUsedError"),
              (.init(level: .unknown), "1 usedUnchangedFriction"),
              (.init(level: .medium, evaluationID: "E1", modelVersion: "m1"), "1 usedIncreasedFriction"),
              (.init(level: .high), "1 usedIncreasedFriction"),
              (.init(level: CallMonitor.CoachingLevel(sanitizing: 7)), "1 usedUnchangedFriction"),
          ] as [(CallMonitor.CoachingAnswer, String)])
    func rule33_answers(answer: CallMonitor.CoachingAnswer, status: String) {
        var engine = asked()
        #expect(engine.handle(.coachingAnswered(request: 1, answer), now: second).coachingReports == [status])
        // The first answer decided it: nothing reports again.
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .high)), now: second).coachingReports == [])
        #expect(engine.handle(.coachingBudgetExpired(request: 1), now: 3 * second).coachingReports == [])
        #expect(engine.handle(.endProtection(id: 1), now: 4 * second).coachingReports == [])
    }

    @Test("Rule 33: the policy's responses decide evaluate-only and unchanged")
    func rule33_policyRows() {
        var evaluating = asked(policy: .init(medium: .evaluate, high: .off))
        #expect(evaluating.handle(.coachingAnswered(request: 1, .init(level: .high)), now: second) == [.reportCoaching(request: 1, .usedEvaluationOnly)])
        var mediumOff = asked(policy: .init(medium: .off, high: .acknowledge(seconds: 10)))
        #expect(mediumOff.handle(.coachingAnswered(request: 1, .init(level: .medium)), now: second) == [.reportCoaching(request: 1, .usedUnchangedFriction)])
        // A stricter call policy is in force already.
        var terminate = asked(call: true, flow: terminatePolicy(5))
        // Rule 34: the call's event says the level read, as a redraw only.
        #expect(terminate.handle(.coachingAnswered(request: 1, .init(level: .high)), now: second).labels
            == ["evidence 1 in 1", "report 1 usedUnchangedFriction", "coachingLevel high terminate 5 available"])
        // A coaching warning as strict is on screen already: the second question changes nothing.
        var twice = asked()
        #expect(twice.handle(.coachingAnswered(request: 1, .init(level: .high)), now: second).coachingReports == ["1 usedIncreasedFriction"])
        #expect(twice.handle(.beginProtection(id: 2, ackPolicy(3), context: coachingContext()), now: second).coachingQuestions.map(\.id) == [2])
        #expect(twice.handle(.coachingAnswered(request: 2, .init(level: .medium)), now: 2 * second) == [
            .coachingInOutcome(request: 2, outcome: 1), .reportCoaching(request: 2, .usedUnchangedFriction),
        ])
    }

    @Test("Rule 33: the protection's end before the answer is notUsedNotNeeded, and the late answer is ignored")
    func rule33_protectionEnded() {
        var engine = asked()
        #expect(engine.handle(.endProtection(id: 1), now: second) == [
            .reportCoaching(request: 1, .notUsedNotNeeded), .stopSources(callSource: true),
        ])
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .high)), now: 2 * second) == [])
    }

    @Test("Rule 33: a protection's end reports its questions before the policy change it causes (the event's end, its outcome, the next event)")
    func rule33_protectionEndReportsFirst() {
        // Call A live under the app-wide acknowledge 3 and protection 2's terminate 5, asked about.
        var engine = asked(call: true, budget: 30 * second)
        #expect(engine.handle(.beginProtection(id: 2, terminatePolicy(5), context: coachingContext()), now: 0).coachingQuestions.map(\.id) == [2])
        #expect(engine.handle(.endProtection(id: 2), now: second).labels == [
            "report 2 notUsedNotNeeded", "dismiss", "cancelWakeUp", "outcome policyChanged", "present acknowledge 3 hidden", "schedule 2",
        ])
    }

    @Test("Rule 33: the budget's end is notUsedError, and the late answer is ignored")
    func rule33_budget() {
        var engine = asked()
        #expect(engine.handle(.coachingBudgetExpired(request: 1), now: 3 * second) == [.reportCoaching(request: 1, .notUsedError)])
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .high)), now: 4 * second) == [])
        #expect(engine.shownEvent == nil)
    }

    @Test("Rule 33: removing the source is notUsedError for the open questions; a new source does not reopen them")
    func rule33_sourceRemoved() {
        var engine = asked()
        #expect(engine.handle(.coachingSource(nil), now: second) == [.reportCoaching(request: 1, .notUsedError)])
        #expect(engine.handle(.coachingSource(.app), now: second) == [])
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .high)), now: 2 * second) == [])
    }

    @Test("Rule 33: stopMonitoring leaves the protection asked; its end reports it, once")
    func rule33_stopThenEnd() {
        var engine = asked(call: true)
        #expect(engine.handle(.stop, now: second).coachingReports == [])
        #expect(engine.handle(.endProtection(id: 1), now: 2 * second).coachingReports == ["1 notUsedNotNeeded"])
        #expect(engine.handle(.endProtection(id: 1), now: 3 * second).coachingReports == [])
    }

    @Test("Rule 33: a force exit reports every undecided question before the exit, after the watchdog is armed",
          arguments: [false, true])
    func rule33_exit(byTap: Bool) throws {
        // A budget longer than the countdown: both questions are still undecided at the exit (with
        // the default 3 s their budgets would have ended before it, which is notUsedError).
        var engine = asked(call: true, flow: terminatePolicy(5), budget: 30 * second)
        _ = engine.handle(.beginProtection(id: 2, terminatePolicy(5), context: coachingContext(.deviceChange)), now: 0)
        var actions: [MonitorEngine.Action] = []
        if byTap {
            let token = try #require(engine.shownEvent?.token)
            actions = engine.handle(.userAction(token: token), now: second)
        } else {
            for tick in 1...5 { actions = engine.handle(.wake(), now: Int64(tick) * second) }
        }
        // The tick to 0 comes first when the countdown runs out.
        #expect(actions.labels == (byTap ? [] : ["tick terminate 0 available"]) + [
            "cancelWakeUp", "stopSources", "armExitWatchdog", "report 1 notUsedNotNeeded", "report 2 notUsedNotNeeded",
            "outcome forceExit", "exit 0",
        ])
        #expect(engine.hasExited)
    }

    @Test("Rule 33: a budget that ends at the instant of the force exit is notUsedError, whichever of the two reaches the engine first",
          arguments: [false, true])
    func rule33_budgetEndsAtTheExit(budgetFirst: Bool) {
        var engine = asked(call: true, flow: terminatePolicy(5), budget: 5 * second)
        for tick in 1...4 { _ = engine.handle(.wake(), now: Int64(tick) * second) }
        if budgetFirst {
            #expect(engine.handle(.coachingBudgetExpired(request: 1), now: 5 * second).labels == ["report 1 notUsedError"])
        }
        #expect(engine.handle(.wake(), now: 5 * second).labels == ["tick terminate 0 available", "cancelWakeUp", "stopSources"]
            + (budgetFirst ? [] : ["armExitWatchdog", "report 1 notUsedError"]) + ["outcome forceExit", "exit 0"])
        #expect(engine.handle(.coachingBudgetExpired(request: 1), now: 5 * second) == [])
    }

    @Test("Rule 33: the protection's end a nanosecond before the budget's is notUsedNotNeeded; at its instant, or after a budget whose timer is late, notUsedError")
    func rule33_budgetEndsAtTheProtectionsEnd() {
        for (ends, status) in [(3 * second - 1, "1 notUsedNotNeeded"), (3 * second, "1 notUsedError"), (7 * second, "1 notUsedError")] {
            var engine = asked(budget: 3 * second)
            #expect(engine.handle(.endProtection(id: 1), now: ends).coachingReports == [status], "protection ends at \(ends)")
            #expect(engine.handle(.coachingBudgetExpired(request: 1), now: 3 * second).coachingReports == [])
        }
        // An answer read in time that waits in the background for its warning was not needed when
        // its protection ends, even at its budget's instant.
        var waiting = asked(budget: 3 * second)
        _ = waiting.handle(.appState(isForeground: false), now: 0)
        #expect(waiting.handle(.coachingAnswered(request: 1, .init(level: .high)), now: second) == [])
        #expect(waiting.handle(.endProtection(id: 1), now: 3 * second).coachingReports == ["1 notUsedNotNeeded"])
    }

    @Test("Rule 33: an answer in the background with no call live waits for the warning; the protection's end first is notUsedNotNeeded")
    func rule33_background() {
        var shown = asked()
        _ = shown.handle(.appState(isForeground: false), now: 0)
        #expect(shown.handle(.coachingAnswered(request: 1, .init(level: .high)), now: second) == [])
        #expect(shown.handle(.appState(isForeground: true), now: 2 * second).labels == [
            "present acknowledge 10 hidden", "schedule 3", "evidence 1 in 1", "report 1 usedIncreasedFriction",
        ])
        var ended = asked()
        _ = ended.handle(.appState(isForeground: false), now: 0)
        #expect(ended.handle(.coachingAnswered(request: 1, .init(level: .high)), now: second) == [])
        #expect(ended.handle(.endProtection(id: 1), now: 2 * second).coachingReports == ["1 notUsedNotNeeded"])
    }

    @Test("Rule 33: call detection switched off leaves the question open; it is decided later, once")
    func rule33_detectionOff() {
        var engine = asked(call: true)
        #expect(engine.handle(.callDetection(false), now: second).coachingReports == [])
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .medium)), now: 2 * second).coachingReports == ["1 usedIncreasedFriction"])
    }
}

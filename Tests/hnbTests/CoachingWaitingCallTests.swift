// Rule 33: an answer that waited in the background for a coaching warning while a call became live
// is decided once the call's event is on screen, as an answer read during a live call is: raised
// when its warning is what the event shows and would not be without it, unchanged when the call's
// own policy is as strict or stricter. Before, it was reported `notUsedNotNeeded` at the
// protection's end although its policy had joined the call's.

import Foundation
import Testing
@testable import hnb

@Suite("Coaching: a waiting answer under a call that became live (rule 33)")
struct CoachingWaitingCallTests {
    /// A protection with `policy`, a high answer read in the background (an acknowledge warning
    /// of 10 s by default), then a call that goes live while the app is still away.
    private func waitingThenCall(_ policy: MonitorPolicy) -> MonitorEngine {
        var engine = coachingEngine()
        _ = engine.handle(.beginProtection(id: 1, policy, context: coachingContext()), now: 0)
        _ = engine.handle(.appState(isForeground: false), now: 0)
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .high)), now: second) == [])
        #expect(engine.handle(.calls(.changes([live("A")])), now: 2 * second).coachingReports == [])
        return engine
    }

    @Test("Rule 33: the coaching warning is stricter than the call's policy: reported raised when the event shows it")
    func raisedWhenItsWarningShows() {
        var engine = waitingThenCall(ackPolicy(3))
        let back = engine.handle(.appState(isForeground: true), now: 3 * second)
        #expect(back.labels.filter { $0.hasPrefix("present") || $0.hasPrefix("report") } == [
            "present acknowledge 10 hidden", "report 1 usedIncreasedFriction",
        ])
        // Issue 40: the call's event, on screen, records the answer in its outcome.
        #expect(back.labels.filter { $0.hasPrefix("evidence") } == ["evidence 1 in 1"])
        // Decided once: the protection's end reports nothing more.
        #expect(engine.handle(.endProtection(id: 1), now: 4 * second).coachingReports == [])
    }

    @Test("Rule 33: the call's terminate countdown shows: reported unchanged, once")
    func unchangedUnderAStricterCallPolicy() {
        var engine = waitingThenCall(terminatePolicy(5))
        let back = engine.handle(.appState(isForeground: true), now: 3 * second)
        #expect(back.labels.filter { $0.hasPrefix("present") || $0.hasPrefix("report") } == [
            "present terminate 5 available", "report 1 usedUnchangedFriction",
        ])
        #expect(back.labels.filter { $0.hasPrefix("evidence") } == ["evidence 1 in 1"])
        #expect(engine.handle(.endProtection(id: 1), now: 4 * second).coachingReports == [])
    }

    @Test("Rule 33: a call's acknowledge policy as strict as the warning: reported unchanged")
    func unchangedUnderAnEqualCallPolicy() {
        var engine = waitingThenCall(ackPolicy(10))
        let back = engine.handle(.appState(isForeground: true), now: 3 * second)
        #expect(back.coachingReports == ["1 usedUnchangedFriction"])
    }

    @Test("Rule 33: the call ends before the app returns: the coaching warning shows and reports it raised")
    func callEndsFirstThenWarning() {
        var engine = waitingThenCall(ackPolicy(3))
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), now: 3 * second).coachingReports == [])
        let back = engine.handle(.appState(isForeground: true), now: 4 * second)
        #expect(back.coachingReports == ["1 usedIncreasedFriction"])
    }
}

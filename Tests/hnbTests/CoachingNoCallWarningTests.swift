// Rule 32, no call live: the coaching warning on screen is always the strictest one due. A stricter
// answer for another open protection replaces a shorter warning at once; an acknowledged warning
// covers only while some protection still has a coaching policy, so a protection opened after the
// last one ended is warned again.

import Foundation
import Testing
@testable import hnb

@Suite("Coaching: the no-call warning follows the strictest answer (rule 32)")
struct CoachingNoCallWarningTests {
    @Test("Rule 32: a high answer for a second protection replaces the medium warning on screen")
    func stricterAnswerReplacesTheWarning() {
        var engine = coachingEngine()
        #expect(engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0).coachingQuestions.map(\.id) == [1])
        #expect(engine.handle(.beginProtection(id: 2, ackPolicy(3), context: coachingContext(.credentials)), now: 0).coachingQuestions.map(\.id) == [2])
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .medium)), now: second).labels
            == ["present acknowledge 5 hidden", "schedule 2", "evidence 1 in 1", "report 1 usedIncreasedFriction"])
        #expect(engine.handle(.coachingAnswered(request: 2, .init(level: .high)), now: 2 * second).labels == [
            "dismiss", "cancelWakeUp", "outcome policyChanged", "present acknowledge 10 hidden", "schedule 3", "evidence 2 in 2",
            "report 2 usedIncreasedFriction",
        ])
        #expect(engine.shownEvent?.isCoachingWarning == true)
        #expect(engine.shownEvent?.total == 10)
    }

    @Test("Rules 23 and 32: a coaching warning asks no verifier (it has no call); the call's event that replaces it asks")
    func warningAsksNoVerifier() {
        var engine = coachingEngine()
        _ = engine.handle(.setCallVerifier(VerifierBox(verifier: AsyncCallVerifier { .unknown })), now: 0)
        #expect(engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0).coachingQuestions.map(\.id) == [1])
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .medium)), now: second).labels
            == ["present acknowledge 5 hidden", "schedule 2", "evidence 1 in 1", "report 1 usedIncreasedFriction"])
        #expect(engine.handle(.wake(), now: 2 * second).labels == ["tick acknowledge 4 hidden", "schedule 3"])
        // A call becomes live: its event replaces the warning, and only it asks.
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasConnected: true)])), now: 3 * second).labels == [
            "emit started", "dismiss", "cancelWakeUp", "outcome policyChanged", "present acknowledge 5 hidden", "schedule 4",
            "ask(request: 1, budgetEndsAt: 6000000000)",
        ])
    }

    @Test("Rule 32: an acknowledged coaching warning is forgotten when no protection is left; the next one warns again")
    func acknowledgementEndsWithTheProtections() throws {
        var engine = coachingEngine()
        #expect(engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0).coachingQuestions.map(\.id) == [1])
        _ = engine.handle(.coachingAnswered(request: 1, .init(level: .medium)), now: second)
        for tick in 2...6 { _ = engine.handle(.wake(), now: Int64(tick) * second) }
        let token = try #require(engine.shownEvent?.token)
        #expect(engine.handle(.userAction(token: token), now: 6 * second).labels.contains("outcome acknowledged"))
        _ = engine.handle(.endProtection(id: 1), now: 7 * second)
        // A new protection after the last one ended: its medium answer warns again.
        let opened = engine.handle(.beginProtection(id: 2, ackPolicy(3), context: coachingContext()), now: 8 * second)
        let asked = try #require(opened.coachingQuestions.first)
        #expect(engine.handle(.coachingAnswered(request: asked.id, .init(level: .medium)), now: 9 * second).labels
            == ["present acknowledge 5 hidden", "schedule 10", "evidence \(asked.id) in 2", "report \(asked.id) usedIncreasedFriction"])
    }

    @Test("Rule 32: an acknowledgement given while no coaching policy is set covers no later coaching warning")
    func acknowledgementBeforeAnyCoachingPolicyCoversNoLaterWarning() throws {
        // Budget 30 s, so the answer at 6 s is in time; the app-wide acknowledge 5 is stricter than
        // protection a's acknowledge 2, so the call's event is a 5 s warning.
        var engine = coachingEngine(budget: 30 * second)
        #expect(engine.handle(.start(ackPolicy(5)), now: 0).labels == ["startSources"])
        #expect(engine.handle(.beginProtection(id: 1, ackPolicy(2), name: "a", context: coachingContext()), now: 0).coachingQuestions.map(\.id) == [1])
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0).labels
            == ["emit ringing", "present acknowledge 5 hidden", "schedule 1"])
        for tick in 1...5 { _ = engine.handle(.wake(), now: Int64(tick) * second) }
        let token = try #require(engine.shownEvent?.token)
        // The tap at 5 s covers call A; no protection has a coaching policy yet.
        #expect(engine.handle(.userAction(token: token), now: 5 * second).labels == ["dismiss", "cancelWakeUp", "outcome acknowledged"])
        // The medium answer at 6 s gives protection a a coaching acknowledge 5, as strict as the
        // policy the tap covered: with the call live nothing shows.
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .medium)), now: 6 * second).labels
            == ["report 1 usedUnchangedFriction"])
        // The call ends at 7 s: the tap covered the call, not the coaching warning, which begins now.
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), now: 7 * second).labels
            == ["emit ended", "present acknowledge 5 hidden", "schedule 8"])
        #expect(engine.shownEvent?.isCoachingWarning == true)
        #expect(engine.shownEvent?.total == 5)
    }
}

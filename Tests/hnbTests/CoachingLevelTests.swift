// Rule 34 in the engine: the coaching level the event on screen says, per case. Only a medium or
// high answer read with a warning as its response leaves a level; the event says the highest of
// the open protections, from its first presentation, and a change while it is shown is a redraw
// only: the same actions, statuses and wake-ups as without the line.

import Foundation
import Testing
@testable import hnb

@Suite("Coaching: the level the dialog's line says (rule 34)")
struct CoachingLevelTests {
    /// Each scene among `actions` as `change level`, `none` for no level.
    private func levels(_ actions: [MonitorEngine.Action]) -> [String] {
        actions.compactMap { action in
            guard case .scene(let scene) = action else { return nil }
            let change = coachingLabel(action).split(separator: " ").first.map(String.init) ?? ""
            return "\(change) \(scene.coachingLevel.map(\.description) ?? "none")"
        }
    }

    /// An engine with a call live under the app-wide `policy`, its event on screen, and a payment
    /// protection (question 1) opened under an acknowledge policy of 3 s.
    private func liveCallEngine(_ policy: MonitorPolicy, coaching: CallMonitor.CoachingPolicy? = nil) -> MonitorEngine {
        var engine = coachingEngine(policy: coaching)
        _ = engine.handle(.start(policy), now: 0)
        _ = engine.handle(.appState(isForeground: true), now: 0)
        _ = engine.handle(.calls(.changes([live("A")])), now: 0)
        #expect(engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0).coachingQuestions.map(\.id) == [1])
        return engine
    }

    @Test("No call: a medium answer's warning is presented saying medium; a high one's saying high", arguments: [
        (CallMonitor.CoachingLevel.medium, "present acknowledge 5 hidden"), (.high, "present acknowledge 10 hidden"),
    ])
    func noCallPresentsTheLevel(level: CallMonitor.CoachingLevel, presented: String) {
        var engine = coachingEngine()
        _ = engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0)
        let actions = engine.handle(.coachingAnswered(request: 1, .init(level: level)), now: second)
        #expect(actions.labels == [presented, "schedule 2", "evidence 1 in 1", "report 1 usedIncreasedFriction"])
        #expect(levels(actions) == ["present \(level)"])
        #expect(engine.shownEvent?.coachingLevel == level)
    }

    @Test("Unknown, unavailable, off and evaluate leave no level: no redraw, the statuses of rule 33", arguments: [
        (CallMonitor.CoachingPolicy(), CallMonitor.CoachingAnswer(level: .unknown), "report 1 usedUnchangedFriction"),
        (CallMonitor.CoachingPolicy(), CallMonitor.CoachingAnswer.unavailable, "report 1 notUsedError"),
        (CallMonitor.CoachingPolicy(medium: .off), CallMonitor.CoachingAnswer(level: .medium), "report 1 usedUnchangedFriction"),
        (CallMonitor.CoachingPolicy(medium: .evaluate), CallMonitor.CoachingAnswer(level: .medium), "report 1 usedUnchangedFriction"),
        (CallMonitor.CoachingPolicy(medium: .evaluate, high: .evaluate), CallMonitor.CoachingAnswer(level: .high), "report 1 usedEvaluationOnly"),
    ])
    func noLevel(policy: CallMonitor.CoachingPolicy, answer: CallMonitor.CoachingAnswer, report: String) {
        var engine = liveCallEngine(terminatePolicy(5), coaching: policy)
        // Read while the call's event is on screen: its outcome records the answer (issue 40).
        #expect(engine.handle(.coachingAnswered(request: 1, answer), now: second).labels == ["evidence 1 in 1", report])
        #expect(engine.shownEvent?.coachingLevel == nil)
        // With no call live either: nothing is presented.
        var idle = coachingEngine(policy: policy)
        _ = idle.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0)
        #expect(idle.handle(.coachingAnswered(request: 1, answer), now: second).labels == [report])
        #expect(idle.shownEvent == nil)
    }

    @Test("A live call's terminate event: a high answer changes nothing of it but its line (usedUnchangedFriction)")
    func liveTerminateRedrawsOnly() throws {
        var engine = liveCallEngine(terminatePolicy(5))
        let before = try #require(engine.shownEvent)
        let actions = engine.handle(.coachingAnswered(request: 1, .init(level: .high)), now: second)
        #expect(actions.labels == ["evidence 1 in 1", "report 1 usedUnchangedFriction", "coachingLevel high terminate 5 available"])
        #expect(levels(actions) == ["coachingLevel high"])
        let after = try #require(engine.shownEvent)
        #expect(after.token == before.token && after.remaining == 5 && after.flow == .terminate && after.origin == before.origin)
    }

    @Test("A live call's acknowledge event: a stricter high answer begins the new event with the level at once")
    func liveAcknowledgeBeginsWithTheLevel() {
        var engine = liveCallEngine(ackPolicy(3))
        let actions = engine.handle(.coachingAnswered(request: 1, .init(level: .high)), now: second)
        #expect(actions.labels == [
            "dismiss", "cancelWakeUp", "outcome policyChanged", "present acknowledge 10 hidden", "schedule 2", "evidence 1 in 2",
            "report 1 usedIncreasedFriction",
        ])
        #expect(levels(actions) == ["present high"])
    }

    @Test("The level rises from medium to high while the warning is shown: a redraw, the same countdown")
    func risesWhileShown() throws {
        var engine = coachingEngine(policy: .init(medium: .acknowledge(seconds: 10), high: .acknowledge(seconds: 10)))
        _ = engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0)
        _ = engine.handle(.beginProtection(id: 2, ackPolicy(3), context: coachingContext(.credentials)), now: 0)
        #expect(levels(engine.handle(.coachingAnswered(request: 1, .init(level: .medium)), now: second)) == ["present medium"])
        let token = try #require(engine.shownEvent?.token)
        let actions = engine.handle(.coachingAnswered(request: 2, .init(level: .high)), now: second)
        // The context follows the answer too (rule 32: the protection begun last with the warning's
        // policy), a redraw of its own before the level's.
        #expect(actions.labels == [
            "evidence 2 in 1", "report 2 usedUnchangedFriction", "context acknowledge 10 hidden", "coachingLevel high acknowledge 10 hidden",
        ])
        #expect(levels(actions) == ["context medium", "coachingLevel high"])
        #expect(engine.shownEvent?.token == token)
        // A later medium answer does not lower it (its context is shown, with the level as it was).
        _ = engine.handle(.beginProtection(id: 3, ackPolicy(3), context: coachingContext(.deviceChange)), now: 2 * second)
        #expect(levels(engine.handle(.coachingAnswered(request: 3, .init(level: .medium)), now: 2 * second)) == ["context high"])
        #expect(engine.shownEvent?.coachingLevel == .high)
    }

    @Test("The end of the protection an answer was read for drops its level; the event and its countdown stay")
    func protectionEndDropsTheLevel() throws {
        var engine = liveCallEngine(terminatePolicy(5))
        _ = engine.handle(.beginProtection(id: 2, ackPolicy(3), context: coachingContext(.credentials)), now: 0)
        _ = engine.handle(.coachingAnswered(request: 1, .init(level: .high)), now: 0)
        _ = engine.handle(.coachingAnswered(request: 2, .init(level: .medium)), now: 0)
        #expect(engine.shownEvent?.coachingLevel == .high)
        let ended = engine.handle(.endProtection(id: 1), now: second / 2)
        #expect(ended.labels == ["coachingLevel medium terminate 5 available"])
        #expect(levels(ended) == ["coachingLevel medium"])
        let last = engine.handle(.endProtection(id: 2), now: second / 2)
        #expect(last.labels == ["coachingLevel none terminate 5 available"])
        #expect(levels(last) == ["coachingLevel none"])
        #expect(engine.shownEvent?.flow == .terminate)
    }

    @Test("A call's event that begins after a no-call answer starts with its level")
    func callEventStartsWithTheLevel() {
        var engine = coachingEngine()
        _ = engine.handle(.start(terminatePolicy(5)), now: 0)
        _ = engine.handle(.appState(isForeground: true), now: 0)
        _ = engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0)
        #expect(levels(engine.handle(.coachingAnswered(request: 1, .init(level: .medium)), now: second)) == ["present medium"])
        let actions = engine.handle(.calls(.changes([live("A")])), now: 2 * second)
        #expect(levels(actions) == ["present medium"])
        #expect(engine.shownEvent?.flow == .terminate && engine.shownEvent?.isCoachingWarning == false)
    }
}

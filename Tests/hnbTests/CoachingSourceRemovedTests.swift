// Rule 33: removing the coaching source closes the questions still open (their answers would come
// from a source the app let go), but not an answer already read that waits in the background for
// its warning: that answer was consumed, and its warning begins when the app returns.

import Foundation
import Testing
@testable import hnb
import hnbTesting

@Suite("Coaching: removing the source leaves a waiting answer (rule 33)")
struct CoachingSourceRemovedTests {
    @Test("Rule 33: a high answer read in the background outlives its source's removal: the warning begins on return, usedIncreasedFriction in outcome 1")
    func waitingAnswerOutlivesTheSource() throws {
        var engine = coachingEngine()
        #expect(engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0).coachingQuestions.map(\.id) == [1])
        _ = engine.handle(.appState(isForeground: false), now: 0)
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .high, evaluationID: "ins-1", modelVersion: "m-7")), now: second) == [])
        // Nothing is open any more: the removal reports nothing.
        #expect(engine.handle(.coachingSource(nil), now: 2 * second) == [])
        #expect(engine.handle(.appState(isForeground: true), now: 3 * second).labels
            == ["present acknowledge 10 hidden", "schedule 4", "evidence 1 in 1", "report 1 usedIncreasedFriction"])
        let ended = engine.handle(.endProtection(id: 1), now: 4 * second)
        let outcomes = ended.compactMap { if case .outcome(let outcome) = $0 { outcome } else { nil } }
        #expect(outcomes.map(\.id) == [1])
        #expect(outcomes.map(\.coaching) == [[.init(
            questionID: 1, at: 3 * second, level: .high, source: .app, evaluationID: "ins-1", modelVersion: "m-7",
            operationID: "TX-1", consumption: .usedIncreasedFriction
        )]])
    }

    @MainActor
    @Test("Rule 33: the source asked hears the waiting answer's report, naming outcome 1, after the app removed it")
    func removedSourceHearsTheReport() async throws {
        let h = Harness(foreground: false)
        let source = ScriptedCoachingSource()
        h.monitor.setCoachingSource(using: source)
        let payment = h.monitor.protect(withAcknowledgeIn: 3, context: CallMonitorContext(kind: .payment, operationID: "TX-1"))
        h.advance(1)
        #expect(source.asked.map(\.id) == [1])
        source.answer(1, .init(level: .high, evaluationID: "ins-1", modelVersion: "m-7"))
        await drainMainQueue()
        h.advance(1)
        h.monitor.setCoachingSource(using: nil)
        h.advance(1)
        #expect(source.reports == [])
        h.app.setForeground(true)
        h.advance(0)
        #expect(source.reports == ["1 usedIncreasedFriction"])
        #expect(source.outcomeIDs == ["1 1"])
        payment.end()
        #expect(h.outcomes.map(\.id) == [1])
        #expect(h.outcomes.map { $0.coaching.map(\.consumption) } == [[.usedIncreasedFriction]])
        #expect(h.outcomes.map { $0.coaching.map(\.evaluationID) } == [["ins-1"]])
    }
}

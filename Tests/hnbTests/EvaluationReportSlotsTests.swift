import Foundation
import Testing
import hnb
@testable import hnbTrustInsights

/// The Trust Insights adapter's pairing of evaluations and statuses (issue 40, rule 33): each
/// evaluation is handed out exactly once, with the first status the engine decided, whichever of
/// the two comes first; nothing is handed out for a question that has no evaluation.
@Suite struct EvaluationReportSlotsTests {
    /// A stand-in evaluation: an object, so the tests can see which one was handed out.
    final class Evaluation: Sendable {
        let name: String
        init(_ name: String) { self.name = name }
    }

    @Test func evaluationFirstThenStatus() {
        let slots = EvaluationReportSlots<Evaluation>()
        let e = Evaluation("e1")
        #expect(slots.arrived(1, e) == nil)
        #expect(slots.pendingCount == 1)
        let out = slots.decided(1, .usedIncreasedFriction)
        #expect(out === e)
        #expect(slots.pendingCount == 0)
        // Once paired, nothing more comes out of either side.
        #expect(slots.decided(1, .usedUnchangedFriction) == nil)
        #expect(slots.arrived(1, Evaluation("again")) == nil)
        #expect(slots.pendingCount == 0)
    }

    @Test func statusFirstThenEvaluation() {
        let slots = EvaluationReportSlots<Evaluation>()
        #expect(slots.decided(7, .notUsedNotNeeded) == nil)
        #expect(slots.pendingCount == 1)
        // The first status stands; a second one before the evaluation changes nothing.
        #expect(slots.decided(7, .usedIncreasedFriction) == nil)
        #expect(slots.arrived(7, Evaluation("late")) == .notUsedNotNeeded)
        #expect(slots.pendingCount == 0)
        #expect(slots.arrived(7, Evaluation("later")) == nil)
        #expect(slots.decided(7, .notUsedError) == nil)
    }

    @Test func noEvaluationDropsTheStatusAndClosesTheQuestion() {
        let slots = EvaluationReportSlots<Evaluation>()
        #expect(slots.decided(3, .notUsedError) == nil)
        slots.noEvaluation(3)
        #expect(slots.pendingCount == 0)
        // A request that threw before the engine decided: the later status opens nothing.
        slots.noEvaluation(4)
        #expect(slots.decided(4, .notUsedError) == nil)
        #expect(slots.pendingCount == 0)
    }

    @Test func questionsAreIndependent() {
        let slots = EvaluationReportSlots<Evaluation>()
        let a = Evaluation("a"), b = Evaluation("b")
        #expect(slots.arrived(1, a) == nil)
        #expect(slots.decided(2, .usedEvaluationOnly) == nil)
        #expect(slots.arrived(2, b) == .usedEvaluationOnly)
        #expect(slots.decided(1, .usedUnchangedFriction) === a)
        #expect(slots.pendingCount == 0)
    }

    /// The closed ids are remembered up to a bound, so the slots do not grow with every question.
    @Test func closedMemoryIsBounded() {
        let slots = EvaluationReportSlots<Evaluation>()
        let n = UInt64(EvaluationReportSlots<Evaluation>.closedMemory)
        for id in 1...(n + 10) {
            #expect(slots.arrived(id, Evaluation("\(id)")) == nil)
            #expect(slots.decided(id, .usedUnchangedFriction) != nil)
        }
        #expect(slots.pendingCount == 0)
        // The newest closed id is still remembered.
        #expect(slots.decided(n + 10, .notUsedError) == nil)
        #expect(slots.pendingCount == 0)
    }

    /// Arrival and decision racing from several threads: every question's evaluation comes out
    /// exactly once, on one side or the other. `concurrentPerform` spreads the two sides over
    /// threads, so Thread Sanitizer (CI's step lists this suite) sees any access the lock misses.
    @Test func racingSidesHandOutEachEvaluationOnce() {
        let slots = EvaluationReportSlots<Evaluation>()
        let count = 500
        let handedOut = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 2 * count) { index in
            let id = UInt64(index / 2 + 1)
            let out = index.isMultiple(of: 2)
                ? slots.arrived(id, Evaluation("\(id)")) != nil
                : slots.decided(id, .usedIncreasedFriction) != nil
            if out { handedOut.withLock { $0 += 1 } }
        }
        #expect(handedOut.value == count)
        #expect(slots.pendingCount == 0)
    }
}

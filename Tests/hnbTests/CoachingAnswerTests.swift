// Rules 31 and 33 through the facade: the source the app sets, its answers from any thread, twice,
// late or after the end, the Swift closure and the Objective-C completion, the policy and budget
// setters; each question reported once to the source asked, on the main thread.

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Coaching: answers through the facade (rules 31 and 33)", .nothingLeftScheduled)
struct CoachingAnswerTests {
    private func harness() -> (Harness, ScriptedCoachingSource) {
        let h = Harness()
        let source = ScriptedCoachingSource()
        h.monitor.setCoachingSource(using: source)
        return (h, source)
    }

    /// Lets what other threads posted run on the main thread.
    private func settle(_ h: Harness) async {
        await drainMainQueue()
        h.advance(0)
    }

    @Test("Rule 31: the first answer counts, a second and a late one are ignored; one report")
    func rule31_firstAnswerCounts() async throws {
        let (h, source) = harness()
        let protection = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .payment, operationID: "TX-9"))
        #expect(source.asked == [question(1, nil, CallMonitorContext(kind: .payment, operationID: "TX-9"))])
        h.advance(1)
        source.answer(1, .init(level: .high))
        source.answer(1, .init(level: .unknown))
        await settle(h)
        #expect(source.reports == ["1 usedIncreasedFriction"])
        #expect(h.renderer.current?.flow == .acknowledge && h.renderer.current?.remaining == 10)
        h.advance(5)
        source.answer(1, .unavailable)
        await settle(h)
        #expect(source.reports == ["1 usedIncreasedFriction"])
        protection.end()
        h.advance(1)
        #expect(h.renderer.current == nil)
        #expect(source.reports == ["1 usedIncreasedFriction"])
    }

    @Test("Rule 33: no answer within the budget (clamped to 0.1 s) is notUsedError; the late answer is ignored")
    func rule33_budgetClamped() async {
        let (h, source) = harness()
        h.monitor.setCoachingBudget(0.05)
        let protection = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .credentials))
        h.advance(0.09)
        #expect(source.reports == [])
        h.advance(0.01)
        #expect(source.reports == ["1 notUsedError"])
        source.answer(1, .init(level: .high))
        await settle(h)
        #expect(source.reports == ["1 notUsedError"])
        #expect(h.renderer.current == nil)
        protection.end()
    }

    @Test("Rule 33: answers from eight threads at once: one counts, one report")
    func rule33_anyThread() async {
        let (h, source) = harness()
        let protection = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .deviceChange))
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask { source.answer(1, .init(level: index % 2 == 0 ? .high : .medium)) }
            }
        }
        await settle(h)
        #expect(source.reports.count == 1)
        #expect(source.reports.first == "1 usedIncreasedFriction")
        protection.end()
        h.advance(1)
        #expect(source.reports.count == 1)
    }

    @Test("Rule 33: the protection's end from another thread before the answer is notUsedNotNeeded, reported on the main thread")
    func rule33_endOnOtherThread() async {
        let (h, source) = harness()
        let protection = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .accountChange))
        await Task.detached { protection.end() }.value
        await settle(h)
        #expect(source.reports == ["1 notUsedNotNeeded"])
        source.answer(1, .init(level: .high))
        await settle(h)
        #expect(source.reports == ["1 notUsedNotNeeded"])
        #expect(h.renderer.current == nil)
    }

    @Test("Rule 32: the policy set through the facade decides: evaluate shows nothing; negative seconds clamp to 0")
    func rule32_policyThroughFacade() async {
        #expect(CallMonitor.CoachingPolicy(medium: .acknowledge(seconds: -4)).medium == .acknowledge(seconds: 0))
        #expect(CallMonitor.CoachingPolicy() == .init(medium: .acknowledge(seconds: 5), high: .acknowledge(seconds: 10)))
        let (h, source) = harness()
        h.monitor.setCoachingPolicy(.init(medium: .evaluate, high: .evaluate))
        let protection = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .payment))
        source.answer(1, .init(level: .high))
        await settle(h)
        #expect(source.reports == ["1 usedEvaluationOnly"])
        #expect(h.renderer.current == nil)
        protection.end()
    }

    @Test("Rule 31: the app's Swift closure is asked off the main thread; its report closure hears the status on the main thread")
    func rule31_swiftClosure() async throws {
        let h = Harness()
        let reports = Locked<[String]>([])
        h.monitor.setCoachingSource({ question in
            .init(level: question.operationCategory == .payment ? .high : .unknown, evaluationID: "E1")
        }, report: { question, status in
            expectOnMainQueue()
            reports.withLock { $0.append("\(question.id) \(question.operationID ?? "-") \(status)") }
        })
        let protection = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .payment, operationID: "TX-2"))
        for _ in 0..<200 where reports.value.isEmpty {
            await settle(h)
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        #expect(reports.value == ["1 TX-2 usedIncreasedFriction"])
        protection.end()
        h.advance(1)
        #expect(reports.value == ["1 TX-2 usedIncreasedFriction"])
    }

    @Test("Rule 32: Objective-C's response kinds: off, evaluate, acknowledge with its seconds; a kind outside the enum is acknowledge")
    func rule32_objectiveCResponseKinds() {
        #expect(Coaching.coachingResponse(rawKind: 0, seconds: 7) == .off)
        #expect(Coaching.coachingResponse(rawKind: 1, seconds: 7) == .evaluate)
        #expect(Coaching.coachingResponse(rawKind: 2, seconds: 7) == .acknowledge(seconds: 7))
        #expect(Coaching.coachingResponse(rawKind: 3, seconds: 4) == .acknowledge(seconds: 4))
        #expect(Coaching.coachingResponse(rawKind: -1, seconds: 4) == .acknowledge(seconds: 4))
        // Negative seconds count as 0 once in a policy, as Swift's do.
        let policy = CallMonitor.CoachingPolicy(
            medium: Coaching.coachingResponse(rawKind: 2, seconds: -5), high: Coaching.coachingResponse(rawKind: 9, seconds: 12)
        )
        #expect(policy == CallMonitor.CoachingPolicy(medium: .acknowledge(seconds: 0), high: .acknowledge(seconds: 12)))
    }

    @Test("Rule 31: the Objective-C completion: twice is harmless, any thread, a raw level outside the enum is unknown")
    func rule31_completion() async throws {
        #expect(CallMonitor.CoachingLevel(sanitizing: 3) == .unknown)
        #expect(CallMonitor.CoachingLevel(sanitizing: -1) == .unknown)
        #expect(CallMonitor.CoachingLevel(sanitizing: 2) == .high)
        let h = Harness()
        let reports = Locked<[String]>([])
        let asked = Locked<[String]>([])
        let blocks = UncheckedCoachingBlocks(ask: { category, operationID, completion in
            asked.withLock { $0.append("\(category) \(operationID ?? "-")") }
            completion(.medium)
            // As an Objective-C app would: the same completion again, from another queue.
            nonisolated(unsafe) let again = completion
            DispatchQueue.global().async { again(.high) }
        }, report: { operationID, status in
            reports.withLock { $0.append("\(operationID ?? "-") \(status)") }
        })
        h.monitor.setCoachingSource(using: CompletionCoachingSource(blocks))
        let protection = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .credentials, operationID: "L-1"))
        for _ in 0..<200 where reports.value.isEmpty {
            await settle(h)
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        #expect(asked.value == ["account L-1"])
        #expect(reports.value == ["L-1 usedIncreasedFriction"])
        #expect(h.renderer.current?.remaining == 5)
        protection.end()
        h.advance(1)
        #expect(reports.value == ["L-1 usedIncreasedFriction"])
    }

    @Test("Rule 33: removing the source reports the open question as notUsedError to the source that was asked")
    func rule33_sourceRemoved() async {
        let (h, source) = harness()
        let protection = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .payment))
        h.monitor.setCoachingSource(nil)
        h.advance(0)
        #expect(source.reports == ["1 notUsedError"])
        source.answer(1, .init(level: .high))
        await settle(h)
        #expect(source.reports == ["1 notUsedError"])
        protection.end()
    }
}

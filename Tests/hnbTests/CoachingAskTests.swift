// Rule 31: when the coaching source is asked, and what the question carries.

import Foundation
import Testing
@testable import hnb

@Suite("Coaching: asking (rule 31)")
struct CoachingAskTests {
    @Test("Rule 31: a protection with a non-general context is asked about once, after the step's own actions, with no call live")
    func rule31_asksOnOpeningWithoutCall() {
        var engine = coachingEngine()
        let context = coachingContext()
        #expect(engine.handle(.beginProtection(id: 1, ackPolicy(3), name: "pay", context: context), now: 0) == [
            .startSources(callDetection: true, owner: nil), .askCoaching(question(1, "pay", context), budgetEndsAt: 3 * second),
        ])
        // Nothing else opens: nothing more is asked.
        #expect(engine.handle(.calls(.changes([live("A")])), now: second).coachingQuestions == [])
    }

    @Test("Rule 31: with a call live the question comes after the presentation and the wake-up")
    func rule31_asksAfterPresentationWithCall() {
        var engine = coachingEngine()
        _ = engine.handle(.start(terminatePolicy(5)), now: 0)
        _ = engine.handle(.calls(.changes([live("A")])), now: 0)
        let context = coachingContext(.credentials, operation: nil)
        #expect(engine.handle(.beginProtection(id: 1, ackPolicy(3), context: context), now: second / 2) == [
            .askCoaching(question(1, nil, context), budgetEndsAt: second / 2 + 3 * second),
        ])
    }

    @Test("Rule 31: the operation category of every kind; general is never asked about", arguments: CallMonitorContext.Kind.allCases)
    func rule31_categories(kind: CallMonitorContext.Kind) {
        var engine = coachingEngine()
        let asked = engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext(kind)), now: 0).coachingQuestions
        let expected: [CallMonitorContext.Kind: CallMonitor.CoachingQuestion.OperationCategory] = [
            .payment: .payment, .credentials: .account, .deviceChange: .account, .accountChange: .account,
        ]
        #expect(asked.map(\.operationCategory) == (expected[kind].map { [$0] } ?? []))
        #expect(asked.map(\.kind) == (kind == .general ? [] : [kind]))
        #expect(CallMonitor.CoachingQuestion.OperationCategory(kind) == expected[kind] ?? .other)
    }

    @Test("Rule 31: nothing is asked without a context, without a source, or when both levels are off")
    func rule31_notAsked() {
        var noContext = coachingEngine()
        #expect(noContext.handle(.beginProtection(id: 1, ackPolicy(3)), now: 0) == [.startSources(callDetection: true, owner: nil)])
        var noSource = MonitorEngine()
        #expect(noSource.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0) == [.startSources(callDetection: true, owner: nil)])
        var off = coachingEngine(policy: .init(medium: .off, high: .off))
        #expect(off.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0) == [.startSources(callDetection: true, owner: nil)])
        // One level evaluating is enough to ask.
        var evaluating = coachingEngine(policy: .init(medium: .off, high: .evaluate))
        #expect(evaluating.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0).coachingQuestions.count == 1)
    }

    @Test("Rule 31: a source set later asks from the next opening on; reopening asks again, with a new request")
    func rule31_laterSourceAndReopening() {
        var engine = MonitorEngine()
        #expect(engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0).coachingQuestions == [])
        #expect(engine.handle(.coachingSource(.app), now: second) == [])
        #expect(engine.handle(.beginProtection(id: 2, ackPolicy(3), name: "b", context: coachingContext()), now: 2 * second) == [
            .askCoaching(question(1, "b"), budgetEndsAt: 5 * second),
        ])
        #expect(engine.handle(.endProtection(id: 2), now: 3 * second) == [.reportCoaching(request: 1, .notUsedNotNeeded)])
        #expect(engine.handle(.beginProtection(id: 3, ackPolicy(3), name: "b", context: coachingContext()), now: 4 * second) == [
            .askCoaching(question(2, "b"), budgetEndsAt: 7 * second),
        ])
    }

    @Test("Rule 31: the budget is the verifier's clamp: 0.1 to 30 s, NaN the 3 s default",
          arguments: [(0.0, 100_000_000), (0.05, 100_000_000), (31.0, 30 * second), (Double.nan, 3 * second), (1.5, 1_500_000_000)] as [(Double, Int64)])
    func rule31_budgetClamp(seconds: Double, nanoseconds: Int64) {
        var engine = coachingEngine(budget: CallMonitor.verifierBudgetNanoseconds(clamping: seconds))
        #expect(engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: second) == [
            .startSources(callDetection: true, owner: nil), .askCoaching(question(1), budgetEndsAt: second + nanoseconds),
        ])
    }

    @Test("Rule 31: the operation id is cleaned as the detail is, and an empty one is none")
    func rule31_operationIDCleaned() {
        #expect(CallMonitorContext(kind: .payment, operationID: " TX\u{202E}-\n1 ").operationID == "TX- 1")
        #expect(CallMonitorContext(kind: .payment, operationID: "\u{200B} \t").operationID == nil)
        let long = CallMonitorContext(kind: .payment, operationID: String(repeating: "9", count: 500)).operationID
        #expect(long == String(repeating: "9", count: 199) + "…")
        #expect(CallMonitorContext(kind: .payment, operationID: "A") != CallMonitorContext(kind: .payment, operationID: "B"))
    }
}

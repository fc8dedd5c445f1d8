import Testing
import hnb
@testable import hnbTrustInsights

/// The Trust Insights adapter's judgements that need no Apple type (issue 40): an evaluation
/// whose echoed operation id differs is not trusted (Apple's rule), and Apple's report names the
/// insight only when the status says it was used.
@Suite struct TrustInsightsRulesTests {
    @Test func requestIDMustComeBackUnchanged() {
        #expect(TrustInsightsRules.trusts(asked: nil, echoed: nil))
        #expect(TrustInsightsRules.trusts(asked: nil, echoed: "anything"))
        #expect(TrustInsightsRules.trusts(asked: "TX-1", echoed: "TX-1"))
        #expect(!TrustInsightsRules.trusts(asked: "TX-1", echoed: "TX-2"))
        #expect(!TrustInsightsRules.trusts(asked: "TX-1", echoed: nil))
    }

    @Test func insightNamedOnlyWhenUsed() {
        #expect(TrustInsightsRules.insightIDsUsed("I1", for: .notUsedNotNeeded) == [])
        #expect(TrustInsightsRules.insightIDsUsed("I1", for: .notUsedError) == [])
        #expect(TrustInsightsRules.insightIDsUsed("I1", for: .usedIncreasedFriction) == ["I1"])
        #expect(TrustInsightsRules.insightIDsUsed("I1", for: .usedUnchangedFriction) == ["I1"])
        #expect(TrustInsightsRules.insightIDsUsed("I1", for: .usedEvaluationOnly) == ["I1"])
        #expect(TrustInsightsRules.insightIDsUsed("I1", for: .usedReducedFriction) == ["I1"])
    }
}

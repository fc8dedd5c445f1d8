// The Trust Insights adapter's two small judgements that do not need Apple's types, kept here so
// that they are tested on Linux (the adapter itself only compiles where TrustInsights exists).

import hnb

enum TrustInsightsRules {
    /// Whether an evaluation may be used: when the question carried an operation id, Apple echoes
    /// it as the evaluation's `requestID`, and one that differs means the result is not to be
    /// trusted. Without an operation id there is nothing to compare.
    static func trusts(asked: String?, echoed: String?) -> Bool {
        guard let asked else { return true }
        return echoed == asked
    }

    /// The insight ids to name in Apple's report: the insight when the status says it was used,
    /// none when it was not (`notUsedNotNeeded`, `notUsedError`).
    static func insightIDsUsed(_ insightID: String, for status: CallMonitor.CoachingConsumption) -> [String] {
        switch status {
        case .notUsedNotNeeded, .notUsedError: []
        case .usedReducedFriction, .usedUnchangedFriction, .usedIncreasedFriction, .usedEvaluationOnly: [insightID]
        }
    }
}

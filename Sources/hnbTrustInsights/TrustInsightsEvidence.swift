// What the Trust Insights adapter hands the app for each evaluation it reported (issue 40): the
// signed payload Apple's server issued, for the bank's server to verify, with what ties it to
// the operation and the outcome (its id, issue 40). Plain values, compiled on every platform.

import Foundation
import hnb

/// One Trust Insights evaluation as the app's server needs it, given once, after its
/// consumption was reported to Apple.
public struct TrustInsightsEvidence: Sendable, Equatable {
    /// Apple's id of the insight; the outcome's coaching record names it as the evaluation id,
    /// and Apple's offline fraud labels refer to it.
    public let insightID: String
    /// The context's operation id, sent as Apple's `requestID`, or `nil`.
    public let operationID: String?
    /// The status reported to Apple for this evaluation (decided by the guard's engine).
    public let consumption: CallMonitor.CoachingConsumption
    /// Apple's signed evaluation, for the app's server to verify.
    public let signedPayload: Data
    /// When Apple's server made the evaluation.
    public let serverTimestamp: Date
    /// The ``hnb/CallMonitorOutcome/id`` of the outcome whose coaching record holds this
    /// evaluation (issue 40): the event that was on screen when the monitor read the answer, or
    /// that the answer began. `nil` when no outcome records it: no event was shown (an
    /// evaluate-only answer with no call live, say), or the status was decided before the
    /// answer was read (the protection ended first, the budget ran out). The evidence comes
    /// before that outcome, which is handed out when its event ends.
    public let outcomeID: UInt64?

    /// An evidence value; the adapter makes them, and tests of an app's server may.
    public init(
        insightID: String, operationID: String?, consumption: CallMonitor.CoachingConsumption,
        signedPayload: Data, serverTimestamp: Date, outcomeID: UInt64? = nil
    ) {
        self.insightID = insightID
        self.operationID = operationID
        self.consumption = consumption
        self.signedPayload = signedPayload
        self.serverTimestamp = serverTimestamp
        self.outcomeID = outcomeID
    }
}

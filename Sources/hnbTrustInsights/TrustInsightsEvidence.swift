// What the Trust Insights adapter hands the app for each evaluation it reported (issue 40): the
// signed payload Apple's server issued, for the bank's server to verify, with what ties it to
// the operation and the outcome. Plain values, compiled on every platform.

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

    /// An evidence value; the adapter makes them, and tests of an app's server may.
    public init(
        insightID: String, operationID: String?, consumption: CallMonitor.CoachingConsumption,
        signedPayload: Data, serverTimestamp: Date
    ) {
        self.insightID = insightID
        self.operationID = operationID
        self.consumption = consumption
        self.signedPayload = signedPayload
        self.serverTimestamp = serverTimestamp
    }
}

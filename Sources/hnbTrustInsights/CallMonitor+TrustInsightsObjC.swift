// The Objective-C spelling of the Trust Insights adapter (issue 40): `-useTrustInsightsWithEvidence:`
// and the evidence as an object, since Objective-C cannot see a Swift structure. Each property
// reads the Swift value it wraps; nothing is decided here.

import Foundation
import hnb

#if canImport(ObjectiveC) || HNB_OBJC_HEADER
/// ``TrustInsightsEvidence`` for Objective-C, `CallMonitorTrustInsightsEvidence` there: one
/// evaluation's signed payload with what ties it to the operation and the outcome. Swift code
/// uses ``TrustInsightsEvidence``.
///
/// Public only because Objective-C needs it, hence the underscore.
@objc(CallMonitorTrustInsightsEvidence)
public final class _CallMonitorTrustInsightsEvidence: NSObject, Sendable {
    /// The value this object wraps.
    public let evidence: TrustInsightsEvidence

    /// The object form of `evidence`.
    public init(_ evidence: TrustInsightsEvidence) {
        self.evidence = evidence
        super.init()
    }

    /// ``TrustInsightsEvidence/insightID``: Apple's id of the insight.
    @objc(insightID)
    public var objcInsightID: String { evidence.insightID }

    /// ``TrustInsightsEvidence/operationID``: the context's operation id, or `nil`.
    @objc(operationID)
    public var objcOperationID: String? { evidence.operationID }

    /// ``TrustInsightsEvidence/consumption``: the status reported to Apple.
    @objc(consumption)
    public var objcConsumption: CallMonitor.CoachingConsumption { evidence.consumption }

    /// ``TrustInsightsEvidence/signedPayload``: Apple's signed evaluation, for your server.
    @objc(signedPayload)
    public var objcSignedPayload: NSData { EvidenceBridge.nsData(evidence.signedPayload) }

    /// ``TrustInsightsEvidence/serverTimestamp``: when Apple's server made the evaluation.
    @objc(serverTimestamp)
    public var objcServerTimestamp: NSDate { EvidenceBridge.nsDate(evidence.serverTimestamp) }

    /// Whether an outcome records this evaluation (``TrustInsightsEvidence/outcomeID`` is not
    /// `nil`); read ``objcOutcomeID`` only then.
    @objc(hasOutcomeID)
    public var objcHasOutcomeID: Bool { evidence.outcomeID != nil }

    /// ``TrustInsightsEvidence/outcomeID``, the `outcomeID` of the outcome whose coaching record
    /// holds the evaluation; 0 when ``objcHasOutcomeID`` is `NO` (no outcome has id 0 either).
    @objc(outcomeID)
    public var objcOutcomeID: UInt64 { evidence.outcomeID ?? 0 }
}

/// Conversions from Swift's value types to Foundation's objects, for the properties above.
private enum EvidenceBridge {
    #if HNB_OBJC_HEADER
    // The stand-in Foundation has no bridging; header generation never runs this code.
    static func nsData(_ data: Data) -> NSData { preconditionFailure("header generation only") }
    static func nsDate(_ date: Date) -> NSDate { preconditionFailure("header generation only") }
    #else
    static func nsData(_ data: Data) -> NSData { data as NSData }
    static func nsDate(_ date: Date) -> NSDate { date as NSDate }
    #endif
}
#endif

#if (canImport(TrustInsights) && !targetEnvironment(macCatalyst) && canImport(ObjectiveC)) || HNB_OBJC_HEADER
@available(iOS 27.0, *)
extension CallMonitor {
    /// `-useTrustInsightsWithEvidence:` for Objective-C; Swift code uses
    /// ``useTrustInsights(evidence:)``, which says what the adapter does and what it needs.
    ///
    /// > Important: Compiled against a stand-in of TrustInsights written from Apple's published
    /// > documentation, never against Apple's SDK, and never run on a device.
    ///
    /// - Parameter evidence: Receives each evaluation's evidence once, on the thread
    ///   ``useTrustInsights(evidence:)`` names, or `nil`.
    @available(swift, obsoleted: 1, message: "use useTrustInsights(evidence:)")
    @objc(useTrustInsightsWithEvidence:)
    public func objcUseTrustInsights(evidence: (@Sendable (_CallMonitorTrustInsightsEvidence) -> Void)?) {
        guard let evidence else { return useTrustInsights(evidence: nil) }
        useTrustInsights { @Sendable (value: TrustInsightsEvidence) in evidence(_CallMonitorTrustInsightsEvidence(value)) }
    }
}
#endif

// Compiled only by scripts/objc-header for hnbTrustInsights' header, never shipped. The header is
// generated from CallMonitor+TrustInsightsObjC.swift and TrustInsightsEvidence.swift; the adapter
// itself needs Apple's TrustInsights, which Linux does not have, so this stands in for the one
// method of it that the Objective-C file calls.

@available(iOS 27.0, *)
extension CallMonitor {
    func useTrustInsights(evidence: (@Sendable (TrustInsightsEvidence) -> Void)? = nil) {}
}

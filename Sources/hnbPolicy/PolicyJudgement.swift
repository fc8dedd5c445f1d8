// What a phone does with a document at one instant, for the bank's tool (issue 38): the facade's
// verifier and then the engine's own steps, run on a fresh engine whose wall clock reads that
// instant, so `callmonitor policy verify` can never hold a second copy of the rules (time,
// relaxation, their order) that drifts from what `applyPolicy(document:)` decides.

import Foundation
import hnb

/// The phones' answer to one document at one instant.
package struct PolicyJudgement: Sendable {
    /// What the phones do.
    package enum Verdict: Equatable, Sendable {
        /// Accepted and in force at the instant.
        case applied
        /// Accepted (the phones keep it) but not in force before its `nbf`, which is after the
        /// instant: nothing changes on a device until then.
        case notYetValid(notBefore: Int64)
        /// Refused, nothing changes: the reason as `applyPolicy(document:)` answers it.
        case rejected(PolicyRejection)
    }

    package let verdict: Verdict
    /// What a refusal of the verifier points at (the member or path and what was expected);
    /// `nil` otherwise.
    package var detail: String?
    /// The document as read, when its signature verified and its content was read (a refusal
    /// for time or relaxation still has it; a refusal of the form or signature does not).
    package let document: PolicyDocument?
}

extension PolicyDocument {
    /// Judges `bytes` as a phone that pinned `keys` for `issuer` would at wall-clock `time`, on
    /// its first document (no version accepted before, the clock's mark at `time`).
    ///
    /// - Parameters:
    ///   - allowsRelaxation: Whether the app allows relaxation.
    ///   - time: The instant the phone's wall clock reads.
    ///   - code: The code's policy of the build (its manifest); `nil`: none set.
    package static func judge(
        _ bytes: [UInt8], keys: PolicyKeySet, issuer: String, crypto: PolicyCrypto?, allowsRelaxation: Bool, at time: Date,
        code: PolicyManifest? = nil
    ) -> PolicyJudgement {
        let document: PolicyDocument
        switch verifyExplained(bytes, keys: keys, issuer: issuer, crypto: crypto) {
        case .failure(let refusal): return PolicyJudgement(verdict: .rejected(refusal.reason), detail: refusal.detail, document: nil)
        case .success(let verified): document = verified
        }
        // The engine as `setPolicyKeys` and `applyPolicy(document:)` drive it: the same inputs
        // in the same order, and the answer read from the event it reports.
        var engine = MonitorEngine()
        if let code { engine.adoptCode(of: code) }
        let sensors = { MonitorEngine.Sensors(isForeground: true, isCaptured: false) }
        _ = engine.handle(.policyKeys(MonitorEngine.PolicyKeys(allowsRelaxation: allowsRelaxation, restored: nil)), now: 0, wallClock: time, sensors: sensors)
        let actions = engine.handle(.applyPolicy(document, text: bytes), now: 0, wallClock: time, sensors: sensors)
        var event: MonitorEngine.PolicyEvent?
        for case .policy(let reported) in actions where event == nil { event = reported }
        guard let event else {
            preconditionFailure("Internal inconsistency: a document applied without an answer")
        }
        switch event.result {
        case .applied, .unchanged:
            if engine.acceptedDocumentIsNotYetInForce, let notBefore = document.notBefore {
                return PolicyJudgement(verdict: .notYetValid(notBefore: notBefore), detail: nil, document: document)
            }
            return PolicyJudgement(verdict: .applied, detail: nil, document: document)
        case .rejected, .expired:
            return PolicyJudgement(verdict: .rejected(event.reason ?? .expired), detail: event.detail, document: document)
        }
    }
}

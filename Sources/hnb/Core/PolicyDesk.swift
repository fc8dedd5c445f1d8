// The signed policy's part of the core (issue 28): it writes the record the engine says to
// write, keeps the step's document event for `applyPolicy(document:)` to return, and tells the
// simulator's transcript. It decides nothing; the keys it holds are the facade's, for verifying.

/// Carries out the remote policy's actions.
@MainActor
final class PolicyDesk {
    /// What `setPolicyKeys` set: read by the facade on the caller's thread to verify a document.
    struct Keys: Sendable {
        let keys: PolicyKeySet
        let issuer: String
        let allowsRelaxation: Bool
        /// `nil` when the platform's crypto could not be loaded: every document is refused.
        let crypto: PolicyCrypto?
        let store: PolicyFileStore?
    }

    private let keys: Locked<Keys?>
    /// The last document event carried out (for ``MonitorCore/applyPolicyNow(_:)``).
    var lastEvent: MonitorEngine.PolicyEvent?
    var observer: (@MainActor (MonitorEngine.PolicyEvent, Int64) -> Void)?

    nonisolated init(keys: Locked<Keys?>) {
        self.keys = keys
    }

    func persist(_ record: MonitorEngine.PolicyRecord) {
        keys.value?.store?.save(record)
    }

    func report(_ event: MonitorEngine.PolicyEvent, at now: Int64) {
        lastEvent = event
        observer?(event, now)
    }
}

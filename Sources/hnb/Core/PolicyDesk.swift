// The signed policy's part of the core (issue 28): it writes the record the engine says to
// write through the port the policy product plugged in (issue 39) and tells the simulator's
// transcript of each document event (`applyPolicy(document:)` reads its own from the actions of
// its step, MonitorCore.applyPolicyNow). It decides
// nothing and holds no keys: verifying is the policy product's, before the engine is handed a
// document.

/// Carries out the remote policy's actions.
@MainActor
final class PolicyDesk {
    /// The policy product's port, set from any thread; `nil` when none is plugged in.
    private let port: Locked<(any PolicyPort)?>
    var observer: (@MainActor (MonitorEngine.PolicyEvent, Int64) -> Void)?

    nonisolated init(port: Locked<(any PolicyPort)?>) {
        self.port = port
    }

    func persist(_ record: MonitorEngine.PolicyRecord) {
        port.value?.persist(record)
    }

    func report(_ event: MonitorEngine.PolicyEvent, at now: Int64) {
        observer?(event, now)
    }
}

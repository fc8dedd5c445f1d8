// The facade's package seam for the signed remote policy (issue 39). The policy product
// (hnbPolicy) verifies a document with the keys it keeps and hands the engine the verified
// document, or the refusal, as an input value; the engine decides everything that follows
// (rules 26 to 28, Engine/MonitorEngine+RemotePolicy.swift). The product plugs its port into the
// core (Core/PolicyPort.swift) to keep the policy record; it reads the code's policy for the
// app's manifest here. An app sees none of this.

extension CallMonitor {
    /// The policy port plugged into this monitor, plugging `make()` in first when there is none,
    /// from any thread: the first caller's port is the monitor's for its lifetime.
    package func policyPort(installingIfNone make: () -> any PolicyPort) -> any PolicyPort {
        core.policyPort.withLock { slot in
            if let port = slot { return port }
            let port = make()
            slot = port
            return port
        }
    }

    /// The policy port plugged into this monitor, if any.
    package var pluggedPolicyPort: (any PolicyPort)? { core.policyPort.value }

    /// Hands the engine a policy input (`.policyKeys`, `.policyAttributes`, `.applyPolicy`,
    /// `.policyRejected`) from any thread, in order with the app's other calls.
    package func sendPolicyInput(_ input: MonitorEngine.Input) {
        send(input)
    }

    /// Whether the calling thread is the main thread, where `applyPolicy(document:)` answers.
    package static var isOnMainQueue: Bool { MainQueue.isCurrent }

    /// Runs `body` on the main actor, for a caller that has checked ``isOnMainQueue``. The
    /// products call this rather than `MainActor.assumeIsolated` themselves: the iOS 17 SDK's
    /// Swift 5.9 declares that function for iOS 17 and later only (later SDKs back-deploy it),
    /// which stops the Apple kit's check of a product's module before it is written; hnb's own
    /// calls are the ones the kit already tolerates as the SDK's age.
    package static func assumeOnMainQueue<T: Sendable>(_ body: @MainActor () -> T) -> T {
        MainActor.assumeIsolated(body)
    }

    /// Whether a command is in progress: a call from inside one of the monitor's delegate
    /// methods or callbacks, which must not run a step of its own.
    @MainActor
    package var isInsideCallback: Bool { core.isBusy }

    /// Rule 26: carries out `input` (a verified document, or its refusal) now and returns the
    /// document event it caused; `nil` when nothing was carried out (the monitor has exited, or
    /// a command is in progress).
    @MainActor
    package func applyPolicyNow(_ input: MonitorEngine.Input) -> MonitorEngine.PolicyEvent? {
        core.applyPolicyNow(input)
    }

    /// The code's policy as the engine reads it for rule 26: the app's manifest (issue 38)
    /// before the policy product adds its keys and attributes.
    @MainActor
    package func codeManifest() -> PolicyManifest { core.codeManifest() }

    /// Told of every document event (the simulator's transcript), as the engine reported it:
    /// the same value `applyPolicy(document:)`'s answer is made from.
    @MainActor
    package func setPolicyObserver(_ observer: (@MainActor (MonitorEngine.PolicyEvent) -> Void)?) {
        guard let observer else { return core.policyObserver = nil }
        core.policyObserver = { event, _ in observer(event) }
    }

    /// The wall clock was changed (the simulator's `clock`; on a device the app's next step
    /// notices it): the rule in force is chosen again at once.
    package func wallClockChanged() {
        send(.wallClockChanged)
    }
}

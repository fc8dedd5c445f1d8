// Guarding screens rather than the whole app, the app's own calls, and monitoring without a
// security UI (issue 19; rules 18 to 20 of the behaviour contract). Not in the reference. The
// facade only forwards: every decision is the engine's (Engine/MonitorEngine+Guards.swift).

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation

extension CallMonitor {
    // MARK: Observe only

    /// Monitors without a security policy of its own: call detection, the callback, the event
    /// and outcome streams and the risk signals run, and no security UI ever shows or exits
    /// because of it (rule 20).
    ///
    /// Protections (``protect(withTerminateIn:)``, ``protect(withAcknowledgeIn:)``) still guard
    /// their screens on top of it. Calling it while a policy is in force replaces that policy, as
    /// `startMonitoring` with another policy does: an event on screen ends (outcome
    /// ``CallMonitorOutcomeEnding/policyChanged``).
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(startMonitoring)
    #endif
    public func startMonitoring() {
        core.post(.startObserving(owner: self))
    }

    // MARK: Protections

    /// Guards one screen with the terminate flow until the returned protection is ended.
    ///
    /// The policy in force is always the strictest of the app-wide policy (`startMonitoring…`)
    /// and every protection not yet ended, so two screens that overlap while one replaces the
    /// other never leave a gap. Begin it in `viewWillAppear` (or SwiftUI's `onAppear`) and end
    /// it in `viewDidDisappear` (`onDisappear`):
    ///
    /// ```swift
    /// override func viewWillAppear(_ animated: Bool) {
    ///     super.viewWillAppear(animated)
    ///     protection = CallMonitor.sharedInstance().protect(withTerminateIn: 10)
    /// }
    /// override func viewDidDisappear(_ animated: Bool) {
    ///     super.viewDidDisappear(animated)
    ///     protection?.end()
    /// }
    /// ```
    ///
    /// > Important: Keep the protection and call ``CallMonitorProtection/end()`` on it. One that
    /// > is released without `end()` keeps guarding until the process ends (a forgotten end must
    /// > not switch the guard off); a debug build says so once on the console.
    ///
    /// - Parameter seconds: The countdown's length; values below 1 are clamped to 1.
    /// - Returns: The protection; ``CallMonitorProtection/end()`` ends it.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(protectWithTerminateIn:)
    #endif
    public func protect(withTerminateIn seconds: CInt) -> CallMonitorProtection {
        protect(MonitorPolicy(flow: .terminate, requestedSeconds: seconds))
    }

    /// Guards one screen with the acknowledge flow until the returned protection is ended; see
    /// ``protect(withTerminateIn:)`` for the rules and the pattern.
    ///
    /// - Parameter seconds: The delay before the Acknowledge button appears; 0 shows it at once.
    ///   Negative values are clamped to 0.
    /// - Returns: The protection; ``CallMonitorProtection/end()`` ends it.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(protectWithAcknowledgeIn:)
    #endif
    public func protect(withAcknowledgeIn seconds: CInt) -> CallMonitorProtection {
        protect(MonitorPolicy(flow: .acknowledge, requestedSeconds: seconds))
    }

    private func protect(_ policy: MonitorPolicy) -> CallMonitorProtection {
        let id = core.protectionIDs.next()
        // Posted before the object exists, so its end can never overtake its begin.
        core.post(.beginProtection(id: id, policy, owner: self))
        return CallMonitorProtection(monitor: self, id: id)
    }

    // MARK: The app's own calls

    /// Makes one call that the app reports itself (through its own `CXProvider`: a video
    /// identification, an in-app support call) invisible to the monitor: it starts no security
    /// event, keeps no session live, reaches neither the callback nor the risk signals, and
    /// appears in no outcome (rule 19).
    ///
    /// Call it with the UUID before reporting the call to CallKit. Every other call is treated as
    /// before, also while the exempt call is live. The exemption lasts for that one call: it is
    /// forgotten when the call ends. At most 16 exemptions for calls not seen yet are kept; a
    /// 17th drops the oldest, whose call is then guarded like any other. Exempting a call during
    /// its own security event ends the event as if the call had ended (outcome
    /// ``CallMonitorOutcomeEnding/callExempted``).
    ///
    /// - Parameter id: The call's identifier (``CallID/init(_:)-(UUID)`` for a CallKit UUID).
    public func exemptCall(_ id: CallID) {
        core.post(.exempt(id))
    }

    /// Takes back an exemption made with ``exemptCall(_:)``. If the call is live it counts from
    /// now on, like any other call, and may start a security event at once.
    ///
    /// - Parameter id: The call's identifier.
    public func removeExemption(_ id: CallID) {
        core.post(.removeExemption(id))
    }

    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    /// `-exemptCallWithUUID:` for Objective-C; Swift code uses ``exemptCall(_:)``.
    ///
    /// - Parameter uuid: The UUID the app reports the call with to its `CXProvider`.
    @available(swift, obsoleted: 1, message: "use exemptCall(_:)")
    @objc(exemptCallWithUUID:)
    public func objcExemptCall(uuid: NSUUID) {
        // `CallID(UUID)` keeps `uuidString` too, so both spellings name the same call.
        exemptCall(CallID(uuid.uuidString))
    }

    /// `-removeExemptionForUUID:` for Objective-C; Swift code uses ``removeExemption(_:)``.
    ///
    /// - Parameter uuid: The UUID given to `-exemptCallWithUUID:`.
    @available(swift, obsoleted: 1, message: "use removeExemption(_:)")
    @objc(removeExemptionForUUID:)
    public func objcRemoveExemption(uuid: NSUUID) {
        removeExemption(CallID(uuid.uuidString))
    }
    #endif
}

// Guarding screens rather than the whole app, the app's own calls, monitoring without a
// security UI (issue 19; rules 18 to 20 of the behaviour contract), and a stricter policy while
// the screen is shared (issue 22; rule 25). Not in the reference. The
// facade only forwards: every decision is the engine's (Engine/MonitorEngine+Guards.swift).

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation

extension CallMonitor {
    // MARK: Observe only

    /// Monitors without a security policy of its own: call detection, the callback, the event
    /// and outcome streams and the risk signals run, and no security UI ever shows or exits
    /// because of it (rule 20).
    ///
    /// Protections (``protect(named:withTerminateIn:context:)``,
    /// ``protect(named:withAcknowledgeIn:context:)``) still guard
    /// their screens on top of it. Calling it while a policy is in force replaces that policy, as
    /// `startMonitoring` with another policy does: an event on screen ends (outcome
    /// ``CallMonitorOutcomeEnding/policyChanged``).
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(startMonitoring)
    #endif
    public func startMonitoring() {
        send(.observe(owner: owner))
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
    /// A name lets a signed policy document's `screens` address the screen (rule 26); a context
    /// says in the warning what the screen is about (rule 29):
    ///
    /// ```swift
    /// let protection = monitor.protect(
    ///     named: "transfer",
    ///     withTerminateIn: 5,
    ///     context: CallMonitorContext(kind: .payment, detail: "You are sending €2,000 to M. Mustermann."))
    /// ```
    ///
    /// The warning shows the context of the protection whose policy is in force; among several
    /// with that policy, the one begun last; none while the policy in force is the app-wide one
    /// or the screen-capture escalation. A protection that begins or ends without changing the
    /// policy can change the context shown: the dialog is redrawn, nothing else changes.
    ///
    /// > Important: Keep the protection and call ``CallMonitorProtection/end()`` on it. One that
    /// > is released without `end()` keeps guarding until the process ends (a forgotten end must
    /// > not switch the guard off); a debug build says so once on the console.
    ///
    /// May be called from any thread; it applies in order with the other calls.
    ///
    /// - Parameters:
    ///   - name: The screen's name in the policy documents (`"transfer"`), or `nil`.
    ///   - seconds: The countdown's length; values below 1 are clamped to 1.
    ///   - context: What the screen is about, or `nil`.
    /// - Returns: The protection; ``CallMonitorProtection/end()`` ends it.
    public func protect(
        named name: String? = nil, withTerminateIn seconds: CInt, context: CallMonitorContext? = nil
    ) -> CallMonitorProtection {
        protect(MonitorPolicy(flow: .terminate, requestedSeconds: seconds), name: name, context: context)
    }

    /// Guards one screen with the acknowledge flow until the returned protection is ended; see
    /// ``protect(named:withTerminateIn:context:)`` for the rules, the pattern, the name and the
    /// context.
    ///
    /// - Parameters:
    ///   - name: The screen's name in the policy documents, or `nil`.
    ///   - seconds: The delay before the Acknowledge button appears; 0 shows it at once.
    ///     Negative values are clamped to 0.
    ///   - context: What the screen is about, or `nil`.
    /// - Returns: The protection; ``CallMonitorProtection/end()`` ends it.
    public func protect(
        named name: String? = nil, withAcknowledgeIn seconds: CInt, context: CallMonitorContext? = nil
    ) -> CallMonitorProtection {
        protect(MonitorPolicy(flow: .acknowledge, requestedSeconds: seconds), name: name, context: context)
    }

    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    /// `-protectNamed:withTerminateIn:contextKind:detail:` for Objective-C; Swift code uses
    /// ``protect(named:withTerminateIn:context:)``.
    ///
    /// - Parameters:
    ///   - name: The screen's name in the policy documents, or `nil`.
    ///   - seconds: The countdown's length; values below 1 are clamped to 1.
    ///   - kind: The context's kind by its case name (`payment`, `credentials`, `deviceChange`,
    ///     `accountChange` or `general`; any other name is `general`: no built-in line, the
    ///     warning and the detail stay), or `nil`.
    ///   - detail: The screen's sentence, or `nil`. With no kind and no detail there is no
    ///     context; a detail alone is a `general` one.
    @available(swift, obsoleted: 1, message: "use protect(named:withTerminateIn:context:)")
    @objc(protectNamed:withTerminateIn:contextKind:detail:)
    public func objcProtect(
        named name: String?, withTerminateIn seconds: CInt, contextKind kind: String?, detail: String?
    ) -> CallMonitorProtection {
        protect(named: name, withTerminateIn: seconds, context: CallMonitorContext.objc(kind: kind, detail: detail))
    }

    /// `-protectNamed:withAcknowledgeIn:contextKind:detail:` for Objective-C; Swift code uses
    /// ``protect(named:withAcknowledgeIn:context:)``.
    ///
    /// - Parameters:
    ///   - name: The screen's name in the policy documents, or `nil`.
    ///   - seconds: The delay before the Acknowledge button appears; negative values are clamped to 0.
    ///   - kind: The context's kind by its case name, as for
    ///     `-protectNamed:withTerminateIn:contextKind:detail:`, or `nil`.
    ///   - detail: The screen's sentence, or `nil`.
    @available(swift, obsoleted: 1, message: "use protect(named:withAcknowledgeIn:context:)")
    @objc(protectNamed:withAcknowledgeIn:contextKind:detail:)
    public func objcProtect(
        named name: String?, withAcknowledgeIn seconds: CInt, contextKind kind: String?, detail: String?
    ) -> CallMonitorProtection {
        protect(named: name, withAcknowledgeIn: seconds, context: CallMonitorContext.objc(kind: kind, detail: detail))
    }

    /// `-protectNamed:withTerminateIn:contextKind:detail:operationID:` for Objective-C: as
    /// `-protectNamed:withTerminateIn:contextKind:detail:`, with the operation id a coaching
    /// source receives (Trust Insights' `requestID`, ``CallMonitorContext/operationID``). Swift
    /// code uses ``protect(named:withTerminateIn:context:)``.
    ///
    /// - Parameters:
    ///   - name: The screen's name in the policy documents, or `nil`.
    ///   - seconds: The countdown's length; values below 1 are clamped to 1.
    ///   - kind: The context's kind by its case name, or `nil`.
    ///   - detail: The screen's sentence, or `nil`.
    ///   - operationID: The app's id of the operation, or `nil`. With no kind, no detail and no
    ///     operation id there is no context; an operation id alone is a `general` one, which no
    ///     coaching source is asked about.
    @available(swift, obsoleted: 1, message: "use protect(named:withTerminateIn:context:)")
    @objc(protectNamed:withTerminateIn:contextKind:detail:operationID:)
    public func objcProtect(
        named name: String?, withTerminateIn seconds: CInt, contextKind kind: String?, detail: String?, operationID: String?
    ) -> CallMonitorProtection {
        protect(named: name, withTerminateIn: seconds, context: CallMonitorContext.objc(kind: kind, detail: detail, operationID: operationID))
    }

    /// `-protectNamed:withAcknowledgeIn:contextKind:detail:operationID:` for Objective-C: as
    /// `-protectNamed:withAcknowledgeIn:contextKind:detail:`, with the operation id. Swift code
    /// uses ``protect(named:withAcknowledgeIn:context:)``.
    ///
    /// - Parameters:
    ///   - name: The screen's name in the policy documents, or `nil`.
    ///   - seconds: The delay before the Acknowledge button appears; negative values are clamped to 0.
    ///   - kind: The context's kind by its case name, or `nil`.
    ///   - detail: The screen's sentence, or `nil`.
    ///   - operationID: The app's id of the operation, or `nil`.
    @available(swift, obsoleted: 1, message: "use protect(named:withAcknowledgeIn:context:)")
    @objc(protectNamed:withAcknowledgeIn:contextKind:detail:operationID:)
    public func objcProtect(
        named name: String?, withAcknowledgeIn seconds: CInt, contextKind kind: String?, detail: String?, operationID: String?
    ) -> CallMonitorProtection {
        protect(named: name, withAcknowledgeIn: seconds, context: CallMonitorContext.objc(kind: kind, detail: detail, operationID: operationID))
    }
    #endif

    /// The one beginning of a protection, whatever its flow, name and context.
    private func protect(_ policy: MonitorPolicy, name: String?, context: CallMonitorContext?) -> CallMonitorProtection {
        let id = core.protectionIDs.next()
        // Posted before the object exists, so its end can never overtake its begin.
        send(.beginProtection(id: id, policy, name: name, context: context, owner: owner))
        return CallMonitorProtection(monitor: self, id: id)
    }

    // MARK: Stricter while the screen is captured

    /// Makes the policy stricter while the screen is captured (recorded, mirrored or shared)
    /// during a call: the terminate flow with `seconds`, for as long as both hold (rule 25).
    ///
    /// Remote-access scams run on a shared screen: the caller watches, or steers, while the user
    /// opens a payment. This setting is one more policy next to the app-wide one and the open
    /// protections, open exactly while the screen is captured and a call is live (an exempt call,
    /// ``exemptCall(_:)``, does not count), so the strictest policy is in force as always. An
    /// acknowledge warning becomes a terminate countdown the moment sharing starts during a call,
    /// and falls back when sharing stops (an acknowledgement already given decides whether a new
    /// acknowledge warning starts). Capture that stops and starts again does not restart the
    /// countdown: within a call session a terminate countdown never ends later than the earliest
    /// deadline of any that ran (rule 21). A policy already at least as strict stays as it is: the
    /// setting can only make the guard stricter.
    ///
    /// It monitors while it is set, as a protection does: set alone it starts monitoring (call
    /// detection, the callback and the risk signals run, as with ``startMonitoring()``, and nothing
    /// shows until the screen is captured during a call), so it is all an app needs against the
    /// shared-screen scam. Calling this or ``protectWhileScreenCaptured(withAcknowledgeIn:)`` again
    /// replaces it and ``stopProtectingWhileScreenCaptured()`` removes it; `stopMonitoring()` ends
    /// only the app-wide policy and leaves it set, as it leaves protections open.
    ///
    /// ```swift
    /// let monitor = CallMonitor.sharedInstance()
    /// monitor.protectWhileScreenCaptured(withTerminateIn: 5)   // alone: an exit if shared in a call
    /// monitor.startMonitoring(withAcknowledgeIn: 3)            // and a warning during every call
    /// ```
    ///
    /// > Important: Capture is reported by the monitor's ports (``CallMonitor/Ports``): on iOS,
    /// > iPadOS and Mac Catalyst the live ones read `UIScreen.isCaptured`; where the platform
    /// > cannot tell (macOS, visionOS, Linux) the screen never counts as captured.
    ///
    /// May be called from any thread; it applies in order with the other calls.
    ///
    /// - Parameter seconds: The countdown's length; values below 1 are clamped to 1.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(protectWhileScreenCapturedWithTerminateIn:)
    #endif
    public func protectWhileScreenCaptured(withTerminateIn seconds: CInt) {
        send(.screenCaptureEscalation(MonitorPolicy(flow: .terminate, requestedSeconds: seconds), owner: owner))
    }

    /// Makes the policy stricter while the screen is captured during a call: the acknowledge flow
    /// with `seconds`, for as long as both hold; see ``protectWhileScreenCaptured(withTerminateIn:)``
    /// for the rules (rule 25).
    ///
    /// It only counts when it is stricter than the policy already in force: more acknowledge
    /// seconds than the acknowledge policy, and never over a terminate one. Combine it with
    /// ``setRefusesAcknowledgementWhileScreenCaptured(_:)`` to refuse the acknowledgement too
    /// while the screen is shared.
    ///
    /// - Parameter seconds: The delay before the Acknowledge button appears; negative values are
    ///   clamped to 0.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(protectWhileScreenCapturedWithAcknowledgeIn:)
    #endif
    public func protectWhileScreenCaptured(withAcknowledgeIn seconds: CInt) {
        send(.screenCaptureEscalation(MonitorPolicy(flow: .acknowledge, requestedSeconds: seconds), owner: owner))
    }

    /// Removes the setting made with ``protectWhileScreenCaptured(withTerminateIn:)`` or
    /// ``protectWhileScreenCaptured(withAcknowledgeIn:)`` (rule 25); nothing is stricter while the
    /// screen is captured any more. If the escalated policy is in force, the policy falls back at
    /// once (an event on screen ends with ``CallMonitorOutcomeEnding/policyChanged`` and the
    /// policy left in force begins one, as when a protection ends). With no app-wide policy and no
    /// protection left, this stops monitoring as ``stopMonitoring()`` does (a call session live
    /// then is followed, silently, to its end).
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(stopProtectingWhileScreenCaptured)
    #endif
    public func stopProtectingWhileScreenCaptured() {
        send(.screenCaptureEscalation(nil, owner: owner))
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
        send(.exempt(id))
    }

    /// Takes back an exemption made with ``exemptCall(_:)``. If the call is live it counts from
    /// now on, like a call that just joined, and may start a security event at once: an
    /// acknowledgement that covered it before the exemption was forgotten with it (rule 19).
    ///
    /// - Parameter id: The call's identifier.
    public func removeExemption(_ id: CallID) {
        send(.removeExemption(id))
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

// The monitor as observable state for SwiftUI: an app draws its own warning from these
// properties instead of implementing the delegate. A private delegate under the hood keeps the
// user action, so the monitor keeps every timer, rule and the exit, and the delegate methods stay
// out of the state object's API.

// Header generation compiles without macro plugins; nothing here is Objective-C API.
#if canImport(Observation) && !HNB_OBJC_HEADER
import Observation

/// A monitor's call state and security event as `@Observable` properties, with the user action
/// as a method: for SwiftUI apps that draw their own warning.
///
/// ```swift
/// struct ContentView: View {
///     @State private var guardState = CallMonitorState.of(.sharedInstance())
///
///     var body: some View {
///         AccountView()
///             .overlay {
///                 if let event = guardState.securityEvent {
///                     WarningView(event: event) { guardState.performUserAction() }
///                 }
///             }
///     }
/// }
/// ```
///
/// Each monitor has one, made by the first ``of(_:)`` and kept by the monitor, so asking again
/// (SwiftUI evaluates a `@State` initial value each time it re-creates the view) returns the same
/// object and changes nothing. Making it makes it the monitor's delegate (the built-in dialog is
/// then not shown); the monitor still owns the countdown, the rules and the force exit, and this
/// object only mirrors them.
///
/// > Important: Setting another delegate later (``CallMonitor/setDelegate(_:)``) hands the event
/// > over to that one: ``securityEvent`` still describes the event, but ``performUserAction()``
/// > does nothing until ``becomeDelegate()`` brings the event back here.
@available(iOS 17, macOS 14, macCatalyst 17, visionOS 1, *)
@MainActor
@Observable
public final class CallMonitorState {
    /// The aggregate call state; ``CallMonitorCallState/idle`` while not monitoring.
    public private(set) var callState: CallMonitorCallState = .idle
    /// Whether a policy is being enforced.
    public private(set) var isMonitoring = false
    /// Whether the screen is being recorded, mirrored or shared (observed while monitoring).
    public private(set) var isScreenCaptured = false
    /// The security event on screen, or `nil`: show your warning while it is set. Its
    /// ``CallMonitorSecurityEvent/remaining`` counts down and
    /// ``CallMonitorSecurityEvent/isActionAvailable`` says when to enable the button.
    public private(set) var securityEvent: CallMonitorSecurityEvent?
    /// The bank's verdict on the event on screen (rule 23), ``CallMonitorCallVerdict/unknown``
    /// when none is shown or none arrived: the same as `securityEvent?.verdict`, for a view that
    /// shows only the verdict line.
    public private(set) var verdict: CallMonitorCallVerdict = .unknown
    /// What the screen behind the event on screen is about (rule 29), `nil` when none is shown or
    /// it has none: the same as `securityEvent?.context`, for a view that shows only the detail.
    public private(set) var context: CallMonitorContext?

    /// The delegate the monitor calls; it keeps the action of the event on screen.
    @ObservationIgnored private let relay = UserActionRelay()
    /// Weak: the monitor's core keeps this object.
    @ObservationIgnored private weak var monitor: CallMonitor?

    /// The state object of `monitor`: made and made its delegate on the first call, the same
    /// object on every later one. The monitor keeps it.
    ///
    /// - Parameter monitor: The monitor to mirror, usually ``CallMonitor/sharedInstance()``.
    public static func of(_ monitor: CallMonitor) -> CallMonitorState {
        if let existing = monitor.core.stateObject as? CallMonitorState { return existing }
        let made = CallMonitorState(monitor: monitor)
        monitor.core.stateObject = made
        made.becomeDelegate()
        return made
    }

    private init(monitor: CallMonitor) {
        self.monitor = monitor
        let core = monitor.core
        apply(core.board.current)
        // Weak: the core keeps this object, and this closure lives in the core.
        core.addSnapshotObserver { [weak self] snapshot in
            guard let self else { return false }
            self.apply(snapshot)
            return true
        }
    }

    /// Performs the warning's primary action: Close App in the terminate flow, Acknowledge in the
    /// acknowledge flow. The monitor applies its rules: before the acknowledge delay is over, or
    /// while the acknowledgement is refused for screen capture, it does nothing.
    public func performUserAction() {
        relay.onUserAction?()
    }

    /// Makes this object the monitor's delegate again, after another delegate (or `nil`, the
    /// built-in dialog) was set: an event on screen moves back here at once, and
    /// ``performUserAction()`` acts on it. ``of(_:)`` does this the first time.
    public func becomeDelegate() {
        monitor?.setDelegate(relay)
    }

    private func apply(_ snapshot: RiskSnapshot) {
        // Assign only what changed, so views observing one property are not redrawn for nothing.
        if callState != snapshot.callState { callState = snapshot.callState }
        if isMonitoring != snapshot.isMonitoring { isMonitoring = snapshot.isMonitoring }
        if isScreenCaptured != snapshot.isScreenCaptured { isScreenCaptured = snapshot.isScreenCaptured }
        if securityEvent != snapshot.securityEvent { securityEvent = snapshot.securityEvent }
        if verdict != snapshot.verdict { verdict = snapshot.verdict }
        let context = snapshot.event?.context
        if self.context != context { self.context = context }
    }
}

/// The state object's delegate: keeps the action of the event on screen; the event itself
/// arrives with the snapshot published right after each call.
@MainActor
private final class UserActionRelay: CallMonitorDelegate {
    var onUserAction: (() -> Void)?

    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: CInt, onUserAction: @escaping () -> Void) {
        self.onUserAction = onUserAction
    }

    /// Nothing to do: the state's ``CallMonitorState/securityEvent`` follows the snapshot.
    func callMonitorCountdownTick(_ remaining: CInt) {}

    /// Drops the action of the event that ended or moved elsewhere.
    func callMonitorDidEndCall() {
        onUserAction = nil
    }
}
#endif

// The monitor as observable state for SwiftUI: an app draws its own warning from these
// properties instead of implementing the delegate. It is a delegate under the hood, so the
// monitor keeps every timer, rule and the exit.

// Header generation compiles without macro plugins; nothing here is Objective-C API.
#if canImport(Observation) && !HNB_OBJC_HEADER
import Observation

/// A monitor's call state and security event as `@Observable` properties, with the user action
/// as a method: for SwiftUI apps that draw their own warning.
///
/// ```swift
/// struct ContentView: View {
///     @State private var guardState = CallMonitorState(monitor: .sharedInstance())
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
/// Creating it makes it the monitor's delegate (the built-in dialog is then not shown); the
/// monitor still owns the countdown, the rules and the force exit, and this object only mirrors
/// them. Setting another delegate later hands the event over to that one, and this object's
/// ``securityEvent`` then still describes the event while ``performUserAction()`` does nothing.
///
/// > Important: The monitor holds its delegate weakly: keep this object alive (in `@State`, or
/// > a property of a long-lived object) for as long as it should draw the warning. If it goes
/// > away during an event, the built-in dialog takes over (rule 13).
@available(iOS 17, macOS 14, macCatalyst 17, visionOS 1, *)
@MainActor
@Observable
public final class CallMonitorState: CallMonitorDelegate {
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

    @ObservationIgnored private let monitor: CallMonitor
    @ObservationIgnored private var onUserAction: (() -> Void)?

    /// Mirrors `monitor` and becomes its delegate.
    ///
    /// - Parameter monitor: The monitor to mirror, usually ``CallMonitor/sharedInstance()``.
    public init(monitor: CallMonitor) {
        self.monitor = monitor
        apply(monitor.core.board.current)
        monitor.core.addSnapshotObserver { [weak self] snapshot in
            guard let self else { return false }
            self.apply(snapshot)
            return true
        }
        monitor.setDelegate(self)
    }

    /// Performs the warning's primary action: Close App in the terminate flow, Acknowledge in the
    /// acknowledge flow. The monitor applies its rules: before the acknowledge delay is over, or
    /// while the acknowledgement is refused for screen capture, it does nothing.
    public func performUserAction() {
        onUserAction?()
    }

    // MARK: CallMonitorDelegate

    /// Keeps the action; the event itself arrives with the snapshot published right after.
    public func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: CInt, onUserAction: @escaping () -> Void) {
        self.onUserAction = onUserAction
    }

    /// Nothing to do: ``securityEvent`` follows the monitor's snapshot.
    public func callMonitorCountdownTick(_ remaining: CInt) {}

    /// Drops the action of the event that ended or moved elsewhere.
    public func callMonitorDidEndCall() {
        onUserAction = nil
    }

    private func apply(_ snapshot: RiskSnapshot) {
        // Assign only what changed, so views observing one property are not redrawn for nothing.
        if callState != snapshot.callState { callState = snapshot.callState }
        if isMonitoring != snapshot.isMonitoring { isMonitoring = snapshot.isMonitoring }
        if isScreenCaptured != snapshot.isScreenCaptured { isScreenCaptured = snapshot.isScreenCaptured }
        if securityEvent != snapshot.securityEvent { securityEvent = snapshot.securityEvent }
    }
}
#endif

// The protocol an app adopts to draw its own security UI while CallMonitor keeps the policy.

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation

/// Replaces the built-in security dialog with the app's own UI.
///
/// ``CallMonitor`` still owns all timing, the countdown and the force exit; the delegate only
/// draws. Set it with ``CallMonitor/setDelegate(_:)``.
///
/// ```swift
/// final class MySecurityHandler: CallMonitorDelegate {
///     func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: Int32,
///                                   onUserAction: @escaping () -> Void) { /* show UI */ }
///     func callMonitorCountdownTick(_ remaining: Int32) { /* update label */ }
///     func callMonitorDidEndCall() { /* dismiss UI */ }
/// }
/// ```
///
/// `initialRemaining` and `remaining` are `CInt` (`int` in Objective-C), the same type as `Int32`.
///
/// > Important: Every method is called on the main thread. Each requirement is `@MainActor` on its
/// > own, rather than the protocol as a whole, so that a plain class can adopt the protocol and be
/// > created from code that is not on the main actor.
///
/// > Important: ``CallMonitor`` holds the delegate weakly. Keep it in a property with a long
/// > lifetime; a delegate that goes away during a security event is replaced by the built-in
/// > dialog no later than the next countdown tick.
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallMonitorDelegate)
#endif
public protocol CallMonitorDelegate: AnyObject {
    /// A call is live and the security UI should be shown now.
    ///
    /// - Parameters:
    ///   - flow: The policy in force, ``CallMonitorFlow/terminate`` or ``CallMonitorFlow/acknowledge``.
    ///   - initialRemaining: The countdown's starting value in seconds. In the acknowledge flow, 0
    ///     means the Acknowledge button is visible at once.
    ///   - onUserAction: Call this when the user taps the primary button (Close App or
    ///     Acknowledge). It may be called from any thread and any number of times; it acts at most
    ///     once, only while this presentation is on screen, and in the acknowledge flow only after
    ///     the countdown has reached 0.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(callMonitorDidDetectCallWithFlow:initialRemaining:onUserAction:)
    #endif
    @MainActor
    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: CInt, onUserAction: @escaping () -> Void)

    /// The countdown moved on; `remaining` strictly decreases and ends at 0.
    ///
    /// In the acknowledge flow, `remaining == 0` is the signal to reveal the Acknowledge button.
    /// After the app was suspended, the next tick reports the current value, skipping the seconds
    /// that passed while it slept.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(callMonitorCountdownTick:)
    #endif
    @MainActor
    func callMonitorCountdownTick(_ remaining: CInt)

    /// The security event is over (the call ended, the user acknowledged, monitoring stopped, or
    /// another delegate took over). Dismiss the UI.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(callMonitorDidEndCall)
    #endif
    @MainActor
    func callMonitorDidEndCall()
}

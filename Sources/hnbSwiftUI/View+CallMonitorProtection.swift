// The SwiftUI face of protections (issue 30): a modifier that guards a screen while it is on
// screen. Its logic is ProtectionSlot (plain Swift, tested on Linux); this file only wires it to
// onAppear and onDisappear, and compiles to nothing where SwiftUI does not exist.

#if canImport(SwiftUI)
import SwiftUI
import hnb

@available(iOSApplicationExtension, unavailable)
extension View {
    /// Guards this screen with the terminate flow while it is on screen: a protection
    /// (``hnb/CallMonitor/protect(named:withTerminateIn:context:)``) begun when it appears and ended
    /// when it disappears.
    ///
    /// ```swift
    /// TransferView()
    ///     .callMonitorProtection(
    ///         terminateIn: 5,
    ///         context: CallMonitorContext(kind: .payment, detail: "You are sending €2,000 to M. Mustermann."))
    /// ```
    ///
    /// Appearing again without disappearing first (tab and navigation containers do that) begins
    /// no second protection. The context is the one given when the screen appears.
    ///
    /// - Parameters:
    ///   - seconds: The countdown's length; values below 1 are clamped to 1.
    ///   - context: What the screen is about, or `nil`.
    /// - Returns: The view, guarded.
    public func callMonitorProtection(terminateIn seconds: CInt, context: CallMonitorContext? = nil) -> some View {
        modifier(CallMonitorProtectionModifier(request: ProtectionRequest(flow: .terminate, seconds: seconds, context: context)))
    }

    /// Guards this screen with the acknowledge flow while it is on screen; see
    /// ``SwiftUI/View/callMonitorProtection(terminateIn:context:)``.
    ///
    /// - Parameters:
    ///   - seconds: The delay before the Acknowledge button appears; negative values are clamped to 0.
    ///   - context: What the screen is about, or `nil`.
    /// - Returns: The view, guarded.
    public func callMonitorProtection(acknowledgeIn seconds: CInt, context: CallMonitorContext? = nil) -> some View {
        modifier(CallMonitorProtectionModifier(request: ProtectionRequest(flow: .acknowledge, seconds: seconds, context: context)))
    }
}

/// Begins the request's protection on the shared monitor when the content appears and ends it
/// when it disappears, through one ``ProtectionSlot`` kept in the view's state.
@available(iOSApplicationExtension, unavailable)
struct CallMonitorProtectionModifier: ViewModifier {
    let request: ProtectionRequest
    @State private var slot = ProtectionSlot()

    func body(content: Content) -> some View {
        content
            .onAppear { slot.appear(request, on: CallMonitor.sharedInstance()) }
            .onDisappear { slot.disappear() }
    }
}
#endif

// Issue 30: a custom UI hears which context the event it shows is about, as the verdict delegate
// hears the verdict (rule 29). Separate from CallMonitorDelegate so the reference's protocol stays.

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation

/// A ``CallMonitorDelegate`` that also adopts this protocol is told what the screen behind the
/// event it shows is about (rule 29), to draw the kind and the detail in its own warning.
///
/// ```swift
/// extension MySecurityHandler: CallMonitorContextDelegate {
///     func callMonitorDidChangeContext(_ context: CallMonitorContext?) {
///         detailLabel.text = context?.detail
///     }
/// }
/// ```
///
/// The context is also on ``CallMonitor/currentSecurityEvent`` (``CallMonitorSecurityEvent/context``)
/// and ``CallMonitorState``. Draw ``CallMonitorContext/detail`` as it is: it is already cleaned of
/// characters that could reorder or hide the text around it.
///
/// > Important: Called on the main thread, after ``CallMonitorDelegate/callMonitorDidDetectCall(flow:initialRemaining:onUserAction:)``
/// > of the same event: right after it when the event has a context, and each time the context
/// > shown changes while the event stays on screen (a protection with the same policy began or
/// > ended); `nil` then means no context. The countdown and the button never change with it.
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallMonitorContextDelegate)
#endif
public protocol CallMonitorContextDelegate: AnyObject {
    /// The context of the event on screen is now `context`.
    ///
    /// - Parameter context: What the screen is about, or `nil` for none.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(callMonitorDidChangeContext:)
    #endif
    @MainActor
    func callMonitorDidChangeContext(_ context: CallMonitorContext?)
}

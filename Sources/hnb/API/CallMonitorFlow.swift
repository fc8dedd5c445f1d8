// The two small enums of the public API: which policy runs, and what the call-state callback reports.

import Foundation

/// The security flow that ``CallMonitor`` enforces while a call is live and the app is in the foreground.
///
/// The raw values are part of the Objective-C ABI (`CallMonitorFlowTerminate` = 0,
/// `CallMonitorFlowAcknowledge` = 1) and never change.
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallMonitorFlow)
#endif
@frozen
public enum CallMonitorFlow: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// A countdown with a Close App button; at zero, or on the button, the app is force-exited
    /// if the call is still live.
    case terminate = 0
    /// A risk warning whose Acknowledge button appears after a delay; the app is never exited.
    case acknowledge = 1

    /// `terminate` or `acknowledge`, the spelling used in transcripts and logs.
    public var description: String {
        switch self {
        case .terminate: "terminate"
        case .acknowledge: "acknowledge"
        }
    }
}

/// A change of the aggregate call state, reported by the callback set with
/// ``CallMonitor/setCallback(_:)``.
///
/// The raw values are part of the Objective-C ABI (`CallEventRinging` = 0, `CallEventStarted` = 1,
/// `CallEventEnded` = 2) and never change.
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallEvent)
#endif
@frozen
public enum CallEvent: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// An incoming call is ringing or an outgoing call is dialing, and no call is connected.
    case ringing = 0
    /// A call has connected (a call on hold still counts as connected).
    case started = 1
    /// Every call has ended. The next call starts afresh.
    case ended = 2

    /// `ringing`, `started` or `ended`, the spelling used in transcripts and logs.
    public var description: String {
        switch self {
        case .ringing: "ringing"
        case .started: "started"
        case .ended: "ended"
        }
    }
}

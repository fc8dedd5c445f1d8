// The call state the risk getters report, with its Objective-C values.

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation

/// The aggregate state of the device's calls, as the monitor last applied it.
///
/// The raw values are part of the Objective-C ABI (`CallMonitorCallStateIdle` = 0,
/// `CallMonitorCallStateRinging` = 1, `CallMonitorCallStateStarted` = 2) and never change.
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallMonitorCallState)
#endif
@frozen
public enum CallMonitorCallState: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// No call is live, or the monitor is not monitoring (it observes calls only while monitoring).
    case idle = 0
    /// Calls are live and none has connected (incoming ringing or outgoing dialing).
    case ringing = 1
    /// At least one live call has connected; a call on hold still counts.
    case started = 2

    /// `idle`, `ringing` or `started`, the spelling used in transcripts and logs.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .ringing: "ringing"
        case .started: "started"
        }
    }
}

// The bank's own answer to "is my bank calling me?" (issue 22; rules 23 and 24), and the optional
// protocol a delegate adopts to be told of it.

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation

/// What the app's call verifier (``CallMonitor/setCallVerifier(_:)``)
/// says about the call: whether the bank's backend knows of one of its agents on the phone with
/// this customer right now.
///
/// The verdict only informs (rule 23): no verdict skips or delays an exit, makes an
/// acknowledgement available earlier or ends a security event. On iOS nobody can tell which of
/// two live calls is the bank's, so ``bankIsCalling`` never means that every live call is safe.
///
/// The raw values are part of the Objective-C ABI (`CallMonitorCallVerdictUnknown` = 0,
/// `CallMonitorCallVerdictBankIsCalling` = 1, `CallMonitorCallVerdictBankIsNotCalling` = 2) and
/// never change. `unknown` is 0, so a zeroed value says nothing.
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallMonitorCallVerdict)
#endif
@frozen
public enum CallMonitorCallVerdict: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// No answer: no verifier is set, it has not answered yet, it did not answer within the budget,
    /// or it could not tell. The built-in dialog shows nothing for it.
    case unknown = 0
    /// The bank's backend says one of its agents is on a call with the user now.
    case bankIsCalling = 1
    /// The bank's backend says none of its agents is on a call with the user: whoever says they
    /// are the bank is not. The built-in dialog tells the user to hang up.
    case bankIsNotCalling = 2

    /// `unknown`, `bankIsCalling` or `bankIsNotCalling`, the spelling used in transcripts and logs.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .bankIsCalling: "bankIsCalling"
        case .bankIsNotCalling: "bankIsNotCalling"
        }
    }

    /// The verdict a raw value from Objective-C names; any value outside the three cases is
    /// ``unknown`` (bad input says nothing rather than crashing a switch, and never reassures).
    ///
    /// Takes the raw value rather than the enum so that the mapping is tested on Linux, where no
    /// enum value can hold a number outside its cases. On Apple, `rawValue` of an `@objc` enum
    /// reads the integer Objective-C stored, whatever it is, so the completion block passes
    /// `verdict.rawValue` here unchanged.
    init(sanitizing rawValue: Int) {
        self = CallMonitorCallVerdict(rawValue: rawValue) ?? .unknown
    }
}

/// A ``CallMonitorDelegate`` that also adopts this protocol is told of the verdict of the event it
/// shows (rule 24).
///
/// ```swift
/// extension MySecurityHandler: CallMonitorVerdictDelegate {
///     func callMonitorDidReceiveVerdict(_ verdict: CallMonitorCallVerdict) {
///         verdictLabel.text = verdict == .bankIsNotCalling ? "Your bank is not calling you. Hang up now." : nil
///     }
/// }
/// ```
///
/// It is separate from ``CallMonitorDelegate`` so that the reference's protocol stays as it is.
///
/// > Important: Called on the main thread, after ``CallMonitorDelegate/callMonitorDidDetectCall(flow:initialRemaining:onUserAction:)``
/// > of the same event: each time the monitor records a verdict for it (the verifier's answer, or
/// > ``CallMonitorCallVerdict/unknown`` when the budget runs out), and right after the detect call
/// > when the event is handed to this delegate with a verdict already known.
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallMonitorVerdictDelegate)
#endif
public protocol CallMonitorVerdictDelegate: AnyObject {
    /// The verdict of the event on screen arrived or changed.
    ///
    /// - Parameter verdict: The verdict now in force for the event; it never changes the
    ///   countdown, the button or the exit.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(callMonitorDidReceiveVerdict:)
    #endif
    @MainActor
    func callMonitorDidReceiveVerdict(_ verdict: CallMonitorCallVerdict)
}

// The security event on screen, as the immutable object the risk getters hand out.

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation

/// The security event on screen at one moment: an immutable snapshot, safe to keep and to pass
/// between threads.
///
/// Read it with ``CallMonitor/currentSecurityEvent``.
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallMonitorSecurityEvent)
#endif
public final class CallMonitorSecurityEvent: NSObject {
    /// The flow of the event.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(flow)
    #endif
    public let flow: CallMonitorFlow

    /// The countdown's value on screen, in seconds (the last value the UI was given).
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(remaining)
    #endif
    public let remaining: CInt

    /// The countdown's length under the policy, in seconds (after clamping).
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(seconds)
    #endif
    public let seconds: CInt

    /// When the event began, in nanoseconds of the monitor's monotonic clock
    /// (the clock of its ``CallMonitor/Ports``).
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(startedAt)
    #endif
    public let startedAt: Int64

    /// Whether the user action would be accepted now: always in the terminate flow (it exits);
    /// in the acknowledge flow once the countdown is at 0 and the action is not refused for
    /// screen capture.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(isActionAvailable)
    #endif
    public let isActionAvailable: Bool

    /// Whether the acknowledgement is refused because the screen is captured (the opt-in rule set
    /// with ``CallMonitor/setRefusesAcknowledgementWhileScreenCaptured(_:)``).
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(isAcknowledgementRefused)
    #endif
    public let isAcknowledgementRefused: Bool

    /// Whether the screen was captured at any moment since the event began.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(wasScreenCaptured)
    #endif
    public let wasScreenCaptured: Bool

    /// The bank's verdict on the call so far (rule 23): ``CallMonitorCallVerdict/unknown`` until
    /// the verifier set with ``CallMonitor/setCallVerifier(_:)`` answers within its budget. It
    /// informs only: it never changes ``remaining``, ``isActionAvailable`` or the exit.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(verdict)
    #endif
    public let verdict: CallMonitorCallVerdict

    /// What the screen behind the event is about (rule 29), or `nil`: the context of the
    /// protection whose policy is in force (``CallMonitor/protect(named:withTerminateIn:context:)``).
    /// Like the verdict it informs only.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(context)
    #endif
    public let context: CallMonitorContext?

    /// What a coaching signal said about this operation (rule 34), the level the built-in
    /// dialog's coaching line says: ``CallMonitor/CoachingLevel/medium`` or
    /// ``CallMonitor/CoachingLevel/high`` when an answer of that level was read for an open
    /// protection and its coaching policy answers it with a warning (the highest such level of the
    /// open protections); ``CallMonitor/CoachingLevel/unknown`` when there is no line to say: no
    /// source, no answer yet, an `unknown` answer, or a policy of `off` or `evaluate` for the level.
    /// A delegate that draws its own UI shows its own line from it. Like the verdict it informs
    /// only: it never changes ``remaining``, ``isActionAvailable`` or the exit.
    ///
    /// > Important: The value can rise while the event is on screen (an answer arrives a couple
    /// > of seconds after the protection opened) or fall (a protection ends). The event is
    /// > published after each step's presentation: read it from ``CallMonitor/currentSecurityEvent``
    /// > or observe ``CallMonitorState/securityEvent``, rather than inside
    /// > ``CallMonitorDelegate/callMonitorDidDetectCall(flow:initialRemaining:onUserAction:)``.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(coachingLevel)
    #endif
    public let coachingLevel: CallMonitor.CoachingLevel

    /// A snapshot with every field given; the monitor makes these, tests and previews may too.
    public init(
        flow: CallMonitorFlow, remaining: CInt, seconds: CInt, startedAt: Int64,
        isActionAvailable: Bool, isAcknowledgementRefused: Bool, wasScreenCaptured: Bool,
        verdict: CallMonitorCallVerdict = .unknown, context: CallMonitorContext? = nil,
        coachingLevel: CallMonitor.CoachingLevel = .unknown
    ) {
        self.flow = flow
        self.remaining = remaining
        self.seconds = seconds
        self.startedAt = startedAt
        self.isActionAvailable = isActionAvailable
        self.isAcknowledgementRefused = isAcknowledgementRefused
        self.wasScreenCaptured = wasScreenCaptured
        self.verdict = verdict
        self.context = context
        self.coachingLevel = coachingLevel
        super.init()
    }

    // The header build's stand-in root class has no -isEqual:, -hash or -description to override.
    #if !HNB_OBJC_HEADER
    private var fields: [Int64] {
        [Int64(flow.rawValue), Int64(remaining), Int64(seconds), startedAt,
         isActionAvailable ? 1 : 0, isAcknowledgementRefused ? 1 : 0, wasScreenCaptured ? 1 : 0, Int64(verdict.rawValue),
         Int64(coachingLevel.rawValue)]
    }

    /// Two snapshots are equal when every field is.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CallMonitorSecurityEvent else { return false }
        return fields == other.fields && context == other.context
    }

    /// A hash of every field, consistent with ``isEqual(_:)``.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(fields)
        hasher.combine(context)
        return hasher.finalize()
    }

    /// One line for logs: `acknowledge 0/30 action=true refused=false captured=false`, followed by
    /// ` verdict=bankIsNotCalling` (or `bankIsCalling`) once a verdict is known, and by
    /// ` context=payment` (the kind) when the event has a context, and by ` coaching=high` (or
    /// `medium`) when it has a coaching line.
    public override var description: String {
        let line = "\(flow) \(remaining)/\(seconds) action=\(isActionAvailable) refused=\(isAcknowledgementRefused) captured=\(wasScreenCaptured)"
        let verdictPart = verdict == .unknown ? "" : " verdict=\(verdict)"
        let coachingPart = coachingLevel == .unknown ? "" : " coaching=\(coachingLevel)"
        return line + verdictPart + (context.map { " context=\($0.kind)" } ?? "") + coachingPart
    }
    #endif
}

#if HNB_OBJC_HEADER
// Header generation compiles against a stand-in NSObject, which the compiler does not accept as a
// Sendable superclass; the checked conformance below is the one every real build uses.
extension CallMonitorSecurityEvent: @unchecked Sendable {}
#else
// Checked: every stored property is a `let` of a Sendable type.
extension CallMonitorSecurityEvent: Sendable {}
#endif

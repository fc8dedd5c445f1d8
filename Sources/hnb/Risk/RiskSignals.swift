// What a fraud check may ask the monitor at any moment, from any thread: the call state, whether
// monitoring is on, the security event on screen, screen capture, and whether a call was live
// recently. The main-actor core publishes one snapshot after every engine step; readers take it
// under a lock and never wait for the main thread.

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
    /// (``MonitorScheduler/now``).
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

    /// A snapshot with every field given; the monitor makes these, tests and previews may too.
    public init(
        flow: CallMonitorFlow, remaining: CInt, seconds: CInt, startedAt: Int64,
        isActionAvailable: Bool, isAcknowledgementRefused: Bool, wasScreenCaptured: Bool
    ) {
        self.flow = flow
        self.remaining = remaining
        self.seconds = seconds
        self.startedAt = startedAt
        self.isActionAvailable = isActionAvailable
        self.isAcknowledgementRefused = isAcknowledgementRefused
        self.wasScreenCaptured = wasScreenCaptured
        super.init()
    }

    // The header build's stand-in root class has no -isEqual:, -hash or -description to override.
    #if !HNB_OBJC_HEADER
    private var fields: [Int64] {
        [Int64(flow.rawValue), Int64(remaining), Int64(seconds), startedAt,
         isActionAvailable ? 1 : 0, isAcknowledgementRefused ? 1 : 0, wasScreenCaptured ? 1 : 0]
    }

    /// Two snapshots are equal when every field is.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CallMonitorSecurityEvent else { return false }
        return fields == other.fields
    }

    /// A hash of every field, consistent with ``isEqual(_:)``.
    public override var hash: Int { fields.hashValue }

    /// One line for logs: `acknowledge 0/30 action=true refused=false captured=false`.
    public override var description: String {
        "\(flow) \(remaining)/\(seconds) action=\(isActionAvailable) refused=\(isAcknowledgementRefused) captured=\(wasScreenCaptured)"
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

/// What the core published after its latest engine step.
struct RiskSnapshot: Sendable {
    /// The event on screen as plain values; the object readers get is made when they ask, so a
    /// step costs no allocation.
    struct Event: Equatable, Sendable {
        var flow: CallMonitorFlow
        var remaining: CInt
        var seconds: CInt
        var startedAt: Int64
        var isActionAvailable: Bool
        var isAcknowledgementRefused: Bool
        var wasScreenCaptured: Bool
    }

    var isMonitoring = false
    var callState = CallMonitorCallState.idle
    var isScreenCaptured = false
    var event: Event?
    /// When the last observed session ended (`nil`: none has); read only while `callState` is idle.
    var lastSessionEndedAt: Int64?
    /// The clock when this was published: the fallback "now" for a clock that cannot be read off
    /// the main thread.
    var publishedAt: Int64 = 0

    var securityEvent: CallMonitorSecurityEvent? {
        event.map {
            CallMonitorSecurityEvent(
                flow: $0.flow, remaining: $0.remaining, seconds: $0.seconds, startedAt: $0.startedAt,
                isActionAvailable: $0.isActionAvailable, isAcknowledgementRefused: $0.isAcknowledgementRefused,
                wasScreenCaptured: $0.wasScreenCaptured
            )
        }
    }

    /// Whether every signal (all but `publishedAt`) is the same.
    func sameSignals(as other: RiskSnapshot) -> Bool {
        isMonitoring == other.isMonitoring && callState == other.callState && isScreenCaptured == other.isScreenCaptured
            && event == other.event && lastSessionEndedAt == other.lastSessionEndedAt
    }
}

/// The latest ``RiskSnapshot``, shared between the main thread (which writes it) and any reader.
///
/// `@unchecked Sendable`: `snapshot` is only touched under `lock`; `clock` is immutable.
final class SignalBoard: @unchecked Sendable {
    private let lock = NSLock()
    private var snapshot = RiskSnapshot()
    /// Reads the scheduler's clock from any thread, when the scheduler allows it.
    private let clock: (@Sendable () -> Int64)?

    init(clock: (@Sendable () -> Int64)?) { self.clock = clock }

    /// Whether readers measure time on the scheduler's own clock (else on `publishedAt`).
    var hasClock: Bool { clock != nil }

    var current: RiskSnapshot { lock.withLock { snapshot } }

    func publish(_ next: RiskSnapshot) { lock.withLock { snapshot = next } }

    /// Whether a call was live at some instant of the last `window` nanoseconds.
    func wasCallLive(withinNanoseconds window: Int64) -> Bool {
        let taken = current
        if taken.callState != .idle { return true }
        guard let endedAt = taken.lastSessionEndedAt else { return false }
        // A stale "now" only makes the answer more cautious: less time seems to have passed.
        let now = clock?() ?? taken.publishedAt
        let (elapsed, overflow) = now.subtractingReportingOverflow(endedAt)
        if overflow { return false }
        return elapsed <= window
    }

    /// Seconds as given to ``CallMonitor/wasCallLive(withinLast:)``: negative means 0, NaN and
    /// +infinity mean forever, fractions are kept to the nanosecond, huge values saturate.
    static func nanoseconds(clampingWindow seconds: Double) -> Int64 {
        if seconds.isNaN { return .max }
        if seconds <= 0 { return 0 }
        let value = (seconds * 1e9).rounded(.up)
        return value >= 9.2e18 ? .max : Int64(value)
    }
}

/// A scheduler whose clock can be read from any thread, without the main actor. The recent-call
/// signal, ``CallMonitor/wasCallLive(withinLast:)``, uses it when the scheduler conforms.
///
/// ``LiveScheduler`` and ``ManualScheduler`` conform. For a scheduler that does not, the signal
/// measures up to the monitor's latest step, which can only err towards "a call was live".
public protocol AnyThreadClock: AnyObject, Sendable {
    /// The current instant in nanoseconds, the same clock as ``MonitorScheduler/now``; readable
    /// from any thread.
    nonisolated var anyThreadNow: Int64 { get }
}

extension CallMonitorCallState {
    init(_ state: AggregateCallState) {
        switch state {
        case .idle: self = .idle
        case .ringing: self = .ringing
        case .started: self = .started
        }
    }
}

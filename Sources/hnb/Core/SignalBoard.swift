// What a fraud check may ask the monitor at any moment, from any thread, as the core last
// published it: the main-actor core publishes one snapshot after every engine step; readers take
// it under a lock and never wait for the main thread.

/// What the core published after its latest engine step: the engine's view of itself
/// (``MonitorEngine/signals``) and the instant it was published.
struct RiskSnapshot: Sendable {
    var isMonitoring = false
    var callState = CallMonitorCallState.idle
    var isScreenCaptured = false
    /// The event on screen, as the engine keeps it (its verdict included); the object readers get
    /// is made when they ask, so a step costs no allocation.
    var event: MonitorEngine.Event?
    /// The shown event's button, as the engine decided it: whether its action is accepted now.
    var button = MonitorEngine.Button.hidden
    /// Rule 17: whether the shown acknowledge event refuses its action because of a capture (also
    /// while its delay runs and the button is hidden).
    var isAcknowledgementRefused = false
    /// When the last observed session ended (`nil`: none has); read only while `callState` is idle.
    var lastSessionEndedAt: Int64?
    /// The clock when this was published: the fallback "now" for a clock that cannot be read off
    /// the main thread.
    var publishedAt: Int64 = 0

    /// The verdict of the event on screen (rule 23); `unknown` when none is shown.
    var verdict: CallMonitorCallVerdict { event?.verdict ?? .unknown }

    /// The event on screen as the object readers get: the same event, made when asked.
    var securityEvent: CallMonitorSecurityEvent? {
        event.map {
            CallMonitorSecurityEvent(
                flow: $0.flow, remaining: $0.remaining, seconds: $0.total, startedAt: $0.startedAt,
                isActionAvailable: button == .available, isAcknowledgementRefused: isAcknowledgementRefused,
                wasScreenCaptured: $0.captured, verdict: $0.verdict
            )
        }
    }

    /// Whether every signal readers see (all but `publishedAt`, and of the event only what
    /// ``CallMonitorSecurityEvent`` shows: a hand-over's new token is nothing to readers) is the
    /// same.
    func sameSignals(as other: RiskSnapshot) -> Bool {
        isMonitoring == other.isMonitoring && callState == other.callState && isScreenCaptured == other.isScreenCaptured
            && button == other.button && isAcknowledgementRefused == other.isAcknowledgementRefused
            && lastSessionEndedAt == other.lastSessionEndedAt && Self.sameEvent(event, other.event)
    }

    private static func sameEvent(_ a: MonitorEngine.Event?, _ b: MonitorEngine.Event?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?):
            a.flow == b.flow && a.remaining == b.remaining && a.total == b.total && a.startedAt == b.startedAt
                && a.captured == b.captured && a.verdict == b.verdict
        default: false
        }
    }
}

/// The latest ``RiskSnapshot``, shared between the main thread (which writes it) and any reader.
///
/// Sendable: the snapshot is a ``Locked`` value and `clock` is immutable.
final class SignalBoard: Sendable {
    private let snapshot = Locked(RiskSnapshot())
    /// Reads the scheduler's clock from any thread, when the scheduler allows it.
    private let clock: (@Sendable () -> Int64)?

    init(clock: (@Sendable () -> Int64)?) { self.clock = clock }

    /// Whether readers measure time on the scheduler's own clock (else on `publishedAt`).
    var hasClock: Bool { clock != nil }

    var current: RiskSnapshot { snapshot.value }

    func publish(_ next: RiskSnapshot) { snapshot.set(next) }

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

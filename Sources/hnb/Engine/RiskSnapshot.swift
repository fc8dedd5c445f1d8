// What a fraud check may ask the monitor at any moment (the risk signals), as the engine says it
// after a step, and the rules that answer from it: the recent-call signal and its window. The core
// publishes it on the signal board (Core/SignalBoard.swift), which only adds the lock and a clock.

/// What the core published after its latest engine step: the engine's view of itself
/// (``MonitorEngine/signals``) and the instant it was published.
struct RiskSnapshot: Sendable {
    var isMonitoring = false
    var callState = CallMonitorCallState.idle
    var isScreenCaptured = false
    /// The event on screen as readers see it, a value the engine makes from its event each step
    /// (not the event itself, whose presentations, tokens and questions readers never see); the
    /// object readers get is made when they ask, so a step costs no allocation.
    var event: ShownEvent?
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
                wasScreenCaptured: $0.captured, verdict: $0.verdict, context: $0.context, coachingLevel: $0.coachingLevel ?? .unknown
            )
        }
    }

    /// Whether every signal readers see (all but `publishedAt`) is the same.
    func sameSignals(as other: RiskSnapshot) -> Bool {
        isMonitoring == other.isMonitoring && callState == other.callState && isScreenCaptured == other.isScreenCaptured
            && button == other.button && isAcknowledgementRefused == other.isAcknowledgementRefused
            && lastSessionEndedAt == other.lastSessionEndedAt && event == other.event
    }

    /// What readers see of the event on screen (``CallMonitorSecurityEvent``): a hand-over's new
    /// token, its presentations and its questions are nothing to them.
    struct ShownEvent: Equatable, Sendable {
        var flow: CallMonitorFlow
        var remaining: Int32
        /// The countdown's length in seconds.
        var total: Int32
        var startedAt: Int64
        /// Whether the screen was captured at any moment of the event.
        var captured: Bool
        var verdict: CallMonitorCallVerdict
        var context: CallMonitorContext?
        /// Rule 34: the level the event's coaching line says, `nil` for none.
        var coachingLevel: CallMonitor.CoachingLevel?

        /// What readers see of `event`.
        init(_ event: MonitorEngine.Event) {
            flow = event.flow
            remaining = event.remaining
            total = event.total
            startedAt = event.startedAt
            captured = event.captured
            verdict = event.verdict
            context = event.context
            coachingLevel = event.coachingLevel
        }
    }
}

extension RiskSnapshot {
    /// The recent-call signal (``CallMonitor/wasCallLive(withinLast:)``): whether a call was live
    /// at some instant of the last `window` nanoseconds before `now`. A stale `now` only makes the
    /// answer more cautious: less time seems to have passed.
    func wasCallLive(withinNanoseconds window: Int64, now: @autoclosure () -> Int64) -> Bool {
        if callState != .idle { return true }
        guard let endedAt = lastSessionEndedAt else { return false }
        let (elapsed, overflow) = now().subtractingReportingOverflow(endedAt)
        if overflow { return false }
        return elapsed <= window
    }

    /// Seconds as given to ``CallMonitor/wasCallLive(withinLast:)``: negative means 0, NaN and
    /// +infinity mean forever (fail closed: "a call may have been live"), fractions are kept to
    /// the nanosecond, huge values saturate.
    static func nanoseconds(clampingWindow seconds: Double) -> Int64 {
        if seconds.isNaN { return .max }
        if seconds <= 0 { return 0 }
        let value = (seconds * 1e9).rounded(.up)
        return value >= 9.2e18 ? .max : Int64(value)
    }
}

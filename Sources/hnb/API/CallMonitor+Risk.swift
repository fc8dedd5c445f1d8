// The monitor's answers to a fraud check, its records of each warning, its streams for Swift
// concurrency, and the opt-in screen-capture rule. Not in the reference; nothing here changes
// what the reference's API does.

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation

extension CallMonitor {
    // MARK: Risk signals

    /// The aggregate state of the device's calls, as of the monitor's latest step. Readable from
    /// any thread; never waits for the main thread.
    ///
    /// ``CallMonitorCallState/idle`` while not monitoring: calls are observed only while
    /// monitoring.
    ///
    /// > Important: Calls from other threads take effect when the main thread applies them, so
    /// > right after `startMonitoring` from a background thread this may still say what it said
    /// > before. Every getter here reads the same snapshot, published after each step.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(callState)
    #endif
    public var callState: CallMonitorCallState { core.board.current.callState }

    /// Whether a policy is being enforced (between `startMonitoring` and ``stopMonitoring()`` or
    /// the force exit). Readable from any thread.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(isMonitoring)
    #endif
    public var isMonitoring: Bool { core.board.current.isMonitoring }

    /// Whether the screen is being recorded, mirrored or shared, as the screen-capture part of
    /// the monitor's ``CallMonitor/Ports`` last reported. Readable from any thread.
    ///
    /// Observed only while monitoring; `false` otherwise, and always `false` where the platform
    /// cannot tell (macOS, visionOS, Linux).
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(isScreenCaptured)
    #endif
    public var isScreenCaptured: Bool { core.board.current.isScreenCaptured }

    /// The security event on screen (on a delegate or the built-in dialog), or `nil` when none
    /// is. Readable from any thread.
    ///
    /// ```swift
    /// if let event = monitor.currentSecurityEvent, event.flow == .acknowledge {
    ///     // the user is being warned right now: hold the payment
    /// }
    /// ```
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(currentSecurityEvent)
    #endif
    public var currentSecurityEvent: CallMonitorSecurityEvent? { core.board.current.securityEvent }

    /// Whether a call was live at any moment of the last `seconds` seconds: live now, or ended no
    /// more than `seconds` ago. For the check at the moment a user confirms a payment, when the
    /// caller may have hung up just before. Readable from any thread.
    ///
    /// Time is measured on the monitor's monotonic clock (the scheduler's), so changing the
    /// device's date or time changes nothing.
    ///
    /// ```swift
    /// guard !CallMonitor.sharedInstance().wasCallLive(withinLast: 120) else { return askForReview() }
    /// ```
    ///
    /// > Important: Only calls observed while monitoring count: a call that ended before the
    /// > first `startMonitoring` is unknown. Stopping monitoring during a call counts as the call
    /// > being live until the stop.
    ///
    /// - Parameter seconds: The window, in seconds; fractions are kept to the nanosecond.
    ///   Clamped: a negative value means 0 (only "live right now", or ended at this very
    ///   nanosecond); NaN and `+infinity` mean forever (any call observed by this monitor), the
    ///   cautious reading of a broken value; huge values saturate.
    /// - Returns: `true` if a call was live within the window.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(wasCallLiveWithinLast:)
    #endif
    public func wasCallLive(withinLast seconds: Double) -> Bool {
        core.board.wasCallLive(withinNanoseconds: RiskSnapshot.nanoseconds(clampingWindow: seconds))
    }

    // MARK: Outcomes

    /// Sets the closure told of every security event's outcome (``CallMonitorOutcome``), or
    /// removes it with `nil`.
    ///
    /// It runs on the main thread right after the event's UI was dismissed; for the force exit,
    /// before the hook set with ``setBeforeForceExit(budget:_:)`` and before the exit, so the app
    /// can persist the record. Independent of ``outcomes``: both get every outcome.
    ///
    /// > Important: At the force exit the handler cannot hold the exit back: it shares the hook's
    /// > budget (2 s by default), after which a watchdog thread ends the app whatever the main
    /// > thread is doing. Write the record quickly (a file, not the network).
    public func setOutcomeHandler(_ handler: (@MainActor (CallMonitorOutcome) -> Void)?) {
        send(.setOutcomeHandler(handler))
    }

    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    /// `-setOutcomeHandler:` for Objective-C: the same records as `CallMonitorOutcomeRecord`
    /// objects, on the main thread, at the same moments. Swift code uses
    /// ``setOutcomeHandler(_:)``.
    @available(swift, obsoleted: 1, message: "use setOutcomeHandler(_:)")
    @objc(setOutcomeHandler:)
    public func objcSetOutcomeHandler(_ handler: ((_CallMonitorOutcomeRecord) -> Void)?) {
        guard let handler else { return setOutcomeHandler(nil) }
        let block = UncheckedOutcomeBlock(handler)
        setOutcomeHandler { outcome in block.body(_CallMonitorOutcomeRecord(outcome)) }
    }
    #endif

    /// A new stream of every outcome from this moment on, yielded on the main thread in the same
    /// order as the handler set with ``setOutcomeHandler(_:)`` gets them.
    ///
    /// Each access subscribes a new, independent stream. It ends when its consumer stops (the
    /// task is cancelled or the stream is dropped), which also unsubscribes it.
    ///
    /// > Warning: A force exit ends the process right after the outcome is yielded: a task that
    /// > has not run yet never sees it. Persist force-exit records from the handler, which runs
    /// > synchronously before the exit.
    public var outcomes: AsyncStream<CallMonitorOutcome> { core.outcomeFeed.subscribe() }

    // MARK: Events

    /// A new stream of every call event (``CallEvent``) from this moment on, as the callback set
    /// with ``setCallback(_:)`` gets them: the same events, in the same order, yielded on the
    /// main thread right after the callback runs.
    ///
    /// ```swift
    /// for await event in monitor.events {
    ///     log("call \(event)")
    /// }
    /// ```
    ///
    /// Each access subscribes a new, independent stream; any number may be open at once, and
    /// none affects the callback. A stream ends when its consumer stops (the task is cancelled or
    /// the stream is dropped), which also unsubscribes it. Elements are buffered without limit
    /// until read.
    public var events: AsyncStream<CallEvent> { core.eventFeed.subscribe() }

    // MARK: Screen capture

    /// Turns on (or off) the opt-in screen-capture rule, off by default: while a call is live and
    /// the screen is captured, the acknowledge flow refuses the acknowledgement (rule 17).
    ///
    /// The warning stays on screen; once its countdown is over the built-in dialog's button says
    /// why ("Stop screen sharing to acknowledge") and a tap does nothing, and a delegate's
    /// `onUserAction` does nothing (read ``CallMonitorSecurityEvent/isAcknowledgementRefused``
    /// to explain it in your UI). When the capture stops, the normal rules resume. The terminate
    /// flow is unchanged: its button still closes the app. Capture is reported by the monitor's
    /// ports (``CallMonitor/Ports``; on iOS, iPadOS and Mac Catalyst the live ones read
    /// `UIScreen`).
    ///
    /// - Parameter refuses: `true` to refuse acknowledgements while the screen is captured.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(setRefusesAcknowledgementWhileScreenCaptured:)
    #endif
    public func setRefusesAcknowledgementWhileScreenCaptured(_ refuses: Bool) {
        send(.refusesAcknowledgementWhileScreenCaptured(refuses))
    }
}

/// An Objective-C outcome block carried to the main thread.
/// `@unchecked Sendable`: the block is only ever called on the main thread, as the API promises.
struct UncheckedOutcomeBlock: @unchecked Sendable {
    let body: (_CallMonitorOutcomeRecord) -> Void
    init(_ body: @escaping (_CallMonitorOutcomeRecord) -> Void) { self.body = body }
}

// The small ports through which the engine meets the world. Each has a live implementation for
// the platform and a scripted one for tests, the simulator and SwiftUI previews.

/// Reports the phone calls the device has.
///
/// A source may deliver from any thread; ``CallMonitor`` applies every delivery on the main
/// thread, in order, and ignores deliveries made after ``stop()``. Deliveries that pile up while
/// the main thread is busy are merged into one (only the latest state of each call matters).
///
/// Every source the library ships passes `CallSourceConformance`; run it against your own.
@MainActor
package protocol CallSource: AnyObject, Sendable {
    /// Begins observing. The source first delivers ``CallBatch/complete(_:)`` with every call
    /// already in progress (an empty list when there is none), then each change as it happens,
    /// as changes or, better, as complete lists.
    ///
    /// A start after ``stop()`` begins again: calls in progress are delivered again.
    ///
    /// - Parameter deliver: Receives batches; a batch is applied as one change of state.
    func start(_ deliver: @escaping @Sendable (CallBatch) -> Void)

    /// Stops observing; nothing more is delivered until the next ``start(_:)``. A delivery
    /// already under way on another thread may still return after this does: the monitor drops
    /// it, because it belongs to a run that is over (`SourceRunner`).
    func stop()

    /// Reads the complete list again and delivers it now, while running, if the source can read
    /// its list on demand (issue 37): a terminate exit that falls due while the view of the calls
    /// may be older than the last resume waits for it. Deliver it synchronously, from the main
    /// thread, so that it is applied before anything else queued there (a wake-up that a
    /// suspension made overdue). A source that cannot read on demand does nothing (the default):
    /// the exit then waits at most ``MonitorEngine/freshListGrace`` and happens on the view it has.
    func refresh()
}

extension CallSource {
    /// A source that cannot read its list on demand: nothing to do (see ``refresh()``).
    package func refresh() {}
}

/// Tells whether the app is in the foreground.
///
/// "Foreground" includes the inactive state in which an incoming-call screen covers the app.
@MainActor
package protocol AppStateSource: AnyObject, Sendable {
    /// The state right now.
    var isForeground: Bool { get }

    /// Begins observing; `deliver` may be called from any thread.
    func start(_ deliver: @escaping @Sendable (_ isForeground: Bool) -> Void)

    /// Stops observing.
    func stop()
}

/// A cancellable piece of scheduled work.
@MainActor
package protocol ScheduledWork: AnyObject {
    /// Makes sure the work does not run. Cancelling twice, or after it ran, does nothing.
    func cancel()
}

/// A monotonic clock and a way to run work on the main thread at an instant of that clock.
///
/// Instants are nanoseconds from an origin the scheduler chooses. The engine computes every
/// deadline from the start of a countdown (tick *k* at start + *k* s), so a late wake-up never
/// shifts the ticks after it.
@MainActor
package protocol MonitorScheduler: AnyObject, Sendable {
    /// The current instant, in nanoseconds. It never goes backwards.
    var now: Int64 { get }

    /// Runs `work` on the main thread at `deadline` or as soon as possible after it.
    func schedule(at deadline: Int64, _ work: @escaping @MainActor () -> Void) -> any ScheduledWork
}

/// Ends the app when the terminate flow decides it must.
@MainActor
package protocol AppTerminator: AnyObject, Sendable {
    /// Ends the process with `code`, on the main thread. The live terminator does not return.
    func terminate(code: Int32)

    /// Ends the process with `code` from whatever thread calls it, without waiting for the main
    /// thread: the before-exit watchdog's way out when the hook set with
    /// ``CallMonitor/setBeforeForceExit(budget:_:)`` has not returned in time (the main thread
    /// is then still inside the hook). The live terminator does not return.
    nonisolated func terminateFromAnyThread(code: Int32)
}

/// Draws the built-in security dialog described by a ``SecurityAlert``.
///
/// The built-in dialog is used whenever no delegate is set, or the delegate has gone away.
@MainActor
package protocol SecurityAlertRenderer: AnyObject, Sendable {
    /// Shows `alert`, or changes the dialog already shown to match it.
    ///
    /// - Parameters:
    ///   - alert: What the dialog says; ``SecurityAlert/button`` is `nil` while no button is shown.
    ///   - onButton: Call this when the user taps the button.
    func render(_ alert: SecurityAlert, onButton: @escaping @MainActor () -> Void)

    /// Removes the dialog.
    func dismiss()
}

/// A scheduler whose clock can be read from any thread, without the main actor. The recent-call
/// signal, ``CallMonitor/wasCallLive(withinLast:)``, uses it when the scheduler conforms.
///
/// ``LiveScheduler`` and `ManualScheduler` conform. For a scheduler that does not, the signal
/// measures up to the monitor's latest step, which can only err towards "a call was live".
package protocol AnyThreadClock: AnyObject, Sendable {
    /// The current instant in nanoseconds, the same clock as ``MonitorScheduler/now``; readable
    /// from any thread.
    nonisolated var anyThreadNow: Int64 { get }
}

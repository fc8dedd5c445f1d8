// The two schedulers: the live one (a monotonic clock and one-shot Dispatch timers on the main
// queue) and the manual one (virtual time, advanced by hand, for tests and the simulator).

import Dispatch
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a monotonic clock that keeps counting while the device sleeps, so a countdown measured
/// against it is not stretched by a suspension.
///
/// Apple counts clocks measured from boot as "system boot time", a required-reason API: the
/// library declares it in Resources/PrivacyInfo.xcprivacy (reason 35F9.1, elapsed time for
/// timers, never sent off the device). Reading another clock means updating that file.
enum MonotonicClock {
    static func now() -> Int64 {
        var ts = timespec()
        #if canImport(Darwin)
        // CLOCK_MONOTONIC on Darwin includes time asleep (mach_continuous_time).
        clock_gettime(CLOCK_MONOTONIC, &ts)
        #else
        // CLOCK_BOOTTIME includes time suspended; CLOCK_MONOTONIC would not.
        clock_gettime(CLOCK_BOOTTIME, &ts)
        #endif
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}

/// The scheduler ``CallMonitor/sharedInstance()`` uses: a monotonic clock that counts time asleep,
/// and strict one-shot Dispatch timers on the main queue.
///
/// Each wake-up is armed for an absolute deadline that the engine computed from the start of the
/// countdown, so lateness never accumulates from one tick to the next.
public final class LiveScheduler: MonitorScheduler {
    /// A scheduler on the process's monotonic clock.
    public nonisolated init() {}

    /// Nanoseconds of a clock that never goes backwards and keeps counting while the device sleeps.
    /// Readable from any thread.
    public nonisolated var now: Int64 { MonotonicClock.now() }

    /// Runs `work` on the main queue at `deadline` on this clock (at once if it has passed).
    public func schedule(at deadline: Int64, _ work: @escaping @MainActor () -> Void) -> any ScheduledWork {
        let delay = max(0, deadline - now)
        // `.strict` and zero leeway: the system must not coalesce this timer with others, which
        // would shift a tick by up to a tenth of its interval.
        let timer = DispatchSource.makeTimerSource(flags: .strict, queue: .main)
        let handle = DispatchWork(timer: timer)
        timer.schedule(deadline: .now() + .nanoseconds(Int(clamping: delay)), leeway: .nanoseconds(0))
        // A released Dispatch source never fires, so the handler keeps the handle (and with it the
        // source) alive until it has fired or been cancelled: a caller that drops the handle cannot
        // silently lose a countdown tick. Cancelling releases the handler and ends the cycle.
        timer.setEventHandler {
            MainActor.assumeIsolated {
                handle.cancel()
                work()
            }
        }
        timer.resume()
        return handle
    }

    private final class DispatchWork: ScheduledWork {
        private let timer: any DispatchSourceTimer
        init(timer: any DispatchSourceTimer) { self.timer = timer }
        func cancel() { timer.cancel() }
    }
}

/// A scheduler whose time moves only when told to: for tests, previews and the simulator.
///
/// ``advance(by:)`` runs every piece of work that falls due, in deadline order (work due at the
/// same instant runs in the order it was scheduled), including work scheduled while advancing.
/// Nothing ever runs on its own, so a test never sleeps.
///
/// ```swift
/// let scheduler = ManualScheduler()
/// scheduler.advance(bySeconds: 3)   // three countdown ticks, synchronously
/// #expect(scheduler.pendingCount == 0)
/// ```
public final class ManualScheduler: MonitorScheduler {
    private struct Entry {
        let deadline: Int64
        let order: UInt64
        let work: Work
    }

    private final class Work: ScheduledWork {
        var body: (@MainActor () -> Void)?
        init(_ body: @escaping @MainActor () -> Void) { self.body = body }
        func cancel() { body = nil }
    }

    private var entries: [Entry] = []
    private var scheduledCount: UInt64 = 0
    /// The current virtual instant in nanoseconds; starts at 0.
    public private(set) var now: Int64 = 0
    /// A copy of ``now`` for other threads (``AnyThreadClock``), so the main thread reads its own
    /// without a lock.
    private let virtualNow = LockedInstant()

    private func setNow(_ value: Int64) {
        now = value
        virtualNow.value = value
    }

    /// A scheduler at virtual instant 0 with nothing scheduled.
    public nonisolated init() {}

    /// Keeps `work` until ``advance(to:)`` or ``advance(bySeconds:)`` passes `deadline`.
    public func schedule(at deadline: Int64, _ work: @escaping @MainActor () -> Void) -> any ScheduledWork {
        scheduledCount += 1
        let entry = Entry(deadline: deadline, order: scheduledCount, work: Work(work))
        entries.append(entry)
        return entry.work
    }

    /// How many pieces of work are scheduled and not cancelled.
    public var pendingCount: Int { entries.lazy.filter { $0.work.body != nil }.count }

    /// The earliest pending deadline, if any.
    public var nextDeadline: Int64? { entries.lazy.filter { $0.work.body != nil }.map(\.deadline).min() }

    /// Moves time forward by `nanoseconds` (negative values count as 0), running due work.
    public func advance(by nanoseconds: Int64) {
        let (target, overflow) = now.addingReportingOverflow(max(0, nanoseconds))
        advance(to: overflow ? .max : target)
    }

    /// Moves time forward by `seconds` (fractions allowed), running due work.
    public func advance(bySeconds seconds: Double) {
        advance(by: Self.nanoseconds(seconds))
    }

    /// Moves time to `instant`, running due work; an instant in the past leaves time where it is.
    public func advance(to instant: Int64) {
        while let index = indexOfNextDue(by: instant) {
            let entry = entries.remove(at: index)
            // Late work (after a suspension) runs at the current instant, not its deadline.
            setNow(max(now, entry.deadline))
            guard let body = entry.work.body else { continue }
            entry.work.body = nil
            body()
        }
        entries.removeAll { $0.work.body == nil }
        setNow(max(now, instant))
    }

    /// Moves time forward by `nanoseconds` as if the process had been suspended: nothing runs on
    /// the way, then all work that fell due runs at the new instant, in deadline order.
    public func suspend(for nanoseconds: Int64) {
        let (target, overflow) = now.addingReportingOverflow(max(0, nanoseconds))
        setNow(overflow ? .max : target)
        advance(to: now)
    }

    /// Like ``suspend(for:)``, in seconds.
    public func suspend(forSeconds seconds: Double) {
        suspend(for: Self.nanoseconds(seconds))
    }

    private func indexOfNextDue(by instant: Int64) -> Int? {
        var best: Int?
        for (index, entry) in entries.enumerated() where entry.deadline <= instant {
            if let current = best, (entries[current].deadline, entries[current].order) <= (entry.deadline, entry.order) { continue }
            best = index
        }
        return best
    }

    /// Converts seconds to nanoseconds, rounding to the nearest and saturating.
    static func nanoseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite else { return seconds > 0 ? .max : 0 }
        let value = (seconds * 1_000_000_000).rounded()
        if value >= 9.2e18 { return .max }
        if value <= 0 { return 0 }
        return Int64(value)
    }
}

extension LiveScheduler: AnyThreadClock {
    /// The same clock as ``now``.
    public nonisolated var anyThreadNow: Int64 { MonotonicClock.now() }
}

extension ManualScheduler: AnyThreadClock {
    /// The same virtual instant as ``now``, read under a lock from any thread.
    public nonisolated var anyThreadNow: Int64 { virtualNow.value }
}

/// One instant shared between the main thread, which moves it, and readers on other threads.
/// `@unchecked Sendable`: `stored` is only touched under `lock`.
final class LockedInstant: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int64 = 0
    var value: Int64 {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

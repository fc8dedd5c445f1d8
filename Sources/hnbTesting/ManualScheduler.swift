// The manual scheduler: virtual time, advanced by hand, for tests, previews and the simulator.

import Foundation
import hnb

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
    private let virtualNow = Locked<Int64>(0)

    private func setNow(_ value: Int64) {
        now = value
        virtualNow.set(value)
    }

    /// A scheduler at virtual instant 0 with nothing scheduled.
    public nonisolated init() {}

    /// Keeps `work` until ``advance(to:)`` or ``advance(bySeconds:)`` passes `deadline`.
    package func schedule(at deadline: Int64, _ work: @escaping @MainActor () -> Void) -> any ScheduledWork {
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

    /// Moves time to `instant` (never back) without running anything: a recording's replay runs
    /// the work that fell due where the recording says it ran (`wait`), as the device did.
    package func move(to instant: Int64) {
        setNow(max(now, instant))
    }

    /// Runs the one piece of work that is due first by now (late work at the current instant),
    /// if any: a recording's `wait`, one step of the device's clock.
    package func runNextDue() {
        while let index = indexOfNextDue(by: now) {
            let entry = entries.remove(at: index)
            guard let body = entry.work.body else { continue }
            entry.work.body = nil
            body()
            return
        }
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
    package static func nanoseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite else { return seconds > 0 ? .max : 0 }
        let value = (seconds * 1_000_000_000).rounded()
        if value >= 9.2e18 { return .max }
        if value <= 0 { return 0 }
        return Int64(value)
    }
}

extension ManualScheduler: AnyThreadClock {
    /// The same virtual instant as ``now``, read under a lock from any thread.
    package nonisolated var anyThreadNow: Int64 { virtualNow.value }
}

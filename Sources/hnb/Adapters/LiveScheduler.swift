// The live scheduler: a monotonic clock and one-shot Dispatch timers on the main queue.

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
package final class LiveScheduler: MonitorScheduler {
    /// A scheduler on the process's monotonic clock.
    package nonisolated init() {}

    /// Nanoseconds of a clock that never goes backwards and keeps counting while the device sleeps.
    /// Readable from any thread.
    package nonisolated var now: Int64 { MonotonicClock.now() }

    /// Runs `work` on the main queue at `deadline` on this clock (at once if it has passed).
    package func schedule(at deadline: Int64, _ work: @escaping @MainActor () -> Void) -> any ScheduledWork {
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


extension LiveScheduler: AnyThreadClock {
    /// The same clock as ``now``.
    package nonisolated var anyThreadNow: Int64 { MonotonicClock.now() }
}

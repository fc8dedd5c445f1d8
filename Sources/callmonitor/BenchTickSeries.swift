// The yardsticks for the monitor's ticks: a countdown without the monitor, armed the naive way
// (chained one-second delays) or the OS's best way (a strict timer for each absolute instant).

import Dispatch
import hnb

/// A countdown of `seconds` ticks without the monitor, to read the monitor's ticks against:
/// tick k is due at start + k s, and each entry of `lateness` is how late it ran, in ms.
@MainActor
final class TickSeries {
    /// How each tick is armed.
    enum Arming {
        /// The naive way: each tick schedules the next one second after it ran, so lateness adds up.
        case chainedAsyncAfter
        /// The OS's best: a strict one-shot timer with no leeway, armed for the absolute instant
        /// start + k s, as LiveScheduler arms the monitor's ticks.
        case absoluteStrictTimer
    }

    let arming: Arming
    let seconds: Int32
    let clock: LiveScheduler
    let done: ([Double]) -> Void
    let start: Int64
    var k: Int64 = 0
    var lateness: [Double] = []
    private var timer: (any DispatchSourceTimer)?

    init(_ arming: Arming, seconds: Int32, clock: LiveScheduler, done: @escaping ([Double]) -> Void) {
        self.arming = arming
        self.seconds = seconds
        self.clock = clock
        self.done = done
        start = clock.now
    }

    func next() {
        let due = start + (k + 1) * 1_000_000_000
        switch arming {
        case .chainedAsyncAfter:
            DispatchQueue.main.asyncAfter(deadline: .now() + 1) {
                MainActor.assumeIsolated { self.fired(due: due) }
            }
        case .absoluteStrictTimer:
            let timer = DispatchSource.makeTimerSource(flags: .strict, queue: .main)
            timer.schedule(deadline: .now() + .nanoseconds(Int(Swift.max(0, due - clock.now))), leeway: .nanoseconds(0))
            timer.setEventHandler {
                MainActor.assumeIsolated {
                    self.timer?.cancel()
                    self.fired(due: due)
                }
            }
            self.timer = timer
            timer.resume()
        }
    }

    private func fired(due: Int64) {
        k += 1
        lateness.append(Double(clock.now - due) / 1e6)
        if k == Int64(seconds) { done(lateness) } else { next() }
    }
}

// The demo's clock: the live scheduler with time running faster, for `--speed`.

import hnb

/// The live scheduler with time running `rate` times faster, for `--speed`. Deadlines are still
/// absolute instants computed by the engine, so a faster demo does not drift either.
final class ScaledScheduler: MonitorScheduler {
    private let live = LiveScheduler()
    private let origin: Int64
    private let rate: Double

    init(rate: Double) {
        self.rate = rate
        origin = live.now
    }

    var now: Int64 { Int64((Double(live.now - origin) * rate).rounded(.down)) }

    func schedule(at deadline: Int64, _ work: @escaping @MainActor () -> Void) -> any ScheduledWork {
        let realDelay = max(0, Double(deadline - now) / rate)
        return live.schedule(at: live.now + Int64(realDelay.rounded(.up)), work)
    }
}

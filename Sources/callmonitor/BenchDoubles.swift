// The bench's stand-ins for an app: a scheduler that counts what the monitor asks of it, and a
// delegate whose calls the measurements time.

import hnb

/// Counts what the monitor asks of the live scheduler while it is idle.
final class CountingScheduler: MonitorScheduler {
    private let live = LiveScheduler()
    private(set) var scheduled = 0
    private(set) var fired = 0
    var now: Int64 { live.now }
    func schedule(at deadline: Int64, _ work: @escaping @MainActor () -> Void) -> any ScheduledWork {
        scheduled += 1
        return live.schedule(at: deadline) { [weak self] in
            self?.fired += 1
            work()
        }
    }
}

/// A delegate that hands each call to closures the bench sets.
final class BenchDelegate: CallMonitorDelegate {
    var onDetect: (Int32) -> Void = { _ in }
    var onTick: (Int32) -> Void = { _ in }
    var onEnd: () -> Void = {}
    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: Int32, onUserAction: @escaping () -> Void) {
        onDetect(initialRemaining)
    }
    func callMonitorCountdownTick(_ remaining: Int32) { onTick(remaining) }
    func callMonitorDidEndCall() { onEnd() }
}

// The engine's one wake-up: scheduled and cancelled when the engine says so, and numbered, so a
// timer that fires after it was replaced is dropped.

/// Keeps the engine's pending wake-up on the scheduler.
@MainActor
final class WakeUpTimer {
    private let scheduler: any MonitorScheduler
    /// Hands the wake-up to the core when it fires.
    private let deliver: @MainActor (MonitorEngine.Input) -> Void
    private var wakeUp: (any ScheduledWork)?
    /// Bumped whenever the wake-up changes, so a timer that fires after being replaced is dropped.
    private var generation: UInt64 = 0

    nonisolated init(scheduler: any MonitorScheduler, deliver: @escaping @MainActor (MonitorEngine.Input) -> Void) {
        self.scheduler = scheduler
        self.deliver = deliver
    }

    /// Wakes the engine at `deadline`, replacing the pending wake-up.
    func schedule(at deadline: Int64) {
        wakeUp?.cancel()
        generation &+= 1
        let generation = self.generation
        let deliver = self.deliver
        wakeUp = scheduler.schedule(at: deadline) {
            deliver(.wake(run: generation))
        }
    }

    func cancel() {
        wakeUp?.cancel()
        wakeUp = nil
        generation &+= 1
    }

    /// Whether `input` is the pending wake-up firing (inputs of other kinds always are current);
    /// that wake-up is then spent.
    func accept(_ input: MonitorEngine.Input) -> Bool {
        guard case .wake(let fired) = input else { return true }
        guard fired == generation else { return false }
        wakeUp = nil
        return true
    }
}

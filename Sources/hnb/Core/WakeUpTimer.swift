// The engine's wake-ups (the countdown's, and the remote policy's switch, issue 28): each
// scheduled and cancelled when the engine says so, and numbered, so a timer that fires after it
// was replaced is dropped.

/// Keeps the engine's pending wake-up on the scheduler.
@MainActor
final class WakeUpTimer {
    private let scheduler: any MonitorScheduler
    /// Hands the wake-up to the core when it fires.
    private let deliver: @MainActor (MonitorEngine.Input) -> Void
    private var wakeUp: (any ScheduledWork)?
    /// Bumped whenever the wake-up changes, so a timer that fires after being replaced is dropped.
    private var generation: UInt64 = 0
    /// Which wake-up this timer keeps: the countdown's `wake`, or the remote policy's `policyWake`.
    private let policy: Bool

    nonisolated init(scheduler: any MonitorScheduler, policy: Bool = false, deliver: @escaping @MainActor (MonitorEngine.Input) -> Void) {
        self.scheduler = scheduler
        self.policy = policy
        self.deliver = deliver
    }

    /// Wakes the engine at `deadline`, replacing the pending wake-up.
    func schedule(at deadline: Int64) {
        wakeUp?.cancel()
        generation &+= 1
        let generation = self.generation
        let deliver = self.deliver
        let policy = self.policy
        wakeUp = scheduler.schedule(at: deadline) {
            deliver(policy ? .policyWake(run: generation) : .wake(run: generation))
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
        let fired: UInt64
        switch input {
        case .wake(let run) where !policy: fired = run
        case .policyWake(let run) where policy: fired = run
        default: return true
        }
        guard fired == generation else { return false }
        wakeUp = nil
        return true
    }
}

// The last line of the force exit: a thread of its own that ends the app when the before-exit
// work overruns its budget.

import Dispatch

/// Ends the app from a thread of its own if the before-exit hook has not returned in time, so no
/// hook (slow, deadlocked, or waiting for the user) can keep a force exit from happening.
///
/// Sendable: its one mutable property is a ``Locked`` value.
final class ExitWatchdog: Sendable {
    static let defaultBudget: Int64 = 2_000_000_000
    private static let maximumBudget: Int64 = 60_000_000_000

    private enum State { case armed, disarmed, fired }
    private let state = Locked(State.armed)

    /// Arms the watchdog: `fire` runs on a global queue after `budgetNanoseconds` unless
    /// ``disarm()`` came first.
    init(budgetNanoseconds: Int64, fire: @escaping @Sendable () -> Void) {
        let deadline = DispatchTime.now() + .nanoseconds(Int(clamping: budgetNanoseconds))
        DispatchQueue.global(qos: .userInteractive).asyncAfter(deadline: deadline) { [self] in
            let due = state.withLock { state in
                guard state == .armed else { return false }
                state = .fired
                return true
            }
            if due { fire() }
        }
    }

    /// Returns `true` if the watchdog was stopped in time, `false` if it has already fired.
    func disarm() -> Bool {
        state.withLock { state in
            guard state == .armed else { return false }
            state = .disarmed
            return true
        }
    }

    /// Seconds as given to `setBeforeForceExit(budget:_:)`, clamped to 0…60 s; NaN gives the
    /// default.
    static func nanoseconds(clamping seconds: Double) -> Int64 {
        guard !seconds.isNaN else { return defaultBudget }
        let clamped = min(max(seconds, 0), Double(maximumBudget) / 1e9)
        return Int64((clamped * 1e9).rounded())
    }
}

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

    /// Armed, it holds the work that ends the app; disarming or firing lets go of it at once, so
    /// what that work holds (the terminator, and in a simulation its whole transcript) is not kept
    /// for the rest of the budget by the timer still pending on the global queue.
    private enum State {
        case armed(@Sendable () -> Void)
        case disarmed
        case fired
    }
    private let state: Locked<State>

    /// Arms the watchdog: `fire` runs on a global queue after `budgetNanoseconds` unless
    /// ``disarm()`` came first.
    init(budgetNanoseconds: Int64, fire: @escaping @Sendable () -> Void) {
        state = .init(.armed(fire))
        let deadline = DispatchTime.now() + .nanoseconds(Int(clamping: budgetNanoseconds))
        DispatchQueue.global(qos: .userInteractive).asyncAfter(deadline: deadline) { [self] in
            let due: (@Sendable () -> Void)? = state.withLock { state in
                guard case .armed(let fire) = state else { return nil }
                state = .fired
                return fire
            }
            due?()
        }
    }

    /// Returns `true` if the watchdog was stopped in time, `false` if it has already fired.
    func disarm() -> Bool {
        state.withLock { state in
            guard case .armed = state else { return false }
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

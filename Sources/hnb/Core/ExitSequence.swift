// The exit sequence (rule 16 and the before-exit hook): the watchdog armed for the app code that
// runs before a force exit, the hook, and the exit itself.

/// Carries out the force exit, with a watchdog that no app code can hold back.
@MainActor
final class ExitSequence {
    private let terminator: any AppTerminator
    private var beforeForceExit: (@MainActor () -> Void)?
    private var budget = ExitWatchdog.defaultBudget
    /// Armed when the engine says (before the first app code of the force exit); disarmed at
    /// the exit.
    private var watchdog: ExitWatchdog?

    nonisolated init(terminator: any AppTerminator) {
        self.terminator = terminator
    }

    func setBeforeForceExit(_ hook: (@MainActor () -> Void)?, budgetNanoseconds: Int64) {
        beforeForceExit = hook
        budget = budgetNanoseconds
    }

    /// Starts the watchdog that ends the app from its own thread once the before-exit budget is
    /// spent; the app code until the exit (outcome handler, hook) shares it.
    func armWatchdog(code: Int32) {
        let terminator = self.terminator
        watchdog = ExitWatchdog(budgetNanoseconds: budget) {
            terminator.terminateFromAnyThread(code: code)
        }
    }

    func exit(code: Int32) {
        let watchdog = self.watchdog
        self.watchdog = nil
        beforeForceExit?()
        // Too late: the watchdog has ended the app (or, in a simulation, recorded it).
        if let watchdog, !watchdog.disarm() { return }
        terminator.terminate(code: code)
    }
}

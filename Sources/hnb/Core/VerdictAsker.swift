// The verifier's question (rule 23): asked when the engine says so, with its own budget timer,
// which never touches the wake-up, so nothing the verifier does can move a countdown.

/// Asks the app's call verifier and times the question's budget.
@MainActor
final class VerdictAsker {
    private let scheduler: any MonitorScheduler
    /// Hands the budget's end to the core on the main actor.
    private let deliver: @MainActor (MonitorEngine.Input) -> Void
    /// Hands the answer to the core from whatever thread the verifier answers on.
    private let post: @Sendable (MonitorEngine.Input) -> Void
    /// The app's call verifier, asked when the engine says so.
    var verifier: (any CallVerifying)?
    /// The budget timer of the question in flight.
    private var budget: (any ScheduledWork)?

    nonisolated init(
        scheduler: any MonitorScheduler, deliver: @escaping @MainActor (MonitorEngine.Input) -> Void,
        post: @escaping @Sendable (MonitorEngine.Input) -> Void
    ) {
        self.scheduler = scheduler
        self.deliver = deliver
        self.post = post
    }

    /// Asks question `request`, replacing any in flight, and reports its budget's end at
    /// `budgetEndsAt`.
    func ask(request: UInt64, budgetEndsAt: Int64) {
        budget?.cancel()
        let deliver = self.deliver
        budget = scheduler.schedule(at: budgetEndsAt) {
            deliver(.verdictBudgetExpired(request: request))
        }
        let post = self.post
        verifier?.ask { verdict in
            post(.verdictArrived(request: request, verdict))
        }
    }

    /// Drops the budget timer of the question in flight.
    func cancel() {
        budget?.cancel()
        budget = nil
    }
}

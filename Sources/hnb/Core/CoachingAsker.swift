// The coaching source's questions (rules 31 and 33): asked when the engine says so, each with its
// own budget timer (several protections can be asked about at once), and each reported once to
// the source that was asked. Decides nothing: the engine says when to ask and what to report.

/// A coaching source as the core asks it: the app's closure (``CallMonitor/setCoachingSource(_:report:)``),
/// its Objective-C block, the simulator's, or a source of another product (the Trust Insights
/// adapter, to come: hence `package`). Asked and told on the main thread, like `CallVerifying`.
@MainActor
package protocol CoachingSourcing: AnyObject, Sendable {
    /// Which kind of source this is (the engine records it); read on any thread.
    nonisolated var kind: CallMonitor.CoachingSource { get }
    /// Asks `question`; must not block: the work runs elsewhere, and `answer` may be called from
    /// any thread, any number of times (the engine counts the first one within the budget).
    func ask(_ question: CallMonitor.CoachingQuestion, answer: @escaping @Sendable (CallMonitor.CoachingAnswer) -> Void)
    /// The status the engine decided for `question` (rule 33), once.
    func report(_ question: CallMonitor.CoachingQuestion, _ status: CallMonitor.CoachingConsumption)
    /// The same report, with the id of the outcome whose coaching record holds the answer
    /// (issue 40, "Evidence"), `nil` when no outcome does. The asker calls this one; a source
    /// that has no use for the id keeps the default, which forwards to ``report(_:_:)``.
    func report(_ question: CallMonitor.CoachingQuestion, _ status: CallMonitor.CoachingConsumption, outcomeID: UInt64?)
}

extension CoachingSourcing {
    package func report(_ question: CallMonitor.CoachingQuestion, _ status: CallMonitor.CoachingConsumption, outcomeID: UInt64?) {
        report(question, status)
    }
}

/// Asks the coaching source and times each question's budget.
@MainActor
final class CoachingAsker {
    /// A question asked and not yet reported.
    private struct InFlight {
        let question: CallMonitor.CoachingQuestion
        /// The source asked; the report goes to it even when the app set another since.
        let source: (any CoachingSourcing)?
        let budget: any ScheduledWork
    }

    private let scheduler: any MonitorScheduler
    /// Hands the budget's end to the core on the main actor.
    private let deliver: @MainActor (MonitorEngine.Input) -> Void
    /// Hands an answer to the core from whatever thread the source answers on.
    private let post: @Sendable (MonitorEngine.Input) -> Void
    /// The source set by the facade, from any thread; read when a question is asked.
    nonisolated let source = Locked<(any CoachingSourcing)?>(nil)
    private var inFlight: [UInt64: InFlight] = [:]
    /// The outcome whose record holds each answer, once the engine says so (issue 40). Apart
    /// from `inFlight` so no change writes a question in place: a dictionary's in-place write of
    /// a value this large compiles to a coroutine whose frame needs `swift_coroFrameAlloc`, a
    /// Swift 6.2 runtime function that the iOS 17 SDK's stubs do not have.
    private var outcomes: [UInt64: UInt64] = [:]

    nonisolated init(
        scheduler: any MonitorScheduler, deliver: @escaping @MainActor (MonitorEngine.Input) -> Void,
        post: @escaping @Sendable (MonitorEngine.Input) -> Void
    ) {
        self.scheduler = scheduler
        self.deliver = deliver
        self.post = post
    }

    /// Asks `question` and reports its budget's end at `budgetEndsAt`.
    func ask(_ question: CallMonitor.CoachingQuestion, budgetEndsAt: Int64) {
        let request = question.id
        let deliver = self.deliver
        let budget = scheduler.schedule(at: budgetEndsAt) {
            deliver(.coachingBudgetExpired(request: request))
        }
        let source = self.source.value
        inFlight[request] = InFlight(question: question, source: source, budget: budget)
        let post = self.post
        source?.ask(question) { answer in
            post(.coachingAnswered(request: request, answer))
        }
    }

    /// Question `request`'s answer is in the record of outcome `outcome` (issue 40): its report names it.
    func recorded(request: UInt64, inOutcome outcome: UInt64) {
        guard inFlight[request] != nil else { return }
        outcomes[request] = outcome
    }

    /// Question `request` is decided: its timer goes, and the source asked hears `status`.
    func report(request: UInt64, _ status: CallMonitor.CoachingConsumption) {
        guard let flight = inFlight.removeValue(forKey: request) else { return }
        let outcome = outcomes.removeValue(forKey: request)
        flight.budget.cancel()
        flight.source?.report(flight.question, status, outcomeID: outcome)
    }
}

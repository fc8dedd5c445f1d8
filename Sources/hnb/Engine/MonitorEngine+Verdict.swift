// The bank's verdict on the call (issue 22; rules 23 and 24 of the behaviour contract): when to
// ask the app's verifier, which answer counts, and what the event records. Pure, like the rest of
// the engine.
//
// The verdict belongs to the event on screen (MonitorEngine+Event.swift: its verdict, whether it was
// asked about, whether a call joined), and the verifier's question to the state here, which names
// the event it is about. Neither is read by the countdown, the exit, the acknowledgement or any
// ending, which are decided in MonitorEngine.swift and MonitorEngine+Guards.swift without looking
// at them; the only actions this file adds are `ask`, `cancelAsk` and `verdict`, which the core
// carries out without touching the wake-up, the UI's countdown or the sources. So no verdict,
// early, late, twice or never, can change a timing or an ending.

extension MonitorEngine {
    /// The budget a question has unless the app sets another: 3 s.
    static let defaultVerdictBudget: Int64 = 3 * second

    /// The verifier and its question (rule 23). Every field is read-only outside this type and
    /// changed by the methods below, so a request number is never handed out twice and at most
    /// one question is open.
    struct VerdictState: Sendable {
        /// A question waiting for its answer: only its first answer counts.
        struct Question: Sendable {
            let request: UInt64
            /// The ``Event/id`` of the event it is about.
            let event: UInt64
        }

        /// Whether the app set a verifier; without one nothing is asked.
        private(set) var isVerifierSet = false
        /// How long a question may take, in nanoseconds: the code's or the document's, each
        /// clamped before it reaches the engine (`CallMonitor.verifierBudgetSeconds(clamping:)`).
        private(set) var budget: Int64 = MonitorEngine.defaultVerdictBudget
        /// The last request number handed out; each question gets the next one.
        private(set) var lastRequest: UInt64 = 0
        /// The question waiting for its answer, if any.
        private(set) var open: Question?

        /// The app set (`true`) or removed its verifier; an open question stays open until the
        /// caller closes it.
        mutating func setVerifier(isSet: Bool) {
            isVerifierSet = isSet
        }

        /// The budget of the next question (an open one keeps its own timer).
        mutating func setBudget(_ nanoseconds: Int64) {
            budget = nanoseconds
        }

        /// A new question about `event`, which replaces any open one.
        mutating func ask(about event: UInt64) -> UInt64 {
            lastRequest &+= 1
            open = Question(request: lastRequest, event: event)
            return lastRequest
        }

        /// Closes the open question; returns whether one was open (its budget timer then goes).
        mutating func close() -> Bool {
            guard open != nil else { return false }
            open = nil
            return true
        }
    }

    // MARK: Inputs

    /// Rule 23: the verifier was set or removed. Removing it closes the open question (its answer
    /// is then ignored); setting it during an event that was never asked about asks now, at the end
    /// of the step.
    mutating func setVerifier(isSet: Bool, into actions: inout [Action]) {
        verdicts.setVerifier(isSet: isSet)
        if !isSet, verdicts.close() { actions.append(.cancelAsk) }
    }

    /// Rule 23: an answer. Only the first answer to the open question counts; a late one (after
    /// the budget), a second one, or one to an earlier question is ignored. Recording it emits
    /// `verdict` and nothing else: no timer, no UI countdown, no ending is touched.
    mutating func verdictArrived(request: UInt64, _ verdict: CallMonitorCallVerdict, now: Int64, into actions: inout [Action]) {
        guard isOpen(request) else { return }
        actions.append(.cancelAsk)
        record(verdict, now: now, into: &actions)
    }

    /// Rule 23: the open question's budget ran out: its verdict is `unknown`, and an answer after
    /// this is ignored.
    mutating func verdictBudgetExpired(request: UInt64, now: Int64, into actions: inout [Action]) {
        guard isOpen(request) else { return }
        record(.unknown, now: now, into: &actions)
    }

    /// Whether `request` is the open question, about the event on screen.
    private func isOpen(_ request: UInt64) -> Bool {
        guard let open = verdicts.open, let shownEvent else { return false }
        return open.request == request && open.event == shownEvent.id
    }

    private mutating func record(_ verdict: CallMonitorCallVerdict, now: Int64, into actions: inout [Action]) {
        _ = verdicts.close()
        let previous = shownEventPart({ $0.verdict }) ?? .unknown
        changeShownEvent { $0?.record(verdict, at: now) }
        // Rule 24: the surface on screen shows it (the dialog's line, the verdict delegate).
        actions.append(scene(.verdict(previous: previous)))
    }

    // MARK: After every step

    /// Rule 23: runs at the end of every step, after the step's own actions, so an `ask` always
    /// comes after the presentation, the wake-up and any exit it follows, never before or in
    /// between. A new event starts afresh and asks; a call that joined the session while an event
    /// is on screen asks again (the verdict shown stays until the new answer or the budget's end);
    /// an event that ended, or an exit, closes the open question.
    mutating func followVerdict(now: Int64, into actions: inout [Action]) {
        // The three fields this step reads of the event on screen (shown only while on), not a
        // copy of it. Rule 32: a coaching warning has no call to ask about.
        let event = shownEventPart { event in
            event.isCoachingWarning ? nil : (id: event.id, callJoined: event.callJoined, asked: event.asked)
        } ?? nil
        // A question about an event that is over (ended, replaced, or the exit) is closed; a new
        // event asks its own.
        if let open = verdicts.open, open.event != event?.id {
            _ = verdicts.close()
            actions.append(.cancelAsk)
        }
        guard let event else { return }
        let joined = event.callJoined
        // Only when there is a join to clear: a change of the event costs a copy of the session.
        if joined { changeShownEvent { $0?.stepEnded() } }
        guard verdicts.isVerifierSet, !event.asked || joined else { return }
        changeShownEvent { $0?.askedVerifier() }
        let request = verdicts.ask(about: event.id)
        actions.append(.ask(request: request, budgetEndsAt: Self.deadline(now, plusNanoseconds: verdicts.budget)))
    }

    /// `start + nanoseconds`, saturating.
    static func deadline(_ start: Int64, plusNanoseconds nanoseconds: Int64) -> Int64 {
        let (sum, overflow) = start.addingReportingOverflow(nanoseconds)
        return overflow ? .max : sum
    }

    /// Rule 23: a call joined the session; the event on screen, if any, asks the verifier again.
    mutating func callJoined() {
        changeShownEvent { $0?.noteCallJoined() }
    }
}

#if DEBUG
// Equality that only the tests use, left out of release builds (CONTRIBUTING, "Binary size").
extension MonitorEngine.VerdictState: Equatable {}
extension MonitorEngine.VerdictState.Question: Equatable {}
#endif

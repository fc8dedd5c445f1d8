// The bank's verdict on the call (issue 22; rules 23 and 24 of the behaviour contract): when to
// ask the app's verifier, which answer counts, and what the event records. Pure, like the rest of
// the engine.
//
// This state sits beside the event and its timers and is never read by them: the countdown, the
// exit, the acknowledgement and every ending are decided in MonitorEngine.swift and
// MonitorEngine+Guards.swift without looking here. The only things this file reads of theirs are
// two counters they bump (events begun, calls joined) and whether an event is on screen; the only
// actions it adds are `ask`, `cancelAsk` and `verdict`, which the core carries out without touching
// the wake-up, the UI's countdown or the sources. So no verdict, early, late, twice or never, can
// change a timing or an ending.

extension MonitorEngine {
    /// The budget a question has unless the app sets another: 3 s.
    static let defaultVerdictBudget: Int64 = 3 * second

    /// What the engine knows of the verdict of the event on screen (rule 23).
    struct VerdictState: Equatable, Sendable {
        /// Whether the app set a verifier; without one nothing is asked.
        var isVerifierSet = false
        /// How long a question may take, in nanoseconds (already clamped by the facade).
        var budget: Int64 = MonitorEngine.defaultVerdictBudget
        /// The last request number handed out; each question gets the next one.
        var lastRequest: UInt64 = 0
        /// The question waiting for its answer, if any: only its first answer counts.
        var open: UInt64?
        /// The event's verdict: the first answer to its latest question, or `unknown`.
        var verdict: CallMonitorCallVerdict = .unknown
        /// When that verdict was recorded (an answer, or the budget running out); `nil` while none was.
        var recordedAt: Int64?
        /// The value of ``MonitorEngine/eventsBegun`` the state belongs to; another value means a
        /// new event began and the state starts afresh.
        var event: UInt64 = 0
        /// Whether the verifier was asked about this event.
        var askedForEvent = false
        /// The value of ``MonitorEngine/callsJoined`` last seen: a higher one means a call joined.
        var callsSeen: UInt64 = 0
    }

    // MARK: Inputs

    /// Rule 23: the verifier was set or removed. Removing it closes the open question (its answer
    /// is then ignored); setting it during an event that was never asked about asks now, at the end
    /// of the step.
    mutating func setVerifier(isSet: Bool, into actions: inout [Action]) {
        verdicts.isVerifierSet = isSet
        if !isSet, verdicts.open != nil {
            verdicts.open = nil
            actions.append(.cancelAsk)
        }
    }

    /// Rule 23: an answer. Only the first answer to the open question counts; a late one (after
    /// the budget), a second one, or one to an earlier question is ignored. Recording it emits
    /// `verdict` and nothing else: no timer, no UI countdown, no ending is touched.
    mutating func verdictArrived(request: UInt64, _ verdict: CallMonitorCallVerdict, now: Int64, into actions: inout [Action]) {
        guard request == verdicts.open, shownEvent != nil else { return }
        actions.append(.cancelAsk)
        record(verdict, now: now, into: &actions)
    }

    /// Rule 23: the open question's budget ran out: its verdict is `unknown`, and an answer after
    /// this is ignored.
    mutating func verdictBudgetExpired(request: UInt64, now: Int64, into actions: inout [Action]) {
        guard request == verdicts.open, shownEvent != nil else { return }
        record(.unknown, now: now, into: &actions)
    }

    private mutating func record(_ verdict: CallMonitorCallVerdict, now: Int64, into actions: inout [Action]) {
        verdicts.open = nil
        verdicts.verdict = verdict
        verdicts.recordedAt = now
        // Rule 24: the surface on screen shows it (the dialog's line, the verdict delegate).
        actions.append(.verdict(verdict, on: shownSurface))
    }

    // MARK: After every step

    /// Rule 23: runs at the end of every step, after the step's own actions, so an `ask` always
    /// comes after the presentation, the wake-up and any exit it follows, never before or in
    /// between. A new event starts afresh and asks; a call that joined the session while an event
    /// is on screen asks again (the verdict shown stays until the new answer or the budget's end);
    /// an event that ended, or an exit, closes the open question.
    mutating func followVerdict(now: Int64, into actions: inout [Action]) {
        let onScreen = phase == .on && shownEvent != nil
        if verdicts.event != eventsBegun {
            verdicts.event = eventsBegun
            if verdicts.open != nil {
                // The question was about the event that ended; the new one asks its own.
                verdicts.open = nil
                actions.append(.cancelAsk)
            }
            verdicts.verdict = .unknown
            verdicts.recordedAt = nil
            verdicts.askedForEvent = false
        }
        let joined = callsJoined != verdicts.callsSeen
        verdicts.callsSeen = callsJoined
        guard onScreen else {
            if verdicts.open != nil {
                verdicts.open = nil
                actions.append(.cancelAsk)
            }
            return
        }
        guard verdicts.isVerifierSet, !verdicts.askedForEvent || joined else { return }
        verdicts.askedForEvent = true
        verdicts.lastRequest &+= 1
        verdicts.open = verdicts.lastRequest
        actions.append(.ask(request: verdicts.lastRequest, budgetEndsAt: Self.deadline(now, plusNanoseconds: verdicts.budget)))
    }

    /// `start + nanoseconds`, saturating.
    static func deadline(_ start: Int64, plusNanoseconds nanoseconds: Int64) -> Int64 {
        let (sum, overflow) = start.addingReportingOverflow(nanoseconds)
        return overflow ? .max : sum
    }
}

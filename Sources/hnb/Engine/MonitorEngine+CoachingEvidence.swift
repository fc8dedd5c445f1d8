// Coaching answers as evidence (issue 40, "Evidence"): which outcome records a coaching answer,
// and the one action that tells the core so. Kept apart from the coaching rules
// (MonitorEngine+Coaching.swift): it decides nothing the person sees, only what is written down.
//
// The rule, deterministic and decided where the status is: an answer whose status is decided
// while an event is on screen (read while the event was shown, or read and then beginning or
// strengthening it, which is the same step) is recorded in that event, with that status. A status
// is decided when the answer is read, except for an answer that waits for the app's return; that
// one is recorded when its warning begins, in the warning's event. Everything else (a late or
// missing answer, a protection that ended first, an answer read while no event was shown, such as
// an evaluate-only answer with no call live) is in no outcome: nothing of it was on screen.

extension MonitorEngine {
    /// Records `answer` to `question`, decided `status` at `now`, in the event on screen, and
    /// tells the core which outcome it belongs to; nothing when no event is shown.
    mutating func recordEvidence(
        _ question: CoachingState.Question, _ answer: CallMonitor.CoachingAnswer, _ status: CallMonitor.CoachingConsumption,
        now: Int64, into actions: inout [Action]
    ) {
        let evaluation = CallMonitorOutcome.CoachingEvaluation(
            questionID: question.request, at: now, level: answer.level, source: question.source,
            evaluationID: answer.evaluationID, modelVersion: answer.modelVersion, operationID: question.operationID,
            consumption: status
        )
        let outcome: UInt64? = changeShownEvent { event in
            event?.recordCoaching(evaluation)
            return event?.id
        }
        guard let outcome else { return }
        actions.append(.coachingInOutcome(request: question.request, outcome: outcome))
    }
}

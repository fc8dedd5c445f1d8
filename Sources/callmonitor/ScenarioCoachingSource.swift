// The simulator's coaching source (issue 40; rules 31 and 33): it writes each question and each
// consumption report into the transcript, and answers a question where a `coaching answer N
// LEVEL` line says, so an answer within the budget, a late one, a second one and a failure are
// all written as scenarios. A recording's replay uses it too: the recorder writes each answer the
// device's source gave as such a line, at the instant the engine took it (rule 30), as a
// recording's verifier answers (RecordedVerifier.swift).

import hnb

@MainActor
final class ScenarioCoachingSource: CoachingSourcing {
    nonisolated let kind = CallMonitor.CoachingSource.app
    private let transcript: Transcript
    /// The answer closures of the questions asked so far, in order (question 1 first), whatever
    /// kind the source reported itself as: a recording numbers them the same way.
    private var questions: [@Sendable (CallMonitor.CoachingAnswer) -> Void] = []

    init(transcript: Transcript) { self.transcript = transcript }

    /// This source, reporting itself as `kind` to the monitor (`coaching source trustInsights`:
    /// the engine records which kind answered). Questions and answers stay this source's.
    func reporting(as kind: CallMonitor.CoachingSource) -> any CoachingSourcing {
        kind == self.kind ? self : Kinded(kind: kind, source: self)
    }

    func ask(_ question: CallMonitor.CoachingQuestion, answer: @escaping @Sendable (CallMonitor.CoachingAnswer) -> Void) {
        questions.append(answer)
        transcript.record("coaching") {
            $0.add("asked", Int(question.id))
            $0.add("category", question.operationCategory.rawValue)
            $0.add("protection", question.protectionName)
        }
    }

    func report(_ question: CallMonitor.CoachingQuestion, _ status: CallMonitor.CoachingConsumption) {
        report(question, status, outcomeID: nil)
    }

    /// The report's line names the outcome whose coaching record holds the answer (issue 40), as
    /// the Trust Insights evidence does; a report no outcome records has no `outcome` key.
    func report(_ question: CallMonitor.CoachingQuestion, _ status: CallMonitor.CoachingConsumption, outcomeID: UInt64?) {
        transcript.record("coaching") {
            $0.add("report", Int(question.id))
            $0.add("status", status.description)
            if let outcomeID { $0.add("outcome", Int(truncatingIfNeeded: outcomeID)) }
        }
    }

    /// Gives question `question` (from 1) `answer` now; a question not asked (or, in a replay,
    /// one the replay did not ask: it went another way, and `replay --check` shows where) gets
    /// nothing.
    func answer(question: Int, with answer: CallMonitor.CoachingAnswer) {
        guard question >= 1, question <= questions.count else { return }
        questions[question - 1](answer)
    }

    /// The same source under another kind.
    private final class Kinded: CoachingSourcing {
        nonisolated let kind: CallMonitor.CoachingSource
        private let source: ScenarioCoachingSource

        init(kind: CallMonitor.CoachingSource, source: ScenarioCoachingSource) {
            self.kind = kind
            self.source = source
        }

        func ask(_ question: CallMonitor.CoachingQuestion, answer: @escaping @Sendable (CallMonitor.CoachingAnswer) -> Void) {
            source.ask(question, answer: answer)
        }

        func report(_ question: CallMonitor.CoachingQuestion, _ status: CallMonitor.CoachingConsumption) {
            source.report(question, status)
        }
    }
}

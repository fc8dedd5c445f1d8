// The simulator's coaching source (issue 40; rules 31 and 33): it writes each question and each
// consumption report into the transcript, and answers a question where a `coaching answer N
// LEVEL` line says, so an answer within the budget, a late one, a second one and a failure are
// all written as scenarios.

import hnb

@MainActor
final class ScenarioCoachingSource: CoachingSourcing {
    nonisolated let kind = CallMonitor.CoachingSource.app
    private let transcript: Transcript
    /// The answer closures of the questions asked so far, in order (question 1 first).
    private var questions: [@Sendable (CallMonitor.CoachingAnswer) -> Void] = []

    init(transcript: Transcript) { self.transcript = transcript }

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

    /// Gives question `question` (from 1) `level` now, or the failed answer for `nil`; a question
    /// not asked gets nothing.
    func answer(question: Int, with level: CallMonitor.CoachingLevel?) {
        guard question >= 1, question <= questions.count else { return }
        questions[question - 1](level.map { CallMonitor.CoachingAnswer(level: $0) } ?? .unavailable)
    }
}

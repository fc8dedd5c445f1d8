// The verifier of a replayed recording (`verdict recorded`): it keeps each question and answers
// it where the file's `verdict answer N VERDICT` line says the device's verifier did, so a
// recorded verdict replays in its place among everything else, also after a suspension.

import hnb

@MainActor
final class RecordedVerifier: CallVerifying {
    /// The answer closures of the questions asked so far, in order (question 1 first).
    private var questions: [@Sendable (CallMonitorCallVerdict) -> Void] = []

    nonisolated init() {}

    func ask(_ answer: @escaping @Sendable (CallMonitorCallVerdict) -> Void) {
        questions.append(answer)
    }

    /// Gives question `question` (from 1) the answer `verdict` now; a question not asked (the
    /// replay went another way) gets nothing, and `replay --check` shows the difference.
    func answer(question: Int, with verdict: CallMonitorCallVerdict) {
        guard question >= 1, question <= questions.count else { return }
        questions[question - 1](verdict)
    }
}

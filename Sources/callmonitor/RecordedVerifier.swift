// The verifier of a replayed recording (`verdict recorded`): it answers each question when the
// file says the device's verifier did, so a recorded verdict replays at its instant and in its
// place among the work due then (scheduled when the question is asked, as the answer of a
// verifier that takes that long would be).

import hnb
import hnbTesting

@MainActor
final class RecordedVerifier: CallVerifying {
    private let scheduler: ManualScheduler
    /// The file's answers, by question (1, 2, …): each verdict with the instant it came.
    private var answers: [Int: [(time: Int64, verdict: CallMonitorCallVerdict)]] = [:]
    private var asked = 0

    nonisolated init(scheduler: ManualScheduler) { self.scheduler = scheduler }

    /// Takes the `verdict answer` lines of `steps`.
    func load(_ steps: [ScenarioStep]) {
        answers = [:]
        for step in steps {
            if case .verdictAnswer(let question, let verdict) = step.command { answers[question, default: []].append((step.time, verdict)) }
        }
    }

    func ask(_ answer: @escaping @Sendable (CallMonitorCallVerdict) -> Void) {
        asked += 1
        for (time, verdict) in answers[asked] ?? [] {
            if time <= scheduler.now {
                answer(verdict)
            } else {
                _ = scheduler.schedule(at: time) { answer(verdict) }
            }
        }
    }
}

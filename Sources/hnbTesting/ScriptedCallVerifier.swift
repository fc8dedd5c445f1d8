// A call verifier that answers on a virtual clock, as a script says: for tests, previews and
// `callmonitor simulate` (`verdict bank`, `verdict late 5`, `verdict never`, ...).

import Foundation
import hnb

/// A call verifier whose answers follow ``script``, on a ``ManualScheduler``'s clock; set it with
/// ``hnb/CallMonitor/setCallVerifier(using:)``.
///
/// ```swift
/// let verifier = ScriptedCallVerifier(scheduler: scheduler)
/// verifier.script = [.init(.bankIsNotCalling, afterSeconds: 1)]
/// monitor.setCallVerifier(using: verifier)
/// ```
public final class ScriptedCallVerifier: CallVerifying {
    /// One answer to a question: a verdict and how long after the question it comes.
    public struct Answer: Equatable, Sendable {
        /// The verdict given.
        public var verdict: CallMonitorCallVerdict
        /// Seconds after the question; 0 answers at once, from inside ``ask(_:)``.
        public var afterSeconds: Double

        /// An answer `afterSeconds` after the question.
        public init(_ verdict: CallMonitorCallVerdict, afterSeconds: Double = 0) {
            self.verdict = verdict
            self.afterSeconds = afterSeconds
        }
    }

    private let scheduler: ManualScheduler
    /// The answers every following question gets, in order: one for a plain answer, two to
    /// answer twice, none to never answer.
    public var script: [Answer]
    /// How many questions were asked so far.
    public private(set) var asks = 0
    /// How many delayed answers are scheduled and not given yet (work of this double, not of the
    /// monitor, for a test that checks what is left scheduled).
    public private(set) var pendingAnswers = 0

    /// A verifier on `scheduler`'s clock that answers every question with `script`.
    public init(scheduler: ManualScheduler, script: [Answer] = []) {
        self.scheduler = scheduler
        self.script = script
    }

    /// Answers as ``script`` says: at once for an answer due now, else when `scheduler` reaches it.
    package func ask(_ answer: @escaping @Sendable (CallMonitorCallVerdict) -> Void) {
        asks += 1
        for reply in script {
            if reply.afterSeconds <= 0 {
                answer(reply.verdict)
            } else {
                let deadline = scheduler.now &+ ManualScheduler.nanoseconds(reply.afterSeconds)
                pendingAnswers += 1
                // Weakly: the scheduler keeps this work and the verifier keeps the scheduler, so
                // a strong capture is a cycle that leaks both whenever an answer is still due
                // when its owner lets go (a scenario that ends first; the scenario fuzz target
                // found it). The answer itself is given either way, as a real backend would.
                _ = scheduler.schedule(at: deadline) { [weak self] in
                    self?.pendingAnswers -= 1
                    answer(reply.verdict)
                }
            }
        }
    }
}

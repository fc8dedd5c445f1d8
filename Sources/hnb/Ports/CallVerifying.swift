// The port behind "how to ask" the app's call verifier (rule 23): the live one runs the app's
// closure off the main thread; a scripted one (hnbTesting's `ScriptedCallVerifier`) answers on a
// virtual clock.

/// Asks the bank whether it is calling the user, once per call of ``ask(_:)``.
///
/// ``CallMonitor/setCallVerifier(_:)`` wraps an
/// `async` closure in one of these; set your own with ``CallMonitor/setCallVerifier(using:)``.
///
/// > Important: ``ask(_:)`` is called on the main thread and must return at once: start the work
/// > elsewhere. `answer` may be called from any thread, once, twice or never; the monitor keeps
/// > the first answer within its budget and ignores the rest (rule 23).
@MainActor
package protocol CallVerifying: AnyObject, Sendable {
    /// Starts one question; reports the verdict through `answer`.
    ///
    /// - Parameter answer: Receives the verdict, from any thread.
    func ask(_ answer: @escaping @Sendable (CallMonitorCallVerdict) -> Void)
}

/// The app's `async` verifier, run in a task of its own for each question, off the main thread.
final class AsyncCallVerifier: CallVerifying {
    private let verifier: @Sendable () async -> CallMonitorCallVerdict

    nonisolated init(_ verifier: @escaping @Sendable () async -> CallMonitorCallVerdict) {
        self.verifier = verifier
    }

    func ask(_ answer: @escaping @Sendable (CallMonitorCallVerdict) -> Void) {
        let verifier = self.verifier
        // Detached: the app's closure must not run on the main actor (it may block), and nothing
        // waits for it; a closure that never returns only keeps its own task.
        Task.detached {
            answer(await verifier())
        }
    }
}

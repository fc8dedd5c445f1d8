// "Is my bank calling me?": the app's call verifier and its budget (issue 22; rules 23 and 24).
// Not in the reference. The facade only forwards: every decision is the engine's
// (Engine/MonitorEngine+Verdict.swift).

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation

extension CallMonitor {
    /// The budget a verifier has when none is set: 3 seconds.
    public static let defaultCallVerifierBudget: Double = 3
    /// The range ``setCallVerifierBudget(_:)`` clamps to: 0.1 to 30 seconds.
    public static let callVerifierBudgetRange: ClosedRange<Double> = 0.1...30

    /// Sets the closure that asks the bank's backend whether one of its agents is on a call with
    /// the user now, or removes it with `nil`. Not in the reference.
    ///
    /// The monitor asks once when a security event begins, and again when a new call joins the
    /// live session during it, off the main thread. The first answer within the budget
    /// (``setCallVerifierBudget(_:)``, 3 seconds by default) is the event's verdict; no answer in
    /// time is ``CallMonitorCallVerdict/unknown``, and a later or second answer is ignored. The
    /// built-in dialog shows it as one more line, a ``CallMonitorVerdictDelegate`` is told, and
    /// ``currentSecurityEvent``, ``CallMonitorState`` and the event's ``CallMonitorOutcome``
    /// carry it.
    ///
    /// ```swift
    /// // The app's code: its own backend, its own session.
    /// CallMonitor.sharedInstance().setCallVerifier {
    ///     var request = URLRequest(url: URL(string: "https://api.example-bank.com/v1/call-status")!)
    ///     request.setValue("Bearer \(await Session.current.token)", forHTTPHeaderField: "Authorization")
    ///     guard let (data, _) = try? await URLSession.shared.data(for: request) else { return .unknown }
    ///     switch String(decoding: data, as: UTF8.self) {
    ///     case "agent-on-call": return .bankIsCalling
    ///     case "no-agent-on-call": return .bankIsNotCalling
    ///     default: return .unknown
    ///     }
    /// }
    /// ```
    ///
    /// > Important: The verdict never relaxes the policy (rule 23): whatever it says and whenever
    /// > it comes, no exit is skipped or delayed, no acknowledgement comes earlier and no event
    /// > ends. A verifier that hangs or answers twice changes no timing. On iOS nobody can tell
    /// > which of two live calls is the bank's: "the bank is calling" does not make the other
    /// > call safe.
    ///
    /// - Parameter verifier: Asks the backend; runs in a task of its own for each question, never
    ///   on the main actor. `nil` stops asking (a question in flight is then ignored).
    public func setCallVerifier(_ verifier: (@Sendable () async -> CallMonitorCallVerdict)?) {
        setCallVerifier(using: verifier.map { AsyncCallVerifier($0) })
    }

    /// Sets a verifier object, or removes it with `nil`: for the package's tests and simulator,
    /// which answer on a virtual clock (hnbTesting's `ScriptedCallVerifier`; an app's tests set
    /// that one through hnbTesting's public `setCallVerifier(using:)`). The rules are those of
    /// ``setCallVerifier(_:)``.
    ///
    /// - Parameter verifier: Asked on the main thread; answers from any thread.
    package func setCallVerifier(using verifier: (any CallVerifying)?) {
        send(.setCallVerifier(verifier.map(VerifierBox.init)))
    }

    /// Sets how long the verifier may take to answer, in seconds: 3 by default, clamped to
    /// ``callVerifierBudgetRange`` (0.1 to 30); NaN means the default. Takes effect from the
    /// next question. Not in the reference.
    ///
    /// - Parameter seconds: The budget; an answer after it is ignored and the verdict is
    ///   ``CallMonitorCallVerdict/unknown``.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(setCallVerifierBudget:)
    #endif
    public func setCallVerifierBudget(_ seconds: Double) {
        send(.verdictBudget(Self.verifierBudgetNanoseconds(clamping: seconds)))
    }

    /// Seconds as given to ``setCallVerifierBudget(_:)``, in nanoseconds, clamped to the range.
    static func verifierBudgetNanoseconds(clamping seconds: Double) -> Int64 {
        Int64((verifierBudgetSeconds(clamping: seconds) * 1e9).rounded())
    }

    /// The one clamp of a verifier budget, for ``setCallVerifierBudget(_:)`` and a policy
    /// document's `verifierBudget` alike, so a document can never clamp where the API does not:
    /// NaN is the default, anything else is held to ``callVerifierBudgetRange``.
    package static func verifierBudgetSeconds(clamping seconds: Double) -> Double {
        guard !seconds.isNaN else { return defaultCallVerifierBudget }
        return min(max(seconds, callVerifierBudgetRange.lowerBound), callVerifierBudgetRange.upperBound)
    }

    /// Tells `observer` of every verdict the monitor records, on the main thread: for the
    /// transcript of `callmonitor simulate`, which records it whatever surface shows the event.
    /// Package-only: apps adopt ``CallMonitorVerdictDelegate`` or read ``currentSecurityEvent``.
    @MainActor
    package func setVerdictObserver(_ observer: (@MainActor (CallMonitorCallVerdict) -> Void)?) {
        guard let observer else { return core.verdictObserver = nil }
        core.verdictObserver = { verdict, _ in observer(verdict) }
    }

    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    /// `-setCallVerifier:` for Objective-C: a block that receives a completion block, or `nil`.
    /// Swift code uses ``setCallVerifier(_:)``.
    ///
    /// ```objc
    /// [[CallMonitor sharedInstance] setCallVerifier:^(void (^completion)(CallMonitorCallVerdict)) {
    ///     [bankClient fetchCallStatus:^(BOOL agentOnCall, NSError *error) {
    ///         completion(error ? CallMonitorCallVerdictUnknown
    ///                          : agentOnCall ? CallMonitorCallVerdictBankIsCalling : CallMonitorCallVerdictBankIsNotCalling);
    ///     }];
    /// }];
    /// ```
    ///
    /// The block runs on a background queue, once per question; two questions can be out at once
    /// (a call that joins the event is asked about while the first answer is still coming), so
    /// the block may run on two threads at the same time. `completion` may be called from any
    /// thread; calling it twice or never is harmless (the first call within the budget counts),
    /// and a value outside the enum counts as unknown.
    @available(swift, obsoleted: 1, message: "use setCallVerifier(_:)")
    @objc(setCallVerifier:)
    public func objcSetCallVerifier(_ verifier: ((@escaping (CallMonitorCallVerdict) -> Void) -> Void)?) {
        setCallVerifier(using: verifier.map { CompletionCallVerifier(UncheckedVerifierBlock($0)) })
    }
    #endif
}

/// A verifier carried to the main thread, where alone it is asked. Sendable as it is:
/// ``CallVerifying`` is a main-actor protocol, and its conformers are Sendable.
package struct VerifierBox: Sendable {
    let verifier: any CallVerifying
}

/// An Objective-C verifier block. `@unchecked Sendable`: an Objective-C block carries no
/// isolation, and this one is called on a global queue, once per question, while questions can
/// overlap (a call that joins the event is asked about while the first answer is still out), so
/// the block may run on two threads at once. The API documents that, and the block only starts
/// the app's request: the monitor shares no state with it but the completion, which may be called
/// from any thread.
struct UncheckedVerifierBlock: @unchecked Sendable {
    let body: (@escaping (CallMonitorCallVerdict) -> Void) -> Void
    init(_ body: @escaping (@escaping (CallMonitorCallVerdict) -> Void) -> Void) { self.body = body }
}

/// The Objective-C verifier: its block is called on a background queue with a completion that may
/// be called any number of times from any thread.
final class CompletionCallVerifier: CallVerifying {
    private let block: UncheckedVerifierBlock

    nonisolated init(_ block: UncheckedVerifierBlock) { self.block = block }

    func ask(_ answer: @escaping @Sendable (CallMonitorCallVerdict) -> Void) {
        let block = self.block
        DispatchQueue.global(qos: .userInitiated).async {
            block.body { verdict in answer(CallMonitorCallVerdict(sanitizing: verdict.rawValue)) }
        }
    }
}

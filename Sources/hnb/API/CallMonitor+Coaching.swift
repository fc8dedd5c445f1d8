// Coaching signals (issue 40; rules 31 to 33): the app's coaching source, its budget and the
// coaching policy. Not in the reference. The facade only forwards: the source goes to the core's
// asker (Core/CoachingAsker.swift), every decision is the engine's (Engine/MonitorEngine+Coaching.swift).

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation

extension CallMonitor {
    /// Sets the app's own coaching source, or removes it with `nil`. Not in the reference.
    ///
    /// When a protection opens whose context's kind is not `general` (``CallMonitorContext``),
    /// whether or not a call is live, the monitor asks the source once, off the main thread, with
    /// the protection's name, kind, operation category and operation id. The first answer within
    /// the budget (``setCoachingBudget(_:)``, 3 seconds by default) counts; a later or second
    /// answer is ignored. What a `medium` or `high` answer does is the coaching policy's
    /// (``setCoachingPolicy(_:)``): by default an acknowledge warning, with a call live only when
    /// stricter than the call's policy, with no call live a warning the person can go on from.
    /// For each question `report` receives exactly once what became of it.
    ///
    /// ```swift
    /// monitor.setCoachingSource({ question in
    ///     // The app's fraud backend, asked about this operation.
    ///     guard let score = try? await FraudClient.shared.coachingScore(operation: question.operationID) else {
    ///         return .unavailable
    ///     }
    ///     return .init(level: score > 0.8 ? .high : score > 0.5 ? .medium : .unknown, evaluationID: score.id)
    /// }, report: { question, status in
    ///     FraudClient.shared.record(question.operationID, status)
    /// })
    /// ```
    ///
    /// > Important: A coaching answer never relaxes the policy (rule 32): it never shortens a
    /// > countdown, never turns terminate into acknowledge, never removes a warning, and with no
    /// > call live it never exits. ``CoachingLevel/unknown``, a failure and no answer change
    /// > nothing. Apple's Trust Insights source is the `hnbTrustInsights` product's
    /// > `useTrustInsights(evidence:)`.
    ///
    /// - Parameters:
    ///   - source: Asks the app's backend; runs in a task of its own for each question, never on
    ///     the main actor. `nil` stops asking (questions in flight are reported as
    ///     ``CoachingConsumption/notUsedError``).
    ///   - report: Receives each question's status (rule 33), on the main thread, once per question.
    public func setCoachingSource(
        _ source: (@Sendable (CoachingQuestion) async -> CoachingAnswer)?,
        report: (@MainActor @Sendable (CoachingQuestion, CoachingConsumption) -> Void)? = nil
    ) {
        setCoachingSource(using: source.map { ClosureCoachingSource($0, report: report) })
    }

    /// Sets a coaching source object, or removes it with `nil`: the one path every source takes
    /// (the simulator's too, hence `package`).
    package func setCoachingSource(using source: (any CoachingSourcing)?) {
        core.coaching.source.set(source)
        send(.coachingSource(source?.kind))
    }

    /// Sets what a `medium` and a `high` coaching answer do to a protection (rule 32): by default
    /// an acknowledge warning of 5 and of 10 seconds. Takes effect from the next answer. Not in the
    /// reference.
    ///
    /// - Parameter policy: The responses; acknowledge seconds below 0 count as 0. With both levels
    ///   `off` nothing is asked.
    public func setCoachingPolicy(_ policy: CoachingPolicy) {
        send(.coachingPolicy(policy))
    }

    /// Sets how long the coaching source may take to answer, in seconds: 3 by default, clamped to
    /// ``callVerifierBudgetRange`` (0.1 to 30) as the verifier's budget is; NaN means the
    /// default. Takes effect from the next question. Not in the reference.
    ///
    /// - Parameter seconds: The budget; an answer after it is ignored and the question is
    ///   reported as ``CoachingConsumption/notUsedError``.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(setCoachingBudget:)
    #endif
    public func setCoachingBudget(_ seconds: Double) {
        send(.coachingBudget(Self.verifierBudgetNanoseconds(clamping: seconds)))
    }

    /// The kind of a ``CoachingResponse``, for Objective-C, which cannot see an enum with
    /// associated values: `-setCoachingPolicyMedium:mediumSeconds:high:highSeconds:` takes one per
    /// level. The raw values are part of the Objective-C ABI and never change.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(CallMonitorCoachingResponseKind)
    #endif
    public enum CoachingResponseKind: Int, Sendable, CaseIterable {
        /// ``CoachingResponse/off``.
        case off = 0
        /// ``CoachingResponse/evaluate``.
        case evaluate = 1
        /// ``CoachingResponse/acknowledge(seconds:)``, with the seconds given beside it.
        case acknowledge = 2
    }

    /// The response an Objective-C kind's raw value and seconds name. A raw value outside the
    /// enum is an acknowledge warning: bad input from Objective-C gets the strictest response a
    /// coaching answer can have, never a weaker one and never a crash. Takes the raw value so that
    /// the mapping is tested on Linux.
    static func coachingResponse(rawKind: Int, seconds: CInt) -> CoachingResponse {
        switch CoachingResponseKind(rawValue: rawKind) {
        case .off: .off
        case .evaluate: .evaluate
        case .acknowledge, nil: .acknowledge(seconds: seconds)
        }
    }

    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    /// `-setCoachingPolicyMedium:mediumSeconds:high:highSeconds:` for Objective-C: what a `medium`
    /// and a `high` coaching answer do, each a kind and, for `acknowledge`, its seconds (ignored
    /// for the other kinds; below 0 they count as 0). A kind outside the enum counts as
    /// `acknowledge`. Swift code uses ``setCoachingPolicy(_:)``.
    ///
    /// ```objc
    /// // Try the signal first: ask and report, show nothing.
    /// [[CallMonitor sharedInstance] setCoachingPolicyMedium:CallMonitorCoachingResponseKindEvaluate mediumSeconds:0
    ///                                                  high:CallMonitorCoachingResponseKindEvaluate highSeconds:0];
    /// ```
    @available(swift, obsoleted: 1, message: "use setCoachingPolicy(_:)")
    @objc(setCoachingPolicyMedium:mediumSeconds:high:highSeconds:)
    public func objcSetCoachingPolicy(
        medium: CoachingResponseKind, mediumSeconds: CInt, high: CoachingResponseKind, highSeconds: CInt
    ) {
        setCoachingPolicy(CoachingPolicy(
            medium: Self.coachingResponse(rawKind: medium.rawValue, seconds: mediumSeconds),
            high: Self.coachingResponse(rawKind: high.rawValue, seconds: highSeconds)
        ))
    }

    /// `-setCoachingSource:report:` for Objective-C: a block that receives the operation category
    /// (`payment`, `account`), the operation id and a completion block, or `nil`. Swift code uses
    /// ``setCoachingSource(_:report:)``.
    ///
    /// ```objc
    /// [[CallMonitor sharedInstance] setCoachingSource:^(NSString *category, NSString *operationID,
    ///                                                  void (^completion)(CallMonitorCoachingLevel)) {
    ///     [fraudClient coachingScoreFor:operationID done:^(NSInteger level) { completion(level); }];
    /// } report:^(NSString *operationID, CallMonitorCoachingConsumption status) {
    ///     [fraudClient record:operationID status:status];
    /// }];
    /// ```
    ///
    /// The block runs on a background queue, once per question; questions can overlap. `completion`
    /// may be called from any thread; calling it twice or never is harmless (the first call within
    /// the budget counts), and a value outside the enum counts as unknown. `report` runs on the
    /// main thread, once per question.
    @available(swift, obsoleted: 1, message: "use setCoachingSource(_:report:)")
    @objc(setCoachingSource:report:)
    public func objcSetCoachingSource(
        _ source: ((String, String?, @escaping (CoachingLevel) -> Void) -> Void)?,
        report: ((String?, CoachingConsumption) -> Void)?
    ) {
        setCoachingSource(using: source.map {
            CompletionCoachingSource(UncheckedCoachingBlocks(ask: $0, report: report))
        })
    }
    #endif
}

/// The app's Swift coaching source: its closure, asked in a task of its own.
final class ClosureCoachingSource: CoachingSourcing {
    nonisolated let kind = CallMonitor.CoachingSource.app
    private let body: @Sendable (CallMonitor.CoachingQuestion) async -> CallMonitor.CoachingAnswer
    private let onReport: (@MainActor @Sendable (CallMonitor.CoachingQuestion, CallMonitor.CoachingConsumption) -> Void)?

    nonisolated init(
        _ body: @escaping @Sendable (CallMonitor.CoachingQuestion) async -> CallMonitor.CoachingAnswer,
        report: (@MainActor @Sendable (CallMonitor.CoachingQuestion, CallMonitor.CoachingConsumption) -> Void)?
    ) {
        self.body = body
        onReport = report
    }

    func ask(_ question: CallMonitor.CoachingQuestion, answer: @escaping @Sendable (CallMonitor.CoachingAnswer) -> Void) {
        let body = self.body
        Task.detached { answer(await body(question)) }
    }

    func report(_ question: CallMonitor.CoachingQuestion, _ status: CallMonitor.CoachingConsumption) {
        onReport?(question, status)
    }
}

/// The Objective-C coaching blocks. `@unchecked Sendable`: an Objective-C block carries no
/// isolation; `ask` is called on a global queue, once per question, while questions can overlap
/// (the API documents it), and `report` only on the main thread. The monitor shares no state with
/// them but the completion, which may be called from any thread.
struct UncheckedCoachingBlocks: @unchecked Sendable {
    let ask: (String, String?, @escaping (CallMonitor.CoachingLevel) -> Void) -> Void
    let report: ((String?, CallMonitor.CoachingConsumption) -> Void)?
}

/// The Objective-C coaching source: its block is called on a background queue with a completion
/// that may be called any number of times from any thread, with any raw value.
final class CompletionCoachingSource: CoachingSourcing {
    nonisolated let kind = CallMonitor.CoachingSource.app
    private let blocks: UncheckedCoachingBlocks

    nonisolated init(_ blocks: UncheckedCoachingBlocks) { self.blocks = blocks }

    func ask(_ question: CallMonitor.CoachingQuestion, answer: @escaping @Sendable (CallMonitor.CoachingAnswer) -> Void) {
        let blocks = self.blocks
        DispatchQueue.global(qos: .userInitiated).async {
            blocks.ask(question.operationCategory.rawValue, question.operationID) { level in
                answer(CallMonitor.CoachingAnswer(level: CallMonitor.CoachingLevel(sanitizing: level.rawValue)))
            }
        }
    }

    func report(_ question: CallMonitor.CoachingQuestion, _ status: CallMonitor.CoachingConsumption) {
        blocks.report?(question.operationID, status)
    }
}

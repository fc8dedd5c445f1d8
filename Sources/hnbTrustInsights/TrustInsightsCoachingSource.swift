// Apple's coaching insight (Trust Insights, iOS and iPadOS 27) as a coaching source of the guard
// (issue 40). Thin: it asks, maps Apple's values to the guard's and reports what the engine
// decided; every decision (what an answer does, which status each evaluation gets) is the
// engine's. Compiled against a stand-in of TrustInsights written from Apple's documentation
// (Lint/AppleStandins/TrustInsights.swift): never against Apple's SDK, never run.
// The documentation lists iOS and iPadOS only, so Mac Catalyst is left out.

#if canImport(TrustInsights) && !targetEnvironment(macCatalyst)
import Foundation
import TrustInsights
import hnb

/// One evaluation, kept until its status is decided. `@unchecked Sendable`: Apple's evaluation
/// is not `Sendable`; the report slots hand it to exactly one caller (see
/// ``EvaluationReportSlots``), which reports on it once and lets it go.
@available(iOS 27.0, *)
nonisolated struct HeldEvaluation: @unchecked Sendable {
    let evaluation: InsightEvaluation<IsLikelyBeingCoachedInsight>
    let insightID: String
    let operationID: String?
}

/// Asks Trust Insights about each question and reports each evaluation's consumption once.
/// `nonisolated`: asked from the core on any thread; only ``report(_:_:)`` runs on the main actor.
@available(iOS 27.0, *)
nonisolated final class TrustInsightsCoachingSource: CoachingSourcing {
    let kind = CallMonitor.CoachingSource.trustInsights
    private let slots = EvaluationReportSlots<HeldEvaluation>()
    private let evidence: (@Sendable (TrustInsightsEvidence) -> Void)?

    init(evidence: (@Sendable (TrustInsightsEvidence) -> Void)?) {
        self.evidence = evidence
    }

    func ask(_ question: CallMonitor.CoachingQuestion, answer: @escaping @Sendable (CallMonitor.CoachingAnswer) -> Void) {
        let slots = self.slots
        let evidence = self.evidence
        Task.detached {
            let evaluator = InsightEvaluator()
            var context = InsightEvaluator.InsightContext(
                operationCategory: Self.category(question.operationCategory),
                requestedEvaluations: IsLikelyBeingCoachedInsight.request(schema: .version1)
            )
            context.requestID = question.operationID
            // The person's choice is read, never asked for: the app shows Apple's prompt when it
            // chooses (requestAuthorization), the guard never does.
            guard (try? await evaluator.authorizationStatus(for: context)) == .authorized else {
                slots.noEvaluation(question.id)
                answer(.unavailable)
                return
            }
            let evaluation: InsightEvaluation<IsLikelyBeingCoachedInsight>
            do {
                evaluation = try await evaluator.requestEvaluation(context: context)
            } catch {
                // No evaluation object: nothing to report to Apple; the engine records notUsedError.
                slots.noEvaluation(question.id)
                answer(.unavailable)
                return
            }
            let insight = evaluation.insight
            let held = HeldEvaluation(evaluation: evaluation, insightID: insight.insightID, operationID: question.operationID)
            if let status = slots.arrived(question.id, held) {
                // The engine decided first (the protection ended, or the budget ran out): the
                // answer was never read, so no outcome records it.
                Self.report(held, status, outcomeID: nil, evidence: evidence)
            }
            answer(Self.answer(for: insight, echoed: evaluation.requestID, asked: question.operationID))
        }
    }

    @MainActor func report(_ question: CallMonitor.CoachingQuestion, _ status: CallMonitor.CoachingConsumption) {
        report(question, status, outcomeID: nil)
    }

    /// The engine's status, with the outcome whose coaching record holds the answer (issue 40,
    /// "Evidence"). An answer is read only after its evaluation arrived, so an outcome id comes
    /// only with a status that finds the evaluation waiting here; one decided first never has one.
    @MainActor func report(_ question: CallMonitor.CoachingQuestion, _ status: CallMonitor.CoachingConsumption, outcomeID: UInt64?) {
        guard let held = slots.decided(question.id, status) else { return }
        Self.report(held, status, outcomeID: outcomeID, evidence: evidence)
    }

    /// Reports `status` on the evaluation (Apple asks for exactly one report before it is
    /// released), then hands the signed evidence to the app.
    private static func report(
        _ held: HeldEvaluation, _ status: CallMonitor.CoachingConsumption, outcomeID: UInt64?,
        evidence: (@Sendable (TrustInsightsEvidence) -> Void)?
    ) {
        held.evaluation.reportConsumption(
            Self.consumption(status), insightIDsUsed: TrustInsightsRules.insightIDsUsed(held.insightID, for: status)
        )
        evidence?(TrustInsightsEvidence(
            insightID: held.insightID, operationID: held.operationID, consumption: status,
            signedPayload: held.evaluation.signedPayload, serverTimestamp: held.evaluation.serverTimestamp,
            outcomeID: outcomeID
        ))
    }

    /// The guard's answer for Apple's insight. An operation id that comes back different means,
    /// as Apple says, that the evaluation is not to be trusted: it counts as unavailable.
    static func answer(
        for insight: IsLikelyBeingCoachedInsight, echoed: String?, asked: String?
    ) -> CallMonitor.CoachingAnswer {
        guard TrustInsightsRules.trusts(asked: asked, echoed: echoed) else { return .unavailable }
        switch insight.outcome {
        case .success(let value):
            let level: CallMonitor.CoachingLevel
            switch value {
            case .high: level = .high
            case .medium: level = .medium
            case .unknown: level = .unknown
            @unknown default: level = .unknown
            }
            return CallMonitor.CoachingAnswer(level: level, evaluationID: insight.insightID, modelVersion: insight.modelVersion)
        case .failure:
            return .unavailable
        }
    }

    /// Apple's category for the guard's.
    static func category(_ category: CallMonitor.CoachingQuestion.OperationCategory) -> InsightEvaluator.OperationCategory {
        switch category {
        case .payment: .payment
        case .account: .account
        case .other: .other
        }
    }

    /// Apple's status for the engine's: the same six names.
    static func consumption(_ status: CallMonitor.CoachingConsumption) -> InsightEvaluationConsumptionStatus {
        switch status {
        case .usedReducedFriction: .usedReducedFriction
        case .usedUnchangedFriction: .usedUnchangedFriction
        case .usedIncreasedFriction: .usedIncreasedFriction
        case .notUsedNotNeeded: .notUsedNotNeeded
        case .notUsedError: .notUsedError
        case .usedEvaluationOnly: .usedEvaluationOnly
        }
    }
}

@available(iOS 27.0, *)
extension CallMonitor {
    /// Uses Apple's coaching insight (Trust Insights) as this monitor's coaching source, in place
    /// of any other. Not in the reference; needs the `hnbTrustInsights` product.
    ///
    /// When a protection whose context's kind is not `general` opens, the monitor asks Trust
    /// Insights whether the person is likely being coached, with the context's operation
    /// category and operation id (Apple's `requestID`), and what the answer does is the coaching
    /// policy's (``hnb/CallMonitor/setCoachingPolicy(_:)``): stricter, never weaker, never a
    /// block on the insight alone. Each evaluation is reported to Apple exactly once with the
    /// status the engine decided, also when the protection ends first or the answer is late.
    ///
    /// The app needs the Trust Insights entitlement and the person's authorization: the monitor
    /// reads the authorization status before each evaluation and never shows Apple's prompt; ask
    /// for it in your app (`InsightEvaluator().requestAuthorization(for:)`) where it makes sense
    /// to the person. Without it every question counts as `unknown` and changes nothing.
    ///
    /// > Important: This adapter is compiled and linked against a stand-in of TrustInsights
    /// > written from Apple's published documentation, never against Apple's SDK, and it has
    /// > never run on a device.
    ///
    /// - Parameter evidence: Receives, once per evaluation (on the main thread when the monitor
    ///   decided last, else on the thread the evaluation arrived on), Apple's signed payload with
    ///   the insight id, the operation id, the status reported and the id of the outcome whose
    ///   coaching record holds it, for your server to verify and file with that outcome (Apple's
    ///   offline fraud labels refer to the insight id). It comes before that outcome, which is
    ///   handed out when its event ends.
    public func useTrustInsights(evidence: (@Sendable (TrustInsightsEvidence) -> Void)? = nil) {
        setCoachingSource(using: TrustInsightsCoachingSource(evidence: evidence))
    }
}
#endif

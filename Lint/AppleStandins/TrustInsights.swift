// stand-in: TrustInsights iOS 27.0
//
// A stand-in for the part of Apple's TrustInsights framework (iOS and iPadOS 27.0) that the
// hnbTrustInsights adapter uses, so ../shared/apple-sdk/build and typecheck can compile and link
// the adapter against it while the SDK mirror has no iOS 27 SDK. Not shipped, never run.
//
// Written from Apple's published documentation only, https://developer.apple.com/documentation/trustinsights
// (each declaration names the page it follows, relative to that address). The comments are ours.
// Where the documentation leaves something open this file takes the narrower reading and says so:
//  - Sendable: only what the documentation states (TrustInsight and InsightRequestProtocol refine
//    Sendable; the error enums are Error, hence Sendable). InsightEvaluator, InsightEvaluation and
//    InsightContext are not marked Sendable here, so the adapter must keep them inside one task.
//  - Mac Catalyst: the framework's page lists Mac Catalyst 27.0, its symbols' pages iOS and
//    iPadOS only. The declarations here carry no Catalyst attribute of their own, so Catalyst
//    follows iOS 27.0 as the framework page says (marking them unavailable made the stand-in fail
//    to compile for Catalyst below 17, where parameter packs in generic types need a version); the
//    adapter takes the narrower reading and leaves Catalyst out (`!targetEnvironment(macCatalyst)`).
//  - Enumerations are `@nonexhaustive` as documented; only the cases whose pages we read are
//    declared, so the adapter must always have an `@unknown default`.
//  - Bodies are minimal (stored values, or fatalError("stand-in")); Apple's `let` properties of
//    the two classes are written as read-only computed properties, which read the same to a client.

import Foundation

/// `InsightEvaluator` (class): `final class InsightEvaluator`. Asks the system for insights about
/// the current interaction, and for the person's permission to do so.
@available(iOS 27.0, *)
public final class InsightEvaluator {
    /// `InsightEvaluator/init()`.
    public init() {}

    /// `InsightEvaluator/authorizationStatus(for:)`: whether the person lets this app request
    /// evaluations for this context. Throws on a system failure. Never shows anything.
    public final nonisolated(nonsending) func authorizationStatus<each I>(
        for context: InsightEvaluator.InsightContext<repeat each I>
    ) async throws -> InsightEvaluator.AuthorizationStatus where repeat each I: InsightEvaluator.InsightRequestProtocol {
        fatalError("stand-in")
    }

    /// `InsightEvaluator/requestAuthorization(for:)`: shows the system's permission prompt (when it
    /// may) and returns once the person has answered. The guard never calls this; the app does.
    public final nonisolated(nonsending) func requestAuthorization<each I>(
        for context: InsightEvaluator.InsightContext<repeat each I>
    ) async throws -> InsightEvaluator.AuthorizationStatus where repeat each I: InsightEvaluator.InsightRequestProtocol {
        fatalError("stand-in")
    }

    /// `InsightEvaluator/requestEvaluation(context:)`: runs the requested evaluations (on the device
    /// and on Apple's servers). Throws an `InsightEvaluator.EvaluationError` when no evaluation
    /// could be produced.
    public final nonisolated(nonsending) func requestEvaluation<each I>(
        context: InsightEvaluator.InsightContext<repeat each I>
    ) async throws -> InsightEvaluation<repeat (each I).InsightType> where repeat each I: InsightEvaluator.InsightRequestProtocol {
        fatalError("stand-in")
    }

    /// `InsightEvaluator/OperationCategory`: `@nonexhaustive enum OperationCategory`, the kind of
    /// operation an evaluation is for (shown in the person's transparency log, and it may change
    /// the result).
    @nonexhaustive
    public enum OperationCategory {
        /// `OperationCategory/account`: registration, login, or changing account details.
        case account
        /// `OperationCategory/communication`: sending messages in bulk, connecting to people.
        case communication
        /// `OperationCategory/other`: anything the other categories do not cover.
        case other
        /// `OperationCategory/resourceUse`: using a costly resource or service.
        case resourceUse
        /// A payment. Its own documentation page was not among the pages we could read; the case
        /// appears in code on Apple's developer forums (thread 860509) and the framework overview
        /// names payments as one of its action areas. Confirm against the iOS 27 SDK.
        case payment
    }

    /// `InsightEvaluator/AuthorizationStatus`: `@nonexhaustive enum AuthorizationStatus`.
    @nonexhaustive
    public enum AuthorizationStatus {
        /// `AuthorizationStatus/authorized`: the person allows this app to request evaluations.
        case authorized
        /// `AuthorizationStatus/denied`: the person refused.
        case denied
        /// `AuthorizationStatus/deniedRequestable`: refused before, but the app may ask again later.
        case deniedRequestable
        /// `AuthorizationStatus/notDetermined`: the person has not been asked yet.
        case notDetermined
    }

    /// `InsightEvaluator/EvaluationError`: `@nonexhaustive enum EvaluationError`, thrown by
    /// `requestEvaluation(context:)`. (The page does not print the Error conformance; a thrown
    /// type must have it.)
    @nonexhaustive
    public enum EvaluationError: Error {
        /// `EvaluationError/contextInvalid(_:)`: no evaluation can be made for this context.
        case contextInvalid(String)
        /// `EvaluationError/denied`: the person's settings do not allow evaluations.
        case denied
        /// `EvaluationError/localError`: the evaluation could not be finished; a retry may work.
        case localError
        /// `EvaluationError/notAvailable`: this device offers no evaluations.
        case notAvailable
        /// `EvaluationError/rateLimitExceeded`: too many requests, on this device or across devices.
        case rateLimitExceeded
        /// `EvaluationError/serverError`: a server or network failure; a retry may work.
        case serverError
    }

    /// `InsightEvaluator/ModelVersion`: `@nonexhaustive enum ModelVersion`, which model version an
    /// insight is requested from. `current` is the normal choice.
    @nonexhaustive
    public enum ModelVersion {
        /// `ModelVersion/current`: the newest model, adjusted as fraud patterns change.
        case current
        /// `ModelVersion/specific(versionNumber:)`: one named older model.
        case specific(versionNumber: String)
    }

    /// `InsightEvaluator/InsightRequestProtocol`: `protocol InsightRequestProtocol : Sendable`,
    /// what every requested evaluation conforms to.
    public protocol InsightRequestProtocol: Sendable {
        /// `InsightRequestProtocol/InsightType`: the insight this request produces.
        associatedtype InsightType: TrustInsight
    }

    /// `InsightEvaluator/InsightRequest`: `struct InsightRequest<InsightType> where InsightType :
    /// TrustInsight`, a request for one insight type at one schema and model version.
    public struct InsightRequest<InsightType>: InsightRequestProtocol where InsightType: TrustInsight {
        /// `InsightRequest/modelVersion`: the model version asked for.
        public var modelVersion: InsightEvaluator.ModelVersion { fatalError("stand-in") }
        /// `InsightRequest/insightTypeIdentifier`: names the insight type asked for.
        public var insightTypeIdentifier: String { fatalError("stand-in") }

        /// `InsightRequest/init(insightType:schema:model:)`.
        public init(insightType: InsightType.Type, schema: InsightType.SchemaVersion, model: InsightEvaluator.ModelVersion = .current) {}
    }

    /// `InsightEvaluator/InsightContext`: `struct InsightContext<each InsightRequest> where repeat
    /// each InsightRequest : InsightEvaluator.InsightRequestProtocol`, what to evaluate and for
    /// which kind of operation.
    public struct InsightContext<each InsightRequest> where repeat each InsightRequest: InsightEvaluator.InsightRequestProtocol {
        /// `InsightContext/operationCategory`.
        public var operationCategory: InsightEvaluator.OperationCategory
        /// `InsightContext/requestID`: an optional identifier the app chooses (ideally issued by its
        /// server) that ties the evaluation to one transaction; the server can then check it in the
        /// signed payload.
        public var requestID: String?
        /// `InsightContext/requestedInsight`.
        public let requestedInsight: (repeat each InsightRequest)

        /// `InsightContext/init(operationCategory:requestedEvaluations:)`.
        public init(operationCategory: InsightEvaluator.OperationCategory, requestedEvaluations: (repeat each InsightRequest)) {
            self.operationCategory = operationCategory
            self.requestID = nil
            self.requestedInsight = requestedEvaluations
        }
    }
}

/// `TrustInsight` (protocol): `protocol TrustInsight : Sendable`, what every insight type
/// (such as `IsLikelyBeingCoachedInsight`) conforms to.
@available(iOS 27.0, *)
public protocol TrustInsight: Sendable {
    /// `TrustInsight/SchemaVersion`: the schema versions of this insight.
    associatedtype SchemaVersion: Sendable
    /// `TrustInsight/Value`: the result type, usually an enumeration.
    associatedtype Value
    /// `TrustInsight/insightID`: identifies this one result (offline fraud labels refer to it).
    var insightID: String { get }
    /// `TrustInsight/isUsingCurrentModel`: whether the newest model produced this insight.
    var isUsingCurrentModel: Bool { get }
}

@available(iOS 27.0, *)
extension TrustInsight {
    /// `TrustInsight/request(schema:modelVersion:)`: a request for this insight type, to put in an
    /// `InsightEvaluator.InsightContext`.
    public static func request(schema: Self.SchemaVersion, modelVersion: InsightEvaluator.ModelVersion = .current) -> InsightEvaluator.InsightRequest<Self> {
        InsightEvaluator.InsightRequest(insightType: Self.self, schema: schema, model: modelVersion)
    }
}

/// `IsLikelyBeingCoachedInsight` (structure): `struct IsLikelyBeingCoachedInsight`, whether someone
/// seems to be coaching the person through what they are doing. Apple's note: coaching is not
/// necessarily malicious.
@available(iOS 27.0, *)
public struct IsLikelyBeingCoachedInsight: TrustInsight {
    /// `IsLikelyBeingCoachedInsight/SchemaVersion`.
    @nonexhaustive
    public enum SchemaVersion: Sendable {
        /// `SchemaVersion/version1`: the values `unknown`, `medium` and `high`.
        case version1
    }

    /// `IsLikelyBeingCoachedInsight/Value`: `@nonexhaustive enum Value`, conforms to Equatable.
    /// A newer schema version may add values, only when that version is requested.
    @nonexhaustive
    public enum Value: Equatable {
        /// `Value/unknown`: no evidence either way (never to be read as low risk).
        case unknown
        /// `Value/medium`: a medium chance that a third party is coaching the person.
        case medium
        /// `Value/high`: a high risk that a third party is coaching the person.
        case high
    }

    /// `IsLikelyBeingCoachedInsight/outcome`: the value, or why this insight has none.
    public var outcome: Result<IsLikelyBeingCoachedInsight.Value, InsightError> { fatalError("stand-in") }
    /// `IsLikelyBeingCoachedInsight/insightID`.
    public var insightID: String { fatalError("stand-in") }
    /// `IsLikelyBeingCoachedInsight/modelVersion`: the model version that produced this result.
    public var modelVersion: String? { fatalError("stand-in") }
    /// `IsLikelyBeingCoachedInsight/newestModelVersion`: the newest model that could be requested.
    public var newestModelVersion: String? { fatalError("stand-in") }
    /// `TrustInsight/isUsingCurrentModel`.
    public var isUsingCurrentModel: Bool { fatalError("stand-in") }
    /// `IsLikelyBeingCoachedInsight/typeIdentifier` (read from the member list of the structure's
    /// page; its own page was not read).
    public static var typeIdentifier: String { fatalError("stand-in") }
}

/// `InsightError` (enumeration): why one requested insight inside an evaluation has no value. Only
/// the cases whose pages we read are declared.
@available(iOS 27.0, *)
@nonexhaustive
public enum InsightError: Error {
    /// `InsightError/rateLimitError`: the app reached the rate limit for this insight type.
    case rateLimitError
    /// `InsightError/insightVersionUnavailable`: the requested version is withdrawn or unsupported.
    case insightVersionUnavailable
    /// `InsightError/insightVersionIncompatible`: not available on this device and system.
    case insightVersionIncompatible
    /// `InsightError/insightEvaluationFailed`: producing the insight failed; a retry may work.
    case insightEvaluationFailed
}

/// `InsightEvaluation` (class): `final class InsightEvaluation<each InsightResult> where repeat each
/// InsightResult : TrustInsight`, what `requestEvaluation(context:)` returns. Before it is
/// released the app must report, once, how it used it (`reportConsumption`), or it may be
/// rate-limited.
@available(iOS 27.0, *)
public final class InsightEvaluation<each InsightResult> where repeat each InsightResult: TrustInsight {
    /// `InsightEvaluation/insight`: the results (or errors) of the requested insights, in order.
    public final var insight: (repeat each InsightResult) { fatalError("stand-in") }
    /// `InsightEvaluation/signedPayload`: the signed evaluation (COSE, CBOR) for the app's server
    /// to verify.
    public final var signedPayload: Data { fatalError("stand-in") }
    /// `InsightEvaluation/serverTimestamp`: when Apple's server processed the evaluation (UTC).
    public final var serverTimestamp: Date { fatalError("stand-in") }
    /// `InsightEvaluation/generationTimestamp`: when the device made its part of it (UTC).
    public final var generationTimestamp: Date { fatalError("stand-in") }
    /// `InsightEvaluation/requestID`: the context's `requestID`, echoed; when the context had one
    /// and this differs, the evaluation is not to be trusted.
    public final var requestID: String? { fatalError("stand-in") }
    /// `InsightEvaluation/additionalInfo`: more about the evaluation, as strings.
    public final var additionalInfo: [String: String] { fatalError("stand-in") }

    /// `InsightEvaluation/reportConsumption(_:insightIDsUsed:)`: how the app used the results,
    /// with the insight IDs it used.
    public final func reportConsumption(_ status: InsightEvaluationConsumptionStatus, insightIDsUsed: [String]) {}

    /// `InsightEvaluation/reportConsumption(_:insightsUsed:)`: the same, naming the insights used.
    public final func reportConsumption(_ status: InsightEvaluationConsumptionStatus, insightsUsed: [any TrustInsight] = []) {}
}

/// `InsightEvaluationConsumptionStatus` (enumeration): `@nonexhaustive enum
/// InsightEvaluationConsumptionStatus`, how the app used an evaluation.
@available(iOS 27.0, *)
@nonexhaustive
public enum InsightEvaluationConsumptionStatus {
    /// `notUsedError`: not used: a technical failure, it came too late, or another problem.
    case notUsedError
    /// `notUsedNotNeeded`: not used: the operation was cancelled, no decision was needed.
    case notUsedNotNeeded
    /// `usedEvaluationOnly`: used only to judge the insight (or train a model); no effect on a decision.
    case usedEvaluationOnly
    /// `usedIncreasedFriction`: it was a reason to add checks or to block.
    case usedIncreasedFriction
    /// `usedReducedFriction`: it was a reason to make the operation easier.
    case usedReducedFriction
    /// `usedUnchangedFriction`: read, but it changed neither the decision nor the flow.
    case usedUnchangedFriction
}

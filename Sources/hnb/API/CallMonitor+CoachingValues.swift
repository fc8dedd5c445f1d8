// The values of coaching signals (issue 40; rules 31 to 33): what the monitor asks a coaching
// source, what the source answers, what the answer may do and what the monitor reports back about
// it. Nested under CallMonitor so that `import hnb` shows no new top-level type (issue 39). The
// rules are the engine's (Engine/MonitorEngine+Coaching.swift); nothing here decides.

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation

extension CallMonitor {
    /// How likely a coaching source thinks it is that someone is coaching the person through the
    /// operation now (Trust Insights' `IsLikelyBeingCoachedInsight`, or the app's own signal).
    ///
    /// ``unknown`` is never read as "low risk": it changes nothing, as no answer does. The raw
    /// values are part of the Objective-C ABI (`CallMonitorCoachingLevelUnknown` = 0, `…Medium`
    /// = 1, `…High` = 2) and never change.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(CallMonitorCoachingLevel)
    #endif
    public enum CoachingLevel: Int, Sendable, CaseIterable, CustomStringConvertible {
        /// No signal: the source could not tell, failed, was not authorized or did not answer in time.
        case unknown = 0
        /// Some signs of coaching.
        case medium = 1
        /// Strong signs of coaching: the person should be told of the risk before going on.
        case high = 2

        /// `unknown`, `medium` or `high`, the spelling of transcripts and logs.
        public var description: String {
            switch self {
            case .unknown: "unknown"
            case .medium: "medium"
            case .high: "high"
            }
        }

        /// The level a raw value from Objective-C names; any value outside the three cases is
        /// ``unknown``, so bad input says nothing rather than crashing or raising the level.
        /// Takes the raw value so that the mapping is tested on Linux, as
        /// `CallMonitorCallVerdict.init(sanitizing:)` is.
        init(sanitizing rawValue: Int) {
            self = CoachingLevel(rawValue: rawValue) ?? .unknown
        }
    }

    /// Where a coaching answer comes from.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(CallMonitorCoachingSource)
    #endif
    public enum CoachingSource: Int, Sendable, CaseIterable, CustomStringConvertible {
        /// The app's own signal (``CallMonitor/setCoachingSource(_:report:)``).
        case app = 0
        /// Apple's Trust Insights (iOS 27), asked by the `hnbTrustInsights` product's adapter.
        case trustInsights = 1

        /// `app` or `trustInsights`.
        public var description: String {
            switch self {
            case .app: "app"
            case .trustInsights: "trustInsights"
            }
        }
    }

    /// What became of one coaching question, as Trust Insights' `reportConsumption` names it: the
    /// monitor decides it from what happened and reports it exactly once per question (rule 33).
    ///
    /// The raw values follow Apple's order and are part of the Objective-C ABI.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(CallMonitorCoachingConsumption)
    #endif
    public enum CoachingConsumption: Int, Sendable, CaseIterable, CustomStringConvertible {
        /// The answer made the person's way easier. Never reported: nothing here relaxes.
        case usedReducedFriction = 0
        /// The answer was read and changed nothing the person saw (`unknown`, a level whose
        /// response is `off` or `evaluate`, or a warning at least as strict was already in force).
        case usedUnchangedFriction = 1
        /// The answer started or strengthened a warning.
        case usedIncreasedFriction = 2
        /// The protection ended, or the monitor exited, before an answer came.
        case notUsedNotNeeded = 3
        /// No answer within the budget, the source failed or was removed while asked.
        case notUsedError = 4
        /// The protection's policy only evaluates: asked and read, nothing shown for any level.
        case usedEvaluationOnly = 5

        /// The case name, as Apple spells the status.
        public var description: String {
            switch self {
            case .usedReducedFriction: "usedReducedFriction"
            case .usedUnchangedFriction: "usedUnchangedFriction"
            case .usedIncreasedFriction: "usedIncreasedFriction"
            case .notUsedNotNeeded: "notUsedNotNeeded"
            case .notUsedError: "notUsedError"
            case .usedEvaluationOnly: "usedEvaluationOnly"
            }
        }
    }

    /// What a coaching answer of one level does to a protection (rule 32).
    public enum CoachingResponse: Sendable, Equatable, CustomStringConvertible {
        /// Nothing: the level is read and ignored.
        case off
        /// Asked and recorded, nothing shown: for a bank trying a source or a model version first.
        case evaluate
        /// An acknowledge warning of that many seconds joins the protection's policies (never a
        /// terminate, never an exit). Negative seconds count as 0, as for
        /// ``CallMonitor/startMonitoring(withAcknowledgeIn:)``.
        case acknowledge(seconds: Int32)

        /// `off`, `evaluate` or `acknowledge N`.
        public var description: String {
            switch self {
            case .off: "off"
            case .evaluate: "evaluate"
            case .acknowledge(let seconds): "acknowledge \(seconds)"
            }
        }
    }

    /// The coaching policy of the protections: a response for `medium` and one for `high`
    /// (``CoachingLevel/unknown`` never changes anything). Set with ``CallMonitor/setCoachingPolicy(_:)``.
    ///
    /// ```swift
    /// // Try the signal first: ask and report, show nothing.
    /// monitor.setCoachingPolicy(.init(medium: .evaluate, high: .evaluate))
    /// ```
    public struct CoachingPolicy: Sendable, Equatable {
        /// The response to a `medium` answer.
        public let medium: CoachingResponse
        /// The response to a `high` answer.
        public let high: CoachingResponse

        /// A policy with these responses; an acknowledge response's negative seconds become 0.
        ///
        /// - Parameters:
        ///   - medium: Default: an acknowledge warning of 5 seconds.
        ///   - high: Default: an acknowledge warning of 10 seconds.
        public init(medium: CoachingResponse = .acknowledge(seconds: 5), high: CoachingResponse = .acknowledge(seconds: 10)) {
            self.medium = Self.clamped(medium)
            self.high = Self.clamped(high)
        }

        /// The response to `level` (`off` for `unknown`).
        public func response(to level: CoachingLevel) -> CoachingResponse {
            switch level {
            case .unknown: .off
            case .medium: medium
            case .high: high
            }
        }

        /// Whether a question is worth asking: some level is not `off`.
        var asks: Bool { medium != .off || high != .off }

        /// Whether some level shows a warning (is `acknowledge`).
        var shows: Bool {
            if case .acknowledge = medium { return true }
            if case .acknowledge = high { return true }
            return false
        }

        private static func clamped(_ response: CoachingResponse) -> CoachingResponse {
            guard case .acknowledge(let seconds) = response else { return response }
            return .acknowledge(seconds: max(0, seconds))
        }
    }

    /// What the monitor asks a coaching source when a protection whose context's kind is not
    /// `general` opens (rule 31).
    public struct CoachingQuestion: Sendable, Equatable {
        /// Trust Insights' operation category for a context kind.
        public enum OperationCategory: String, Sendable, CaseIterable {
            /// Moving money (``CallMonitorContext/Kind/payment``).
            case payment
            /// Credentials, a device change or an account change.
            case account
            /// Anything else (``CallMonitorContext/Kind/general``, never asked about).
            case other

            /// The category of `kind`.
            init(_ kind: CallMonitorContext.Kind) {
                switch kind {
                case .payment: self = .payment
                case .credentials, .deviceChange, .accountChange: self = .account
                case .general: self = .other
                }
            }
        }

        /// Unique to this question for the monitor's life; the report names it too.
        public let id: UInt64
        /// The protection's screen name (`protect(named:…)`), or `nil`.
        public let protectionName: String?
        /// The kind of the protection's context.
        public let kind: CallMonitorContext.Kind
        /// The operation category the kind maps to.
        public let operationCategory: OperationCategory
        /// The context's ``CallMonitorContext/operationID`` (Trust Insights' `requestID`), or `nil`.
        public let operationID: String?

        init(id: UInt64, protectionName: String?, context: CallMonitorContext) {
            self.id = id
            self.protectionName = protectionName
            kind = context.kind
            operationCategory = OperationCategory(context.kind)
            operationID = context.operationID
        }
    }

    /// A coaching source's answer to one question.
    public struct CoachingAnswer: Sendable, Equatable {
        /// The level the source found; ``CoachingLevel/unknown`` when it could not tell.
        public let level: CoachingLevel
        /// The source's id for the evaluation (Trust Insights' `insightID`), if it has one.
        public let evaluationID: String?
        /// The model that evaluated, if the source names one.
        public let modelVersion: String?
        /// `false` when the source failed or was not authorized: counted as `unknown`, reported
        /// as ``CoachingConsumption/notUsedError``.
        public let isAvailable: Bool

        /// An answer of `level`.
        public init(level: CoachingLevel, evaluationID: String? = nil, modelVersion: String? = nil) {
            self.level = level
            self.evaluationID = evaluationID
            self.modelVersion = modelVersion
            isAvailable = true
        }

        private init(unavailable: Void) {
            level = .unknown
            evaluationID = nil
            modelVersion = nil
            isAvailable = false
        }

        /// The source failed, was not authorized or has no value: `unknown`, reported as an error.
        public static let unavailable = CoachingAnswer(unavailable: ())
    }
}

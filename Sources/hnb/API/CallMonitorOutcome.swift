// The record every security event leaves behind (rule 16): how it ended, when, how far the
// countdown got, where it was shown, and whether the screen was captured meanwhile.

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation

/// Why a security event ended (``CallMonitorOutcome/ending``).
///
/// The raw values are part of the Objective-C ABI (`CallMonitorOutcomeEndingCallEnded` = 0 …
/// `CallMonitorOutcomeEndingCallDetectionDisabled` = 6) and never change.
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallMonitorOutcomeEnding)
#endif
@frozen
public enum CallMonitorOutcomeEnding: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// Every call ended (rule 7), including a call whose end was learnt from a complete list.
    case callEnded = 0
    /// The user acknowledged the warning (acknowledge flow, rule 6).
    case acknowledged = 1
    /// The terminate flow force-exited the app (countdown at 0, or Close App). The outcome is
    /// delivered before the before-exit hook and the exit.
    case forceExit = 2
    /// ``CallMonitor/stopMonitoring()`` was called (rule 10).
    case monitoringStopped = 3
    /// The policy in force changed (rules 11 and 18): `startMonitoring` with another policy, or
    /// a protection that began or ended. The new policy's event, if any, is a new event with an
    /// outcome of its own.
    case policyChanged = 4
    /// The event's last live call was exempted with ``CallMonitor/exemptCall(_:)`` (rule 19):
    /// dismissed as if the call had ended, nothing exits.
    case callExempted = 5
    /// ``CallMonitor/setCallDetectionEnabled(_:)`` switched detection off while monitoring
    /// (rule 22): dismissed as if the calls had ended, nothing exits.
    case callDetectionDisabled = 6

    /// The case name, as transcripts spell it: `callEnded`, `acknowledged`, `forceExit`,
    /// `monitoringStopped`, `policyChanged`, `callExempted`, `callDetectionDisabled`.
    public var description: String {
        switch self {
        case .callEnded: "callEnded"
        case .acknowledged: "acknowledged"
        case .forceExit: "forceExit"
        case .monitoringStopped: "monitoringStopped"
        case .policyChanged: "policyChanged"
        case .callExempted: "callExempted"
        case .callDetectionDisabled: "callDetectionDisabled"
        }
    }
}

/// How a security event ended, and what happened during it.
///
/// Every event that began ends with exactly one outcome, delivered on the main thread to the
/// handler set with ``CallMonitor/setOutcomeHandler(_:)`` and to every ``CallMonitor/outcomes``
/// subscriber. A hand-over to another delegate (or to the built-in dialog) does not end the event;
/// it shows in ``presentations``.
///
/// ```swift
/// monitor.setOutcomeHandler { outcome in
///     audit.write("\(outcome.ending) after \(outcome.duration) s, lowest \(outcome.lowestRemaining)")
/// }
/// ```
public struct CallMonitorOutcome: Sendable, Equatable, CustomStringConvertible {
    /// Why the event ended; ``CallMonitorOutcomeEnding``, a top-level type because the generated
    /// Objective-C header leaves nested types out.
    public typealias Ending = CallMonitorOutcomeEnding

    /// Where the event was drawn.
    public enum Surface: String, Sendable, CaseIterable, CustomStringConvertible {
        /// A ``CallMonitorDelegate``.
        case delegate
        /// The library's built-in dialog.
        case builtInDialog

        /// The case name, as transcripts spell it.
        public var description: String { rawValue }
    }

    /// One presentation of the event: the first when it began, then one per hand-over.
    public struct Presentation: Sendable, Equatable {
        /// The surface that was told to show the event.
        public var surface: Surface
        /// When, in nanoseconds of the monitor's monotonic clock.
        public var at: Int64
        /// The countdown value it was shown with.
        public var remaining: Int32

        /// A presentation with every field given.
        public init(surface: Surface, at: Int64, remaining: Int32) {
            self.surface = surface
            self.at = at
            self.remaining = remaining
        }
    }

    /// Why the event ended.
    public var ending: Ending
    /// The flow of the event.
    public var flow: CallMonitorFlow
    /// The countdown's length under the policy, in seconds (after clamping).
    public var seconds: Int32
    /// When the event began, in nanoseconds of the monitor's monotonic clock
    /// (the clock of its ``CallMonitor/Ports``); immune to changes of the device's time.
    public var startedAt: Int64
    /// When the event ended, on the same clock.
    public var endedAt: Int64
    /// The wall-clock time the event began, for logs (it moves when the device's time is changed;
    /// compute durations from ``startedAt`` and ``endedAt``).
    public var startedDate: Date
    /// The wall-clock time the event ended, for logs.
    public var endedDate: Date
    /// The lowest countdown value shown: 0 when the countdown ran out, higher when the event ended
    /// earlier (a Close App tap, the call ending, a stop).
    public var lowestRemaining: Int32
    /// Every presentation in order; more than one means the event was handed over (a delegate set,
    /// cleared or released during it).
    public var presentations: [Presentation]
    /// Whether the screen was captured (recorded, mirrored, shared) at any moment of the event.
    public var wasScreenCaptured: Bool
    /// The bank's verdict on the call as the event ended (rule 23): the first answer of the
    /// verifier within its budget to the event's latest question, ``CallMonitorCallVerdict/unknown``
    /// when it did not answer in time, could not tell, or no verifier was set.
    public var verdict: CallMonitorCallVerdict
    /// When ``verdict`` was recorded, on the monotonic clock of ``startedAt``: the answer's arrival,
    /// or the end of the budget for an answer that did not come. `nil` when the verifier was not
    /// asked or the event ended before either.
    public var verdictArrivedAt: Int64?
    /// The language of the built-in dialog's texts while the event ended (`en`, `de`, `pt-PT`, …):
    /// the language of every text in ``shown`` (issue 30, "Outcomes as evidence").
    public var language: String
    /// What the person saw, presentation by presentation, frame by frame (issue 30): the exact
    /// texts of the built-in dialog, or what a delegate was told. Empty in an outcome made by
    /// hand that did not give it.
    public var shown: [Shown]
    /// Where the policy the event ran under came from (issue 28): the app's code, or the signed
    /// document of that version when it decided the policy in force.
    public var policySource: PolicySource = .code
    /// The event's number (issue 40, "Evidence"): unique among the outcomes of one monitor, given
    /// in the order the events began, and the same in every replay of the same inputs (the
    /// engine counts it; nothing random). The Trust Insights evidence of an evaluation recorded
    /// in ``coaching`` names it, so a bank's server can file the signed payload with this record.
    /// 0 in an outcome made by hand that did not give one.
    public var id: UInt64 = 0
    /// The coaching answers the monitor read while the event was on screen, in the order read
    /// (issue 40, rule 33): an answer that began or strengthened the event, or one read while it
    /// was shown, each with the consumption status decided as it was read (or as the warning it
    /// waited for began). A question decided without an answer (late, failed to arrive, its
    /// protection ended first) or answered while no event was shown is in no outcome; its status
    /// reaches only its source. Empty when no coaching source answered during the event.
    public var coaching: [CoachingEvaluation] = []

    /// One coaching answer as the event's evidence (issue 40): what the source said, about which
    /// operation, and what the monitor reported it did with it.
    public struct CoachingEvaluation: Sendable, Equatable {
        /// The question's id (``CallMonitor/CoachingQuestion/id``), the one the source's report
        /// names: it ties an app source's report callback to this record.
        public var questionID: UInt64
        /// When the monitor decided the answer's status and recorded it, in nanoseconds of the
        /// monotonic clock of ``startedAt``: as it read the answer, or, for an answer read while
        /// the app was in the background with no call live, as the warning it began was shown.
        public var at: Int64
        /// The level the source answered; ``CallMonitor/CoachingLevel/unknown`` for a failed answer.
        public var level: CallMonitor.CoachingLevel
        /// The kind of source asked.
        public var source: CallMonitor.CoachingSource
        /// The source's evaluation id (Trust Insights' `insightID`), or `nil`.
        public var evaluationID: String?
        /// The model version the source named, or `nil`.
        public var modelVersion: String?
        /// The operation id the question carried (the context's ``CallMonitorContext/operationID``), or `nil`.
        public var operationID: String?
        /// The consumption status the monitor reported for the answer (rule 33).
        public var consumption: CallMonitor.CoachingConsumption

        /// An evaluation with every field given; the monitor makes these, tests may too.
        public init(
            questionID: UInt64, at: Int64, level: CallMonitor.CoachingLevel, source: CallMonitor.CoachingSource,
            evaluationID: String? = nil, modelVersion: String? = nil, operationID: String? = nil,
            consumption: CallMonitor.CoachingConsumption
        ) {
            self.questionID = questionID
            self.at = at
            self.level = level
            self.source = source
            self.evaluationID = evaluationID
            self.modelVersion = modelVersion
            self.operationID = operationID
            self.consumption = consumption
        }
    }

    /// Where an event's policy came from.
    public enum PolicySource: Hashable, Sendable, CustomStringConvertible {
        /// What the app's code set (`startMonitoring…`, `protect…`).
        case code
        /// The signed remote policy document with this `ver` (`applyPolicy(document:)`).
        case document(version: Int64)

        /// `code`, or the document's version.
        public var description: String {
            switch self {
            case .code: "code"
            case .document(let version): String(version)
            }
        }
    }

    /// A record with every field given; the monitor makes these, tests may too.
    public init(
        ending: Ending, flow: CallMonitorFlow, seconds: Int32, startedAt: Int64, endedAt: Int64,
        startedDate: Date, endedDate: Date, lowestRemaining: Int32, presentations: [Presentation],
        wasScreenCaptured: Bool, verdict: CallMonitorCallVerdict = .unknown, verdictArrivedAt: Int64? = nil,
        language: String = "en", shown: [Shown] = []
    ) {
        self.ending = ending
        self.flow = flow
        self.seconds = seconds
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.startedDate = startedDate
        self.endedDate = endedDate
        self.lowestRemaining = lowestRemaining
        self.presentations = presentations
        self.wasScreenCaptured = wasScreenCaptured
        self.verdict = verdict
        self.verdictArrivedAt = verdictArrivedAt
        self.language = language
        self.shown = shown
    }

    /// The surfaces that showed the event, each once, in the order they first did: `[.delegate]`,
    /// `[.builtInDialog]`, or both when it was handed over between them.
    public var surfaces: [Surface] {
        var seen: [Surface] = []
        for presentation in presentations where !seen.contains(presentation.surface) { seen.append(presentation.surface) }
        return seen
    }

    /// How long the event lasted in seconds, on the monotonic clock.
    public var duration: Double { Double(endedAt &- startedAt) / 1e9 }

    /// One line for logs.
    public var description: String {
        "\(ending) \(flow) lowest=\(lowestRemaining)/\(seconds) shownOn=\(surfaces.map(\.description).joined(separator: "+")) captured=\(wasScreenCaptured)"
    }
}

/// ``CallMonitorOutcome`` for Objective-C, which cannot see Swift structs: the same record as an
/// immutable object, `CallMonitorOutcomeRecord` there. Swift code uses ``CallMonitorOutcome``.
///
/// Public only because Objective-C needs it, so its Swift name begins with an underscore, which
/// keeps it out of code completion, the symbol graph and the documentation. It cannot be nested
/// in ``CallMonitorOutcome``: the generated Objective-C header leaves nested types out.
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallMonitorOutcomeRecord)
#endif
public final class _CallMonitorOutcomeRecord: NSObject {
    /// Why the event ended.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(ending)
    #endif
    public let ending: CallMonitorOutcomeEnding
    /// The flow of the event.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(flow)
    #endif
    public let flow: CallMonitorFlow
    /// The countdown's length under the policy, in seconds.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(seconds)
    #endif
    public let seconds: CInt
    /// When the event began, in nanoseconds of the monitor's monotonic clock.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(startedAt)
    #endif
    public let startedAt: Int64
    /// When the event ended, on the same clock.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(endedAt)
    #endif
    public let endedAt: Int64
    /// The wall-clock time the event began, in seconds since 1970, for logs.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(startedTimeIntervalSince1970)
    #endif
    public let startedTimeIntervalSince1970: Double
    /// The wall-clock time the event ended, in seconds since 1970, for logs.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(endedTimeIntervalSince1970)
    #endif
    public let endedTimeIntervalSince1970: Double
    /// The lowest countdown value shown.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(lowestRemaining)
    #endif
    public let lowestRemaining: CInt
    /// Whether a delegate showed the event at some moment.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(wasShownOnDelegate)
    #endif
    public let wasShownOnDelegate: Bool
    /// Whether the built-in dialog showed the event at some moment.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(wasShownOnBuiltInDialog)
    #endif
    public let wasShownOnBuiltInDialog: Bool
    /// How many presentations the event had: 1, plus one per hand-over.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(presentationCount)
    #endif
    public let presentationCount: Int
    /// Whether the screen was captured at any moment of the event.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(wasScreenCaptured)
    #endif
    public let wasScreenCaptured: Bool
    /// The bank's verdict on the call as the event ended.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(verdict)
    #endif
    public let verdict: CallMonitorCallVerdict
    /// When the verdict was recorded, in nanoseconds of the monitor's monotonic clock; -1 when it
    /// never was (Swift: `nil`).
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(verdictArrivedAt)
    #endif
    public let verdictArrivedAt: Int64
    /// The `ver` of the signed policy document the event's policy came from; 0 when it came
    /// from the app's code (Swift: ``CallMonitorOutcome/policySource``).
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(policyVersion)
    #endif
    public let policyVersion: Int64
    /// The event's number, which the Trust Insights evidence names (Swift: ``CallMonitorOutcome/id``).
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(outcomeID)
    #endif
    public let outcomeID: UInt64
    /// How many coaching answers were read while the event was on screen (Swift:
    /// ``CallMonitorOutcome/coaching``); each is ``coaching(at:)``.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(coachingCount)
    #endif
    public var coachingCount: Int { coaching.count }
    /// The coaching answers in the order read. Objective-C reads them one by one: an array of
    /// objects cannot be spelt in the header the package checks on every platform.
    private let coaching: [_CallMonitorCoachingRecord]

    /// The coaching answer at `index` (0 is the first read), or `nil` outside
    /// `0..<coachingCount`: a wrong index says nothing rather than crashing the app.
    ///
    /// - Parameter index: From 0.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(coachingAtIndex:)
    #endif
    public func coaching(at index: Int) -> _CallMonitorCoachingRecord? {
        coaching.indices.contains(index) ? coaching[index] : nil
    }

    /// The object form of `outcome`.
    public init(_ outcome: CallMonitorOutcome) {
        ending = outcome.ending
        flow = outcome.flow
        seconds = outcome.seconds
        startedAt = outcome.startedAt
        endedAt = outcome.endedAt
        startedTimeIntervalSince1970 = outcome.startedDate.timeIntervalSince1970
        endedTimeIntervalSince1970 = outcome.endedDate.timeIntervalSince1970
        lowestRemaining = outcome.lowestRemaining
        wasShownOnDelegate = outcome.surfaces.contains(.delegate)
        wasShownOnBuiltInDialog = outcome.surfaces.contains(.builtInDialog)
        presentationCount = outcome.presentations.count
        wasScreenCaptured = outcome.wasScreenCaptured
        verdict = outcome.verdict
        verdictArrivedAt = outcome.verdictArrivedAt ?? -1
        if case .document(let version) = outcome.policySource { policyVersion = version } else { policyVersion = 0 }
        outcomeID = outcome.id
        coaching = outcome.coaching.map(_CallMonitorCoachingRecord.init)
        super.init()
    }
}

/// ``CallMonitorOutcome/CoachingEvaluation`` for Objective-C: one coaching answer of an outcome,
/// `CallMonitorCoachingRecord` there. Swift code uses ``CallMonitorOutcome/CoachingEvaluation``.
///
/// Public only because Objective-C needs it, hence the underscore (see ``_CallMonitorOutcomeRecord``).
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallMonitorCoachingRecord)
#endif
public final class _CallMonitorCoachingRecord: NSObject {
    /// The question's id, the one the source's report names.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(questionID)
    #endif
    public let questionID: UInt64
    /// When the monitor read the answer, in nanoseconds of the monitor's monotonic clock.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(at)
    #endif
    public let at: Int64
    /// The level the source answered.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(level)
    #endif
    public let level: CallMonitor.CoachingLevel
    /// The kind of source asked.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(source)
    #endif
    public let source: CallMonitor.CoachingSource
    /// The source's evaluation id (Trust Insights' `insightID`), or `nil`.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(evaluationID)
    #endif
    public let evaluationID: String?
    /// The model version the source named, or `nil`.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(modelVersion)
    #endif
    public let modelVersion: String?
    /// The operation id the question carried, or `nil`.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(operationID)
    #endif
    public let operationID: String?
    /// The consumption status reported for the answer.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(consumption)
    #endif
    public let consumption: CallMonitor.CoachingConsumption

    /// The object form of `evaluation`.
    public init(_ evaluation: CallMonitorOutcome.CoachingEvaluation) {
        questionID = evaluation.questionID
        at = evaluation.at
        level = evaluation.level
        source = evaluation.source
        evaluationID = evaluation.evaluationID
        modelVersion = evaluation.modelVersion
        operationID = evaluation.operationID
        consumption = evaluation.consumption
        super.init()
    }
}

#if HNB_OBJC_HEADER
// Header generation compiles against a stand-in NSObject, which the compiler does not accept as a
// Sendable superclass; the checked conformance below is the one every real build uses.
extension _CallMonitorOutcomeRecord: @unchecked Sendable {}
extension _CallMonitorCoachingRecord: @unchecked Sendable {}
#else
// Checked: every stored property is a `let` of a Sendable type.
extension _CallMonitorOutcomeRecord: Sendable {}
extension _CallMonitorCoachingRecord: Sendable {}
#endif

// An outcome as evidence (issue 30): what the person saw, frame by frame, and the outcome's
// versioned JSON form, which a bank's backend can file with a fraud case. The schema is
// Schemas/callmonitor-outcome.v1.schema.json; DocC "Outcomes as evidence" describes it.

import Foundation

extension CallMonitorOutcome {
    /// The version of the outcome's JSON form (``schemaVersion`` in every encoded outcome). A
    /// change that could break a reader (a field removed, renamed or given another meaning) gets a
    /// new version and a new schema file; a new optional field does not.
    public static let schemaVersion = 1

    /// One presentation as the person saw it: the surface, and every frame it showed.
    public struct Shown: Sendable, Equatable, Codable {
        /// Where it was shown.
        public var surface: Surface
        /// Each state it showed, in order: the first when it was presented, then one for each
        /// change (a countdown value, the button, the verdict line, the context, the language).
        public var frames: [Frame]
        /// How many frames were left out between the first and the last ones kept: a
        /// presentation keeps at most 512 frames (the first 256 and the latest 256), so a countdown
        /// of years cannot grow the record without bound. 0 for any presentation of under about
        /// eight minutes.
        public var framesOmitted: Int

        /// A presentation with every field given.
        public init(surface: Surface, frames: [Frame], framesOmitted: Int = 0) {
            self.surface = surface
            self.frames = frames
            self.framesOmitted = framesOmitted
        }
    }

    /// What a presentation showed from one instant on.
    ///
    /// On the built-in dialog every text is the exact string drawn. On a delegate the library
    /// knows only what it told the delegate: the countdown value, the verdict and the context
    /// (``detail``, ``contextKind``); the texts the app drew are the app's to record, so the
    /// other texts are `nil`.
    public struct Frame: Sendable, Equatable, Codable {
        /// When it was shown, in nanoseconds of the monitor's monotonic clock.
        public var at: Int64
        /// The countdown value shown.
        public var remaining: Int32
        /// The dialog's title.
        public var title: String?
        /// The dialog's message.
        public var message: String?
        /// The context kind's built-in line (rule 29).
        public var kindLine: String?
        /// The context's detail, as drawn (cleaned).
        public var detail: String?
        /// The verdict line (rule 24).
        public var verdictLine: String?
        /// The countdown line.
        public var countdown: String?
        /// The button's text; `nil` while no button was shown.
        public var button: String?
        /// The kind of the context shown, `nil` for none.
        public var contextKind: CallMonitorContext.Kind?
        /// The verdict in force.
        public var verdict: CallMonitorCallVerdict

        /// A frame with every field given.
        public init(
            at: Int64, remaining: Int32, title: String? = nil, message: String? = nil, kindLine: String? = nil, detail: String? = nil,
            verdictLine: String? = nil, countdown: String? = nil, button: String? = nil, contextKind: CallMonitorContext.Kind? = nil,
            verdict: CallMonitorCallVerdict = .unknown
        ) {
            self.at = at
            self.remaining = remaining
            self.title = title
            self.message = message
            self.kindLine = kindLine
            self.detail = detail
            self.verdictLine = verdictLine
            self.countdown = countdown
            self.button = button
            self.contextKind = contextKind
            self.verdict = verdict
        }

        private enum CodingKeys: String, CodingKey {
            case at, remaining, title, message, kindLine, detail, verdictLine, countdown, button, contextKind, verdict
        }

        /// Every key is written, `null` included, so a reader never has to guess whether a text
        /// was absent or forgotten.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(at, forKey: .at)
            try c.encode(remaining, forKey: .remaining)
            try c.encode(title, forKey: .title)
            try c.encode(message, forKey: .message)
            try c.encode(kindLine, forKey: .kindLine)
            try c.encode(detail, forKey: .detail)
            try c.encode(verdictLine, forKey: .verdictLine)
            try c.encode(countdown, forKey: .countdown)
            try c.encode(button, forKey: .button)
            try c.encode(contextKind, forKey: .contextKind)
            try c.encode(verdict.description, forKey: .verdict)
        }

        /// Reads a frame as ``encode(to:)`` writes it.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            at = try c.decode(Int64.self, forKey: .at)
            remaining = try c.decode(Int32.self, forKey: .remaining)
            title = try c.decodeIfPresent(String.self, forKey: .title)
            message = try c.decodeIfPresent(String.self, forKey: .message)
            kindLine = try c.decodeIfPresent(String.self, forKey: .kindLine)
            detail = try c.decodeIfPresent(String.self, forKey: .detail)
            verdictLine = try c.decodeIfPresent(String.self, forKey: .verdictLine)
            countdown = try c.decodeIfPresent(String.self, forKey: .countdown)
            button = try c.decodeIfPresent(String.self, forKey: .button)
            contextKind = try c.decodeIfPresent(CallMonitorContext.Kind.self, forKey: .contextKind)
            verdict = try OutcomeNames.decode(c.decode(String.self, forKey: .verdict), CallMonitorCallVerdict.allCases, at: c.codingPath)
        }
    }
}

extension CallMonitorOutcome.Surface: Codable {}

extension CallMonitorOutcome.Presentation: Codable {
    private enum CodingKeys: String, CodingKey { case surface, at, remaining }

    /// Writes the surface by its case name, the instant in nanoseconds and the value shown.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(surface, forKey: .surface)
        try c.encode(at, forKey: .at)
        try c.encode(remaining, forKey: .remaining)
    }

    /// Reads a presentation as ``encode(to:)`` writes it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(surface: try c.decode(CallMonitorOutcome.Surface.self, forKey: .surface), at: try c.decode(Int64.self, forKey: .at),
                  remaining: try c.decode(Int32.self, forKey: .remaining))
    }
}

/// The outcome's JSON form, version ``CallMonitorOutcome/schemaVersion``: the keys below, every one
/// written (`null` where there is no value); enums by their case names; instants on the monotonic
/// clock in whole nanoseconds; the wall-clock dates as seconds since 1970 (a number, so no date
/// format or time zone is assumed).
extension CallMonitorOutcome: Codable {
    private enum CodingKeys: String, CodingKey {
        case schemaVersion, ending, flow, seconds, startedAt, endedAt, startedDate, endedDate, lowestRemaining, presentations
        case wasScreenCaptured, verdict, verdictArrivedAt, language, shown, policySource, policyVersion
    }

    /// Writes the outcome as the schema describes.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.schemaVersion, forKey: .schemaVersion)
        try c.encode(ending.description, forKey: .ending)
        try c.encode(flow.description, forKey: .flow)
        try c.encode(seconds, forKey: .seconds)
        try c.encode(startedAt, forKey: .startedAt)
        try c.encode(endedAt, forKey: .endedAt)
        try c.encode(startedDate.timeIntervalSince1970, forKey: .startedDate)
        try c.encode(endedDate.timeIntervalSince1970, forKey: .endedDate)
        try c.encode(lowestRemaining, forKey: .lowestRemaining)
        try c.encode(presentations, forKey: .presentations)
        try c.encode(wasScreenCaptured, forKey: .wasScreenCaptured)
        try c.encode(verdict.description, forKey: .verdict)
        try c.encode(verdictArrivedAt, forKey: .verdictArrivedAt)
        try c.encode(language, forKey: .language)
        try c.encode(shown, forKey: .shown)
        // Issue 28: where the policy came from, as two plain keys (a name and the document's
        // `ver`, null for the code) rather than a value of two types.
        switch policySource {
        case .code:
            try c.encode("code", forKey: .policySource)
            try c.encodeNil(forKey: .policyVersion)
        case .document(let version):
            try c.encode("document", forKey: .policySource)
            try c.encode(version, forKey: .policyVersion)
        }
    }

    /// Reads an outcome as ``encode(to:)`` writes it; a `schemaVersion` other than
    /// ``schemaVersion`` is an error rather than a guess.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let version = try c.decode(Int.self, forKey: .schemaVersion)
        guard version == Self.schemaVersion else {
            throw DecodingError.dataCorruptedError(forKey: .schemaVersion, in: c, debugDescription: "schema version \(version) is not \(Self.schemaVersion)")
        }
        self.init(
            ending: try OutcomeNames.decode(c.decode(String.self, forKey: .ending), CallMonitorOutcomeEnding.allCases, at: c.codingPath),
            flow: try OutcomeNames.decode(c.decode(String.self, forKey: .flow), CallMonitorFlow.allCases, at: c.codingPath),
            seconds: try c.decode(Int32.self, forKey: .seconds),
            startedAt: try c.decode(Int64.self, forKey: .startedAt),
            endedAt: try c.decode(Int64.self, forKey: .endedAt),
            startedDate: Date(timeIntervalSince1970: try c.decode(Double.self, forKey: .startedDate)),
            endedDate: Date(timeIntervalSince1970: try c.decode(Double.self, forKey: .endedDate)),
            lowestRemaining: try c.decode(Int32.self, forKey: .lowestRemaining),
            presentations: try c.decode([Presentation].self, forKey: .presentations),
            wasScreenCaptured: try c.decode(Bool.self, forKey: .wasScreenCaptured),
            verdict: try OutcomeNames.decode(c.decode(String.self, forKey: .verdict), CallMonitorCallVerdict.allCases, at: c.codingPath),
            verdictArrivedAt: try c.decodeIfPresent(Int64.self, forKey: .verdictArrivedAt),
            language: try c.decode(String.self, forKey: .language),
            shown: try c.decode([Shown].self, forKey: .shown)
        )
        switch try c.decode(String.self, forKey: .policySource) {
        case "code": policySource = .code
        case "document": policySource = .document(version: try c.decode(Int64.self, forKey: .policyVersion))
        case let name:
            throw DecodingError.dataCorruptedError(forKey: .policySource, in: c, debugDescription: "unknown policy source '\(name)'")
        }
    }

    /// The outcome as JSON: the schema's form, keys sorted, so the same outcome is always the
    /// same bytes (a bank can hash or sign it).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(self)
    }
}

/// Enums by their case names, both ways.
enum OutcomeNames {
    static func decode<T: CustomStringConvertible>(_ name: String, _ cases: [T], at path: [any CodingKey]) throws -> T {
        guard let match = cases.first(where: { $0.description == name }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "unknown name '\(name)'"))
        }
        return match
    }
}

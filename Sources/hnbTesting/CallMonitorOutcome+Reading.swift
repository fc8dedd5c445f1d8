// Reading an outcome's JSON back (issue 39). The library only writes outcomes
// (`CallMonitorOutcome.jsonData()`, by the package's one writer): an app files the record and
// never reads it, so `hnb` carries no decoder for it. Tests, the tool's checks and an app's own
// tests read records back here, with Foundation's `JSONDecoder`, which this test-support product
// may link at no cost to the app's binary.

import Foundation
import hnb

/// Reads an outcome as `jsonData()` writes it: every key of the schema, enums by their case names;
/// a `schemaVersion` other than ``CallMonitorOutcome/schemaVersion`` (2) is an error rather than a
/// guess. A version 1 record is refused too, with an error that says so: it has no `id` and no
/// `coaching`, and reading it as version 2 would invent an id of 0 and an empty coaching record,
/// a claim the record never made (read it as Schemas/callmonitor-outcome.v1.schema.json says).
extension CallMonitorOutcome: Decodable {
    private enum Key: String, CodingKey {
        case schemaVersion, ending, flow, seconds, startedAt, endedAt, startedDate, endedDate, lowestRemaining, presentations
        case wasScreenCaptured, verdict, verdictArrivedAt, language, shown, policySource, policyVersion, id, coaching
        case questionID, level, source, evaluationID, modelVersion, operationID, consumption
        case surface, at, remaining, frames, framesOmitted
        case title, message, kindLine, detail, verdictLine, countdown, button, contextKind
    }

    /// Reads an outcome as `jsonData()` writes it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let version = try c.decode(Int.self, forKey: .schemaVersion)
        guard version == Self.schemaVersion else {
            let why = version == 1 ? " (a version 1 record has no id and no coaching record; it is not read as version 2)" : ""
            throw DecodingError.dataCorruptedError(
                forKey: .schemaVersion, in: c, debugDescription: "schema version \(version) is not \(Self.schemaVersion)\(why)"
            )
        }
        var coaching: [CoachingEvaluation] = []
        var coachingList = try c.nestedUnkeyedContainer(forKey: .coaching)
        while !coachingList.isAtEnd {
            let e = try coachingList.nestedContainer(keyedBy: Key.self)
            coaching.append(CoachingEvaluation(
                questionID: try e.decode(UInt64.self, forKey: .questionID), at: try e.decode(Int64.self, forKey: .at),
                level: try Self.named(e, .level, CallMonitor.CoachingLevel.allCases),
                source: try Self.named(e, .source, CallMonitor.CoachingSource.allCases),
                evaluationID: try e.decodeIfPresent(String.self, forKey: .evaluationID),
                modelVersion: try e.decodeIfPresent(String.self, forKey: .modelVersion),
                operationID: try e.decodeIfPresent(String.self, forKey: .operationID),
                consumption: try Self.named(e, .consumption, CallMonitor.CoachingConsumption.allCases)
            ))
        }
        var presentations: [Presentation] = []
        var list = try c.nestedUnkeyedContainer(forKey: .presentations)
        while !list.isAtEnd {
            let p = try list.nestedContainer(keyedBy: Key.self)
            presentations.append(Presentation(
                surface: try Self.named(p, .surface, Surface.allCases), at: try p.decode(Int64.self, forKey: .at),
                remaining: try p.decode(Int32.self, forKey: .remaining)
            ))
        }
        var shown: [Shown] = []
        list = try c.nestedUnkeyedContainer(forKey: .shown)
        while !list.isAtEnd {
            let s = try list.nestedContainer(keyedBy: Key.self)
            var frames: [Frame] = []
            var frameList = try s.nestedUnkeyedContainer(forKey: .frames)
            while !frameList.isAtEnd {
                let f = try frameList.nestedContainer(keyedBy: Key.self)
                let kind = try f.decodeIfPresent(String.self, forKey: .contextKind)
                frames.append(Frame(
                    at: try f.decode(Int64.self, forKey: .at), remaining: try f.decode(Int32.self, forKey: .remaining),
                    title: try f.decodeIfPresent(String.self, forKey: .title), message: try f.decodeIfPresent(String.self, forKey: .message),
                    kindLine: try f.decodeIfPresent(String.self, forKey: .kindLine), detail: try f.decodeIfPresent(String.self, forKey: .detail),
                    verdictLine: try f.decodeIfPresent(String.self, forKey: .verdictLine),
                    countdown: try f.decodeIfPresent(String.self, forKey: .countdown), button: try f.decodeIfPresent(String.self, forKey: .button),
                    contextKind: try kind.map { _ in try Self.named(f, .contextKind, CallMonitorContext.Kind.allCases) },
                    verdict: try Self.named(f, .verdict, CallMonitorCallVerdict.allCases)
                ))
            }
            shown.append(Shown(
                surface: try Self.named(s, .surface, Surface.allCases), frames: frames,
                framesOmitted: try s.decode(Int.self, forKey: .framesOmitted)
            ))
        }
        self.init(
            ending: try Self.named(c, .ending, CallMonitorOutcomeEnding.allCases),
            flow: try Self.named(c, .flow, CallMonitorFlow.allCases),
            seconds: try c.decode(Int32.self, forKey: .seconds),
            startedAt: try c.decode(Int64.self, forKey: .startedAt),
            endedAt: try c.decode(Int64.self, forKey: .endedAt),
            startedDate: Date(timeIntervalSince1970: try c.decode(Double.self, forKey: .startedDate)),
            endedDate: Date(timeIntervalSince1970: try c.decode(Double.self, forKey: .endedDate)),
            lowestRemaining: try c.decode(Int32.self, forKey: .lowestRemaining),
            presentations: presentations,
            wasScreenCaptured: try c.decode(Bool.self, forKey: .wasScreenCaptured),
            verdict: try Self.named(c, .verdict, CallMonitorCallVerdict.allCases),
            verdictArrivedAt: try c.decodeIfPresent(Int64.self, forKey: .verdictArrivedAt),
            language: try c.decode(String.self, forKey: .language),
            shown: shown
        )
        id = try c.decode(UInt64.self, forKey: .id)
        self.coaching = coaching
        switch try c.decode(String.self, forKey: .policySource) {
        case "code": policySource = .code
        case "document": policySource = .document(version: try c.decode(Int64.self, forKey: .policyVersion))
        case let name:
            throw DecodingError.dataCorruptedError(forKey: .policySource, in: c, debugDescription: "unknown policy source '\(name)'")
        }
    }

    /// The case of `cases` whose name (its `description`) is the string at `key`.
    private static func named<T: CustomStringConvertible>(_ c: KeyedDecodingContainer<Key>, _ key: Key, _ cases: [T]) throws -> T {
        let name = try c.decode(String.self, forKey: key)
        guard let match = cases.first(where: { $0.description == name }) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "unknown name '\(name)'")
        }
        return match
    }
}

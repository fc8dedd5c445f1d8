// An outcome as evidence (issue 30): what the person saw, frame by frame, and the outcome's
// versioned JSON form, which a bank's backend can file with a fraud case. The schema is
// Schemas/callmonitor-outcome.v2.schema.json (version 2, issue 40: the outcome's id and its
// coaching record; v1.schema.json stays for records written before); DocC "Outcomes as evidence"
// describes it.

import Foundation

extension CallMonitorOutcome {
    /// The version of the outcome's JSON form (``schemaVersion`` in every encoded outcome). A
    /// change that could break a reader (a field removed, renamed or given another meaning) gets a
    /// new version and a new schema file; a new optional field does not. Version 2 (issue 40)
    /// added ``id`` and ``coaching``, both always written, so a version 1 reader that refuses
    /// unknown keys refuses it rather than misreading it.
    public static let schemaVersion = 2

    /// One presentation as the person saw it: the surface, and every frame it showed.
    public struct Shown: Sendable, Equatable {
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
    public struct Frame: Sendable, Equatable {
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

        /// The frame's JSON form: every key written, `null` included, so a reader never has to
        /// guess whether a text was absent or forgotten; keys in sorted order.
        var json: String {
            var o = JSONText.Object()
            o.add("at", at)
            o.add("button", button)
            o.add("contextKind", contextKind?.rawValue)
            o.add("countdown", countdown)
            o.add("detail", detail)
            o.add("kindLine", kindLine)
            o.add("message", message)
            o.add("remaining", Int64(remaining))
            o.add("title", title)
            o.add("verdict", verdict.description)
            o.add("verdictLine", verdictLine)
            return o.text
        }
    }
}

extension CallMonitorOutcome.Shown {
    /// The presentation's JSON form, keys in sorted order.
    var json: String {
        var o = JSONText.Object()
        o.add("frames", json: JSONText.array(frames.map(\.json)))
        o.add("framesOmitted", Int64(framesOmitted))
        o.add("surface", surface.rawValue)
        return o.text
    }
}

extension CallMonitorOutcome.CoachingEvaluation {
    /// The evaluation's JSON form: every key written (`null` for an id or version the source did
    /// not give), enums by their case names, keys in sorted order.
    var json: String {
        var o = JSONText.Object()
        o.add("at", at)
        o.add("consumption", consumption.description)
        o.add("evaluationID", evaluationID)
        o.add("level", level.description)
        o.add("modelVersion", modelVersion)
        o.add("operationID", operationID)
        o.add("questionID", CallMonitorOutcome.jsonInteger(questionID))
        o.add("source", source.description)
        return o.text
    }
}

extension CallMonitorOutcome {
    /// A counter as a JSON integer. The engine's counters start at 1 and grow by one per event or
    /// question, so they never pass `Int64.max`; the clamp only keeps a hand-made value beyond it
    /// from wrapping to a negative number.
    static func jsonInteger(_ value: UInt64) -> Int64 { Int64(clamping: value) }
}

extension CallMonitorOutcome.Presentation {
    /// The surface by its case name, the instant in nanoseconds and the value shown.
    var json: String {
        var o = JSONText.Object()
        o.add("at", at)
        o.add("remaining", Int64(remaining))
        o.add("surface", surface.rawValue)
        return o.text
    }
}

/// The outcome's JSON form, version ``CallMonitorOutcome/schemaVersion``: the keys below, every one
/// written (`null` where there is no value); enums by their case names; instants on the monotonic
/// clock in whole nanoseconds; the wall-clock dates as seconds since 1970 (a number, so no date
/// format or time zone is assumed).
///
/// Written by the package's one JSON writer (`JSONText`), not by `Codable` (issue 39): the same
/// outcome is the same bytes on every platform, and an app does not carry a generic encoder for a
/// record it only writes. Reading an outcome back is for a bank's backend and for tests; the
/// package's reader for them is `hnbTesting`'s `Decodable` conformance.
extension CallMonitorOutcome {
    /// The outcome as JSON: the schema's form, keys sorted, no spaces, so the same outcome is
    /// always the same bytes (a bank can hash or sign it). Strings are escaped as the package's
    /// writer escapes every string (quote, backslash, control characters; `/` as it is).
    ///
    /// - Throws: `EncodingError.invalidValue` when a date is not finite (JSON has no word for
    ///   it); an outcome the monitor recorded always has finite dates.
    public func jsonData() throws -> Data {
        let dates = (JSONText.number(startedDate.timeIntervalSince1970), JSONText.number(endedDate.timeIntervalSince1970))
        guard let started = dates.0, let ended = dates.1 else {
            // The error carries the number, not the `Date`: describing a `Date` of infinity
            // traps in Foundation, and an app may well print this error.
            throw EncodingError.invalidValue(
                (dates.0 == nil ? startedDate : endedDate).timeIntervalSince1970,
                .init(codingPath: [], debugDescription: "a date that is not a finite number")
            )
        }
        var o = JSONText.Object()
        o.add("coaching", json: JSONText.array(coaching.map(\.json)))
        o.add("endedAt", endedAt)
        o.add("endedDate", json: ended)
        o.add("ending", ending.description)
        o.add("flow", flow.description)
        o.add("id", Self.jsonInteger(id))
        o.add("language", language)
        o.add("lowestRemaining", Int64(lowestRemaining))
        // Issue 28: where the policy came from, as two plain keys (a name and the document's
        // `ver`, null for the code) rather than a value of two types.
        switch policySource {
        case .code:
            o.add("policySource", "code")
            o.add("policyVersion", nil as Int64?)
        case .document(let version):
            o.add("policySource", "document")
            o.add("policyVersion", version)
        }
        o.add("presentations", json: JSONText.array(presentations.map(\.json)))
        o.add("schemaVersion", Int64(Self.schemaVersion))
        o.add("seconds", Int64(seconds))
        o.add("shown", json: JSONText.array(shown.map(\.json)))
        o.add("startedAt", startedAt)
        o.add("startedDate", json: started)
        o.add("verdict", verdict.description)
        o.add("verdictArrivedAt", verdictArrivedAt)
        o.add("wasScreenCaptured", wasScreenCaptured)
        // `Data(text.utf8)` compiles a byte-by-byte copy (about 2.5 KiB of the slice); a one-call
        // copy from the string's storage would save it, but takes a pointer, which the Linux
        // Objective-C header check (scripts/objc-header, which compiles this file) cannot
        // type-check.
        return Data(o.text.utf8)
    }
}

// Issue 30, "Outcomes as evidence": the record of what the person saw, the outcome's JSON form,
// and its check against the committed schema (Schemas/callmonitor-outcome.v2.schema.json) for
// every ending. The schema is checked by a small validator written here for exactly the keywords
// the schema uses: a test that needs no package and no Python, and fails on a keyword it does not
// know rather than passing it by.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy
import hnbTesting

@MainActor
@Suite("Evidence: what the person saw, for every ending", .nothingLeftScheduled)
struct EvidenceTests {
    /// Plays one ending through a real monitor and returns its outcome.
    static func outcome(_ ending: CallMonitorOutcomeEnding) throws -> CallMonitorOutcome {
        let h = Harness()
        let context = CallMonitorContext(kind: .payment, detail: "You are sending €2,000 to \u{202E}M.")
        switch ending {
        case .callEnded:
            let p = h.monitor.protect(withTerminateIn: 5, context: context)
            try h.calls.incoming("A")
            h.advance(1)
            try h.calls.end("A")
            p.end()
        case .acknowledged:
            h.monitor.startMonitoring(withAcknowledgeIn: 1)
            try h.calls.incoming("A")
            h.advance(1)
            #expect(h.renderer.tapButton())
            h.monitor.stopMonitoring()
            try h.calls.end("A")
        case .forceExit:
            _ = h.monitor.protect(withTerminateIn: 2, context: context)
            try h.calls.incoming("A")
            h.advance(2)
        case .monitoringStopped:
            h.monitor.startMonitoring(withTerminateIn: 5)
            try h.calls.incoming("A")
            h.monitor.stopMonitoring()
            try h.calls.end("A")
        case .policyChanged:
            h.monitor.startMonitoring(withAcknowledgeIn: 5)
            try h.calls.incoming("A")
            let p = h.monitor.protect(withTerminateIn: 9, context: context)
            p.end()
            h.monitor.stopMonitoring()
            try h.calls.end("A")
        case .callExempted:
            h.monitor.startMonitoring(withTerminateIn: 5)
            try h.calls.incoming("A")
            h.monitor.exemptCall(CallID("A"))
            h.monitor.stopMonitoring()
        case .callDetectionDisabled:
            h.monitor.startMonitoring(withTerminateIn: 5)
            try h.calls.incoming("A")
            h.monitor.setCallDetectionEnabled(false)
            h.monitor.stopMonitoring()
        }
        return try #require(h.outcomes.first { $0.ending == ending })
    }

    @Test("The outcome's JSON validates against the committed schema and reads back as the same outcome", arguments: CallMonitorOutcomeEnding.allCases)
    func validatesForEveryEnding(ending: CallMonitorOutcomeEnding) throws {
        let outcome = try Self.outcome(ending)
        let data = try outcome.jsonData()
        #expect(try outcomeValidator().problems(JSONTree.parse(data)) == [])
        #expect(try JSONDecoder().decode(CallMonitorOutcome.self, from: data) == outcome)
        // The same outcome is the same bytes.
        #expect(try outcome.jsonData() == data)
        #expect(!outcome.shown.isEmpty && outcome.shown.allSatisfy { !$0.frames.isEmpty })
    }

    @Test("An outcome of another schemaVersion, version 1 included, is refused when read, never taken for version 2")
    func otherSchemaVersionRefused() throws {
        let text = String(decoding: try Self.outcome(.forceExit).jsonData(), as: UTF8.self)
        #expect(text.contains(#""schemaVersion":2"#))
        for other in ["0", "1", "3", "-1", "10"] {
            let data = Data(text.replacingOccurrences(of: #""schemaVersion":2"#, with: #""schemaVersion":\#(other)"#).utf8)
            #expect(throws: DecodingError.self, "\(other)") { try JSONDecoder().decode(CallMonitorOutcome.self, from: data) }
        }
    }

    @Test("An outcome under a document names its policyVersion in the JSON, validates against the schema and reads back the same")
    func documentSourceRoundTrip() throws {
        var outcome = try Self.outcome(.forceExit)
        outcome.policySource = .document(version: 12)
        let data = try outcome.jsonData()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""policySource":"document""#))
        #expect(text.contains(#""policyVersion":12"#))
        #expect(try outcomeValidator().problems(JSONTree.parse(data)) == [])
        let read = try JSONDecoder().decode(CallMonitorOutcome.self, from: data)
        #expect(read.policySource == .document(version: 12))
        #expect(read == outcome)
    }

    @Test("The built-in dialog's record holds every text drawn, frame by frame, with the detail as cleaned")
    func builtInDialogFrames() throws {
        let outcome = try Self.outcome(.forceExit)
        let frame = { (at: Int64, remaining: Int32, countdown: String) in
            CallMonitorOutcome.Frame(
                at: at, remaining: remaining, title: "Security Policy", message: "Application access is disabled during active calls for your protection.",
                kindLine: "Your bank will never ask you to move money while you are on a call.", detail: "You are sending €2,000 to M.",
                countdown: countdown, button: "Close App", contextKind: .payment
            )
        }
        #expect(outcome.language == "en")
        #expect(outcome.shown == [CallMonitorOutcome.Shown(surface: .builtInDialog, frames: [
            frame(0, 2, "App will close in 2 seconds."), frame(1_000_000_000, 1, "App will close in 1 second."),
            frame(2_000_000_000, 0, "App will close in 0 seconds."),
        ])])
    }

    @Test("A delegate's record holds what it was told: the values with their instants, the context and the verdict, no texts")
    func delegateFrames() throws {
        let h = Harness(callback: false)
        let delegate = ContextRecordingDelegate(log: h.log)
        h.monitor.setDelegate(delegate)
        let p = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .credentials))
        try h.calls.incoming("A")
        h.advance(1)
        let q = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .general, detail: "Adding a payee."))
        h.advance(1.5)
        h.monitor.setDelegate(nil)
        try h.calls.end("A")
        q.end()
        p.end()
        _ = h.take()
        let outcome = try #require(h.outcomes.first)
        #expect(outcome.shown == [
            CallMonitorOutcome.Shown(surface: .delegate, frames: [
                .init(at: 0, remaining: 2, contextKind: .credentials),
                .init(at: 1_000_000_000, remaining: 1, contextKind: .credentials),
                .init(at: 1_000_000_000, remaining: 1, detail: "Adding a payee.", contextKind: .general),
                .init(at: 2_000_000_000, remaining: 0, detail: "Adding a payee.", contextKind: .general),
            ]),
            CallMonitorOutcome.Shown(surface: .builtInDialog, frames: [
                .init(at: 2_500_000_000, remaining: 0, title: "Security Policy", message: "Using this application during an active call may expose sensitive information.",
                      detail: "Adding a payee.", button: "Acknowledge", contextKind: .general),
            ]),
        ])
    }

    @Test("A presentation keeps at most 512 frames, the first 256 and the latest 256, and counts the rest")
    func frameLimit() {
        var record = ShownRecorder()
        record.begin(.builtInDialog)
        for value in stride(from: Int32(600), through: 0, by: -1) {
            record.drew(SecurityAlert(flow: .terminate, remaining: value, strings: .english), verdict: .unknown, at: Int64(600 - value))
        }
        let shown = record.take()
        #expect(shown.count == 1)
        #expect(shown[0].frames.count == 512)
        #expect(shown[0].framesOmitted == 601 - 512)
        #expect(shown[0].frames.map(\.remaining) == Array((345...600).reversed()) + Array((0...255).reversed()))
        #expect(record.take() == [])
    }

    @Test("A frame that shows nothing new is not kept")
    func sameFrameOnce() {
        var record = ShownRecorder()
        record.begin(.builtInDialog)
        let alert = SecurityAlert(flow: .terminate, remaining: 3, strings: .english)
        record.drew(alert, verdict: .unknown, at: 0)
        record.drew(alert, verdict: .unknown, at: 5)
        #expect(record.take().first?.frames.map(\.at) == [0])
    }
}

// MARK: A JSON reader and a validator for the schema's keywords

/// A JSON value as parsed: integers kept apart from other numbers, as the schema's `integer` needs.
indirect enum JSONTree: Equatable {
    case null, bool(Bool), integer(Int64), number(Double), string(String), array([JSONTree]), object([String: JSONTree])

    static func parse(_ data: Data) throws -> JSONTree {
        var reader = Reader(bytes: Array(data))
        let value = try reader.value()
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw Reader.Failure(message: "text after the value") }
        return value
    }

    struct Reader {
        struct Failure: Error { let message: String }
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() { while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 } }

        mutating func value() throws -> JSONTree {
            skipSpace()
            guard index < bytes.count else { throw Failure(message: "end of text") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var object: [String: JSONTree] = [:]
                skipSpace()
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
                while true {
                    skipSpace()
                    guard case .string(let key) = try value() else { throw Failure(message: "a key that is not a string") }
                    skipSpace()
                    guard bytes[index] == UInt8(ascii: ":") else { throw Failure(message: "no colon") }
                    index += 1
                    guard object.updateValue(try value(), forKey: key) == nil else { throw Failure(message: "key \(key) twice") }
                    skipSpace()
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "}") else { throw Failure(message: "no comma or brace") }
                    index += 1
                    return .object(object)
                }
            case UInt8(ascii: "["):
                index += 1
                var array: [JSONTree] = []
                skipSpace()
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(array) }
                while true {
                    array.append(try value())
                    skipSpace()
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "]") else { throw Failure(message: "no comma or bracket") }
                    index += 1
                    return .array(array)
                }
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                index += 1
                // The quoted text is itself JSON: Foundation decodes its escapes.
                let text = try JSONDecoder().decode(String.self, from: Data(bytes[start..<index]))
                return .string(text)
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default:
                let start = index
                while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                if let integer = Int64(text) { return .integer(integer) }
                guard let number = Double(text) else { throw Failure(message: "bad number \(text)") }
                return .number(number)
            }
        }

        mutating func literal(_ word: String, _ value: JSONTree) throws -> JSONTree {
            guard bytes[index...].starts(with: word.utf8) else { throw Failure(message: "bad literal") }
            index += word.utf8.count
            return value
        }
    }
}

/// Checks a value against a schema that uses only these keywords (any other is an error):
/// `$schema`, `$id`, `title`, `description` (annotations), `type` (a name or a list of names),
/// `const`, `enum`, `required`, `properties`, `additionalProperties: false`, `items`, `minItems`,
/// `maxItems`, `minimum`, `maximum`, `minLength` (in characters, as JSON Schema counts: code points),
/// `$ref` to `#/$defs/NAME`, and `$defs`.
struct SchemaValidator {
    let root: [String: JSONTree]
    static let known: Set<String> = [
        "$schema", "$id", "title", "description", "type", "const", "enum", "required", "properties", "additionalProperties",
        "items", "minItems", "maxItems", "minimum", "maximum", "minLength", "$ref", "$defs",
    ]

    /// Every problem found, each with the path where it is; empty when `value` is valid.
    func problems(_ value: JSONTree, _ schema: [String: JSONTree]? = nil, at path: String = "$") -> [String] {
        let schema = schema ?? root
        var found: [String] = []
        for key in schema.keys where !Self.known.contains(key) { found.append("\(path): the validator does not know the keyword \(key)") }
        if case .string(let ref)? = schema["$ref"] {
            let name = String(ref.dropFirst("#/$defs/".count))
            guard ref.hasPrefix("#/$defs/"), case .object(let defs)? = root["$defs"], case .object(let target)? = defs[name] else {
                return found + ["\(path): unresolved $ref \(ref)"]
            }
            found += problems(value, target, at: path)
        }
        if let type = schema["type"] {
            let names: [String] = switch type {
            case .string(let one): [one]
            case .array(let many): many.compactMap { if case .string(let s) = $0 { s } else { nil } }
            default: []
            }
            if !names.contains(where: { Self.has(value, type: $0) }) { found.append("\(path): not of type \(names)") }
        }
        if let constant = schema["const"], constant != value { found.append("\(path): not the constant") }
        if case .array(let choices)? = schema["enum"], !choices.contains(value) { found.append("\(path): \(value) is not one of the enum") }
        if case .object(let object) = value {
            if case .array(let required)? = schema["required"] {
                for case .string(let key) in required where object[key] == nil { found.append("\(path): \(key) is missing") }
            }
            let properties: [String: JSONTree] = if case .object(let p)? = schema["properties"] { p } else { [:] }
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                if case .object(let sub)? = properties[key] {
                    found += problems(member, sub, at: "\(path).\(key)")
                } else if schema["additionalProperties"] == .bool(false) {
                    found.append("\(path): \(key) is not allowed")
                }
            }
        }
        if case .array(let items) = value {
            if case .integer(let least)? = schema["minItems"], items.count < least { found.append("\(path): fewer than \(least) items") }
            if case .integer(let most)? = schema["maxItems"], items.count > most { found.append("\(path): more than \(most) items") }
            if case .object(let itemSchema)? = schema["items"] {
                for (index, item) in items.enumerated() { found += problems(item, itemSchema, at: "\(path)[\(index)]") }
            }
        }
        if let number = Self.number(value) {
            if let least = schema["minimum"].flatMap(Self.number), number < least { found.append("\(path): below \(least)") }
            if let most = schema["maximum"].flatMap(Self.number), number > most { found.append("\(path): above \(most)") }
        }
        if case .string(let text) = value, case .integer(let least)? = schema["minLength"], text.unicodeScalars.count < least {
            found.append("\(path): shorter than \(least)")
        }
        return found
    }

    static func has(_ value: JSONTree, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .integer), ("number", .integer), ("number", .number),
             ("string", .string), ("array", .array), ("object", .object): true
        default: false
        }
    }

    static func number(_ value: JSONTree) -> Double? {
        switch value {
        case .integer(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }
}

let schemaURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Schemas/callmonitor-outcome.v2.schema.json")

func outcomeValidator() throws -> SchemaValidator {
    guard case .object(let root) = try JSONTree.parse(Data(contentsOf: schemaURL)) else { throw JSONTree.Reader.Failure(message: "not an object") }
    return SchemaValidator(root: root)
}

// MARK: The tests

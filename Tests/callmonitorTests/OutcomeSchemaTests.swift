// Issue 37, item 12: the simulator's outcome line carries the evidence record itself, and every
// one in the expected transcripts validates against Schemas/callmonitor-outcome.v2.schema.json,
// read from the source tree. The check below knows exactly the keywords that schema uses and
// refuses any other, so the schema cannot grow past what is checked without this test saying so.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy
import hnbTesting
import ScenarioLanguage

/// The schema file, from the package root.
let outcomeSchemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Schemas/callmonitor-outcome.v2.schema.json")

/// A JSON Schema (2020-12) check of the keywords the outcome schema uses: `type`, `const`, `enum`,
/// `required`, `properties`, `additionalProperties: false`, `items`, `minItems`, `maxItems`,
/// `minimum`, `maximum`, `minLength` and local `$ref`s into `$defs`; the annotations (`$schema`,
/// `$id`, `title`, `description`) are skipped. Integers and other numbers are told apart as JSON
/// writes them (StrictJSON keeps the difference).
struct OutcomeSchema {
    let root: StrictJSON

    init(root: StrictJSON) { self.root = root }

    init(contentsOf url: URL) throws {
        root = try StrictJSON.parse(Array(try Data(contentsOf: url)))
    }

    /// Every way `value` breaks the schema, each with its JSON path; empty when it is valid.
    func errors(in value: StrictJSON) -> [String] {
        var errors: [String] = []
        check(value, against: root, at: "$", into: &errors)
        return errors
    }

    private static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$defs"]

    private func check(_ value: StrictJSON, against schema: StrictJSON, at path: String, into errors: inout [String]) {
        guard case .object(let keywords) = schema else { return errors.append("\(path): the schema there is not an object") }
        for (keyword, argument) in keywords where !Self.annotations.contains(keyword) {
            switch keyword {
            case "$ref":
                guard case .string(let reference) = argument, reference.hasPrefix("#/$defs/"),
                      let target = root["$defs"]?[String(reference.dropFirst("#/$defs/".count))] else {
                    errors.append("\(path): unresolvable $ref \(argument)"); continue
                }
                check(value, against: target, at: path, into: &errors)
            case "type":
                let allowed: [String]
                switch argument {
                case .string(let one): allowed = [one]
                case .array(let many): allowed = many.compactMap { if case .string(let name) = $0 { name } else { nil } }
                default: errors.append("\(path): bad type keyword"); continue
                }
                if !allowed.contains(where: { Self.has(value, type: $0) }) { errors.append("\(path): \(Self.describe(value)) is not of type \(allowed)") }
            case "const":
                if !Self.same(value, argument) { errors.append("\(path): \(Self.describe(value)) is not the constant \(Self.describe(argument))") }
            case "enum":
                guard case .array(let options) = argument else { errors.append("\(path): bad enum keyword"); continue }
                if !options.contains(where: { Self.same(value, $0) }) { errors.append("\(path): \(Self.describe(value)) is not one of " + options.map(Self.describe).joined(separator: ", ")) }
            case "required":
                guard case .array(let names) = argument else { errors.append("\(path): bad required keyword"); continue }
                guard case .object = value else { continue }
                for case .string(let name) in names where value[name] == nil { errors.append("\(path): missing \(name)") }
            case "properties":
                guard case .object(let properties) = argument, case .object(let members) = value else { continue }
                for (name, member) in members {
                    if let property = properties.first(where: { $0.key == name }) { check(member, against: property.value, at: "\(path).\(name)", into: &errors) }
                }
            case "additionalProperties":
                guard case .bool(false) = argument else { errors.append("\(path): only additionalProperties: false is checked"); continue }
                guard case .object(let members) = value, case .object(let properties)? = keywords.first(where: { $0.key == "properties" })?.value else { continue }
                for (name, _) in members where !properties.contains(where: { $0.key == name }) { errors.append("\(path): unexpected member \(name)") }
            case "items":
                guard case .array(let elements) = value else { continue }
                for (index, element) in elements.enumerated() { check(element, against: argument, at: "\(path)[\(index)]", into: &errors) }
            case "minItems", "maxItems":
                guard case .array(let elements) = value, case .integer(let bound) = argument else { continue }
                if keyword == "minItems" ? elements.count < bound : elements.count > bound { errors.append("\(path): \(elements.count) items breaks \(keyword) \(bound)") }
            case "minimum", "maximum":
                guard let number = Self.number(value), let bound = Self.number(argument) else { continue }
                if keyword == "minimum" ? number < bound : number > bound { errors.append("\(path): \(number) breaks \(keyword) \(bound)") }
            case "minLength":
                guard case .string(let text) = value, case .integer(let bound) = argument else { continue }
                if text.count < bound { errors.append("\(path): \"\(text)\" is shorter than \(bound)") }
            default:
                errors.append("\(path): the schema uses \(keyword), which this check does not know")
            }
        }
    }

    private static func has(_ value: StrictJSON, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null), ("integer", .integer),
             ("number", .integer), ("number", .number): true
        default: false
        }
    }

    private static func number(_ value: StrictJSON) -> Double? {
        switch value {
        case .integer(let integer): Double(integer)
        case .number(let number, _): number
        default: nil
        }
    }

    private static func same(_ a: StrictJSON, _ b: StrictJSON) -> Bool { describe(a) == describe(b) }

    /// A value's canonical text, for messages and for `const` and `enum`, which only hold scalars here.
    private static func describe(_ value: StrictJSON) -> String {
        switch value {
        case .object(let members): "{" + members.map { "\($0.key):\(describe($0.value))" }.joined(separator: ",") + "}"
        case .array(let elements): "[" + elements.map(describe).joined(separator: ",") + "]"
        case .string(let text): "\"\(text)\""
        case .integer(let integer): String(integer)
        case .number(_, let literal): literal
        case .bool(let flag): String(flag)
        case .null: "null"
        }
    }
}

extension CommandLineTests {
    @Suite("callmonitor simulate: outcome lines are the evidence record (issue 37)")
    struct OutcomeSchemaTests {
        @Test("Every outcome line of every expected transcript holds the evidence record, which validates against the schema, its endedAt the line's instant")
        func transcriptsValidate() throws {
            let schema = try OutcomeSchema(contentsOf: outcomeSchemaURL)
            var checked = 0
            for name in scenarioNames() {
                let text = try String(contentsOf: scenarioDirectory.appendingPathComponent("\(name).jsonl"), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let value = try StrictJSON.parse(Array(line.utf8))
                    guard value["kind"].flatMap({ if case .string(let kind) = $0 { kind } else { nil } }) == "outcome" else { continue }
                    // The line is `t`, `kind` and `outcome`: nothing of the record is written twice.
                    guard case .object(let members) = value else { Issue.record("\(name): not an object"); continue }
                    #expect(members.map(\.key) == ["t", "kind", "outcome"], "\(name): \(line)")
                    let outcome = try #require(value["outcome"], "\(name): no outcome member")
                    #expect(schema.errors(in: outcome) == [], "\(name): \(line)")
                    // The record's end is the line's instant (seconds in `t`, nanoseconds in the record).
                    if case .integer(let endedAt)? = outcome["endedAt"], let t = value["t"] {
                        #expect(ScenarioWriter.seconds(endedAt) == Self.text(t), "\(name): \(line)")
                    } else {
                        Issue.record("\(name): no integer endedAt in \(line)")
                    }
                    checked += 1
                }
            }
            // The transcripts hold 94 outcomes today; fewer than 90 would mean the scan missed them.
            #expect(checked >= 90, "only \(checked) outcome lines were checked")
        }

        @Test("The outcome line of a run of the tool is the library's jsonData(), byte for byte")
        func lineIsTheLibrarysRecord() async throws {
            let result = try await runTool(["simulate", "-"], input: "0 start terminate 1\n0.5 incoming A\n9 wait\n")
            #expect(result.status == 0)
            let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("\"kind\":\"outcome\"") })
            let record = try #require(line.range(of: "\"outcome\":").map { line[$0.upperBound...].dropLast() })
            let decoded = try JSONDecoder().decode(CallMonitorOutcome.self, from: Data(record.utf8))
            #expect(String(decoding: try decoded.jsonData(), as: UTF8.self) == String(record))
            #expect(decoded.ending == .forceExit)
            #expect(decoded.startedAt == 500_000_000)
            #expect(decoded.endedAt == 1_500_000_000)
            #expect(decoded.lowestRemaining == 0)
        }

        @Test("The check can fail: the old outcome line, a record without schemaVersion, a wrong type, an unknown member and an unknown keyword are each refused")
        func checkRefuses() throws {
            let schema = try OutcomeSchema(contentsOf: outcomeSchemaURL)
            let good = #"{"coaching":[],"endedAt":1500000000,"endedDate":1767225601.5,"ending":"forceExit","flow":"terminate","id":1,"language":"en","lowestRemaining":0,"policySource":"code","policyVersion":null,"presentations":[{"at":500000000,"remaining":1,"surface":"builtInDialog"}],"schemaVersion":2,"seconds":1,"shown":[{"frames":[{"at":500000000,"button":"Close App","contextKind":null,"countdown":"App will close in 1 second.","detail":null,"kindLine":null,"message":"M","remaining":1,"title":"T","verdict":"unknown","verdictLine":null}],"framesOmitted":0,"surface":"builtInDialog"}],"startedAt":500000000,"startedDate":1767225600.5,"verdict":"unknown","verdictArrivedAt":null,"wasScreenCaptured":false}"#
            #expect(schema.errors(in: try StrictJSON.parse(Array(good.utf8))) == [])
            let old = #"{"ending":"forceExit","flow":"terminate","startedAt":0.5,"lowestRemaining":0,"shownOn":"builtInDialog","captured":false,"verdict":"unknown","verdictAt":null,"policySource":"code","language":"en","shown":[]}"#
            let oldErrors = schema.errors(in: try StrictJSON.parse(Array(old.utf8)))
            #expect(oldErrors.contains("$: missing schemaVersion"))
            #expect(oldErrors.contains("$: unexpected member shownOn"))
            #expect(oldErrors.contains("$.startedAt: 0.5 is not of type [\"integer\"]"))
            #expect(oldErrors.contains("$.shown: 0 items breaks minItems 1"))
            let wrong = good.replacingOccurrences(of: #""schemaVersion":2"#, with: #""schemaVersion":1"#)
                .replacingOccurrences(of: #""contextKind":null"#, with: #""contextKind":"lottery""#)
            #expect(schema.errors(in: try StrictJSON.parse(Array(wrong.utf8))) == [
                "$.schemaVersion: 1 is not the constant 2",
                #"$.shown[0].frames[0].contextKind: "lottery" is not one of "payment", "credentials", "deviceChange", "accountChange", "general", null"#,
            ])
            let strange = OutcomeSchema(root: try StrictJSON.parse(Array(#"{"type":"object","patternProperties":{}}"#.utf8)))
            #expect(strange.errors(in: .object([])) == ["$: the schema uses patternProperties, which this check does not know"])
        }

        /// A scalar's JSON text.
        static func text(_ value: StrictJSON) -> String {
            switch value {
            case .integer(let integer): String(integer)
            case .number(_, let literal): literal
            default: "\(value)"
            }
        }
    }
}

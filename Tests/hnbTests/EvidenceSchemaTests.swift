// Split out of EvidenceTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy
import hnbTesting

@Suite("Evidence: the schema and its validator")
struct EvidenceSchemaTests {
    @Test("The validator rejects what the schema forbids: a wrong type, a missing key, an extra key, a name outside an enum, a wrong version")
    func validatorCanFail() throws {
        let validator = try outcomeValidator()
        let outcome = CallMonitorOutcome(
            ending: .callEnded, flow: .terminate, seconds: 5, startedAt: 0, endedAt: 1, startedDate: Date(timeIntervalSince1970: 0),
            endedDate: Date(timeIntervalSince1970: 1), lowestRemaining: 5, presentations: [.init(surface: .builtInDialog, at: 0, remaining: 5)],
            wasScreenCaptured: false, shown: [.init(surface: .builtInDialog, frames: [.init(at: 0, remaining: 5, title: "T")])]
        )
        guard case .object(let good) = try JSONTree.parse(outcome.jsonData()) else { Issue.record("not an object"); return }
        #expect(validator.problems(.object(good)) == [])
        func broken(_ change: (inout [String: JSONTree]) -> Void) -> [String] {
            var copy = good
            change(&copy)
            return validator.problems(.object(copy))
        }
        #expect(broken { $0["seconds"] = .string("5") } == ["$.seconds: not of type [\"integer\"]"])
        #expect(broken { $0["language"] = nil } == ["$: language is missing"])
        #expect(broken { $0["extra"] = .null } == ["$: extra is not allowed"])
        #expect(broken { $0["ending"] = .string("hungUp") } == ["$.ending: string(\"hungUp\") is not one of the enum"])
        #expect(broken { $0["schemaVersion"] = .integer(1) } == ["$.schemaVersion: not the constant"])
        #expect(broken { $0["shown"] = .array([]) } == ["$.shown: fewer than 1 items"])
        #expect(broken { $0["lowestRemaining"] = .integer(-1) } == ["$.lowestRemaining: below 0.0"])
        #expect(SchemaValidator(root: ["format": .string("date")]).problems(.null) == ["$: the validator does not know the keyword format"])
    }

    @Test("The schema file is JSON in the 2020-12 dialect and names version 2")
    func schemaFile() throws {
        guard case .object(let root) = try JSONTree.parse(Data(contentsOf: schemaURL)) else { Issue.record("not an object"); return }
        #expect(root["$schema"] == .string("https://json-schema.org/draft/2020-12/schema"))
        #expect(root["properties"].map { if case .object(let p) = $0 { p["schemaVersion"] == .object(["const": .integer(2)]) } else { false } } == true)
        #expect(CallMonitorOutcome.schemaVersion == 2)
    }
}

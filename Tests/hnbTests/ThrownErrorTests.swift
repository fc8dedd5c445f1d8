// The products' readers throw untyped (Sources/hnb/Core/ThrownError.swift says why), each one
// type only; the catching side narrows with `narrowed(or:)`, whose fallback must refuse. These
// tests pin both halves: each reader throws exactly its one type for bad input, and a narrowing
// keeps that error whole or falls back to a refusal, never to something that reads as accepted.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy
import ScenarioLanguage

@Suite("Untyped throws: each reader throws its one type, and a catch narrows to it or refuses")
struct ThrownErrorTests {
    private struct Other: Error {}

    @Test("An error of the named type comes back whole; any other type becomes the fallback")
    func narrowsOrFallsBack() {
        let refusal = PolicyRefusal(.badSignature, "signature: does not verify")
        let caught: any Error = refusal
        #expect(caught.narrowed(or: PolicyRefusal.unexpected) == refusal)
        let other: any Error = Other()
        #expect(other.narrowed(or: PolicyRefusal.unexpected) == PolicyRefusal.unexpected)
        let scenario: any Error = ScenarioError(line: 4, message: "unknown command 'x'")
        #expect(scenario.narrowed(or: ScenarioError.unexpected) == ScenarioError(line: 4, message: "unknown command 'x'"))
        // An error of a neighbouring type of this package is not taken for the named one.
        #expect(scenario.narrowed(or: PolicyWordError.unexpected) == PolicyWordError.unexpected)
    }

    @Test("Every fallback is a refusal: malformed, not JSON, a key set or manifest not read, a scenario not read")
    func fallbacksRefuse() {
        #expect(PolicyRefusal.unexpected.reason == .malformed)
        #expect(PolicyRefusal.unexpected.detail == "the reader failed unexpectedly; the document is refused")
        #expect(StrictJSON.Failure.unexpected == .syntax(at: 0))
        #expect(PolicyKeySet.Failure.unexpected.description == "the key set could not be read")
        #expect(PolicyManifest.ReadError.unexpected.message == "the manifest could not be read")
        #expect(ScenarioError.unexpected == ScenarioError(line: 0, message: "the scenario could not be read"))
        #expect(PolicyWordError.unexpected.message == "the word could not be read")
    }

    @Test("Each reader throws exactly its own type for bad input, so no catch ever takes its fallback")
    func readersThrowTheirType() {
        #expect(throws: StrictJSON.Failure.duplicateKey("a")) { try StrictJSON.parse(Array(#"{"a":1,"a":2}"#.utf8)) }
        #expect(throws: PolicyKeySet.Failure("the key set is not JSON")) { try PolicyKeySet.parse(Array("[".utf8)) }
        #expect(throws: PolicyKeySet.Failure("the key set names \"a\" twice in one object")) {
            try PolicyKeySet.parse(Array(#"{"a":1,"a":2}"#.utf8))
        }
        #expect(throws: PolicyManifest.ReadError.self) { try PolicyManifest.parse(Array("[]".utf8)) }
        #expect(throws: ScenarioError(line: 2, message: "missing command after the time")) { try ScenarioParser.parse("0 start terminate 5\n1") }
        #expect(throws: PolicyWordError.self) { try PolicyWords.seconds("five") }
        // The verifier's answer names the real refusal, not the fallback's.
        guard case .failure(let refusal) = PolicyDocument.verifyExplained(Array("a.b".utf8), keys: nil, issuer: "bank", crypto: nil) else {
            Issue.record("a two-part document was not refused")
            return
        }
        #expect(refusal != PolicyRefusal.unexpected)
        #expect(refusal.reason != .malformed || refusal.detail != PolicyRefusal.unexpected.detail)
    }
}

// Rule 35 and the app's manifest: the manifest writes the code's coaching policy and reads it back,
// an older manifest without it still reads (as not known), and the tool's relaxation check names a
// document's coaching levels that weaken a build's code, or, with no manifest or one that does not
// say, any level below the strictest code there could be.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy

@Suite("Remote policy: the coaching member and the app's manifest (rule 35)")
struct RemoteCoachingManifestTests {
    let signer = PolicyTestSigner.shared
    static let at = Date(timeIntervalSince1970: 1_767_312_000)

    func document(_ levels: String) throws -> (PolicyDocument, [UInt8]) {
        let bytes = signer.document(rules: #"[{"policy":{"coaching":{"screens":{"transfer":\#(levels)}}}}]"#)
        return (try #require(signer.verify(bytes).value), bytes)
    }

    static func build(coaching: CallMonitor.CoachingPolicy?) -> PolicyManifest {
        var build = PolicyManifest()
        build.issuer = "com.bank.app"
        build.kids = ["ed-1", "ec-1"]
        build.coaching = coaching
        return build
    }

    @Test("Rule 35: the manifest writes the engine's coaching policy and reads it back as the same bytes")
    func writesAndReadsTheCoachingPolicy() throws {
        var engine = MonitorEngine()
        _ = engine.handle(.coachingPolicy(.init(medium: .evaluate, high: .acknowledge(seconds: 12))), now: 0)
        let json = engine.codeManifest().json
        #expect(json == #"{"allowsRelaxation":false,"appVersion":null,"appWide":null,"attributes":[],"coaching":{"high":{"response":"acknowledge","seconds":12},"medium":{"response":"evaluate","seconds":null}},"detection":true,"issuer":null,"kids":[],"schemaVersion":1,"screenCaptured":null,"screens":[]}"#)
        #expect(try PolicyManifest.parse(Array(json.utf8)).json == json)
        #expect(try PolicyManifest.parse(Array(json.utf8)).coaching == .init(medium: .evaluate, high: .acknowledge(seconds: 12)))
    }

    @Test("Rule 35: a manifest without coaching (written before rule 35) reads as not known; a bad one is refused with the member")
    func olderAndBadManifests() throws {
        let old = #"{"allowsRelaxation":false,"appVersion":null,"appWide":null,"attributes":[],"detection":true,"issuer":"i","kids":["k1"],"schemaVersion":1,"screenCaptured":null,"screens":[]}"#
        #expect(try PolicyManifest.parse(Array(old.utf8)).coaching == nil)
        let bad = old.replacingOccurrences(of: #""detection""#, with: #""coaching":{"high":{"response":"acknowledge","seconds":-1},"medium":{"response":"off","seconds":null}},"detection""#)
        #expect(throws: PolicyManifest.ReadError(message: #"coaching.high: expected {"response": "off"|"evaluate", "seconds": null} or {"response": "acknowledge", "seconds": N}, got an object"#)) {
            try PolicyManifest.parse(Array(bad.utf8))
        }
        let unknown = old.replacingOccurrences(of: #""detection""#, with: #""coaching":{"low":{"response":"off","seconds":null}},"detection""#)
        #expect(throws: PolicyManifest.ReadError(message: #"coaching: "low" is not a level (expected only high and medium)"#)) {
            try PolicyManifest.parse(Array(unknown.utf8))
        }
    }

    @Test("Rule 35: the tool names a weakening coaching level against the build's code, and the judgement refuses it there")
    func relaxationsAgainstTheBuild() throws {
        let (off, offBytes) = try document(#"{"medium":"off"}"#)
        let (eight, eightBytes) = try document(#"{"medium":{"flow":"acknowledge","seconds":8}}"#)
        let code = Self.build(coaching: .init())
        #expect(off.relaxations(of: code).map(\.path) == ["rules[0].policy.coaching.screens.transfer"])
        #expect(eight.relaxations(of: code) == [])
        #expect(PolicyDocument.judge(offBytes, keys: signer.keys, crypto: PolicyTestSigner.crypto, manifest: code, at: Self.at).verdict
            == .rejected(.relaxationNotAllowed))
        #expect(PolicyDocument.judge(eightBytes, keys: signer.keys, crypto: PolicyTestSigner.crypto, manifest: code, at: Self.at).verdict == .applied)
        // A build that evaluates only: off is still weaker; evaluate is not.
        let evaluating = Self.build(coaching: .init(medium: .evaluate, high: .evaluate))
        #expect(off.relaxations(of: evaluating).map(\.path) == ["rules[0].policy.coaching.screens.transfer"])
        #expect(try document(#"{"medium":"evaluate","high":"evaluate"}"#).0.relaxations(of: evaluating) == [])
    }

    @Test("Rule 35: without a manifest, or with one that does not say, every coaching level below the strictest code is named")
    func unjudgedWithoutTheCode() throws {
        let (eight, eightBytes) = try document(#"{"medium":{"flow":"acknowledge","seconds":8}}"#)
        #expect(eight.relaxations(of: .strictest(for: eight)).map(\.path) == ["rules[0].policy.coaching.screens.transfer"])
        #expect(eight.relaxations(of: Self.build(coaching: nil)).map(\.path) == ["rules[0].policy.coaching.screens.transfer"])
        #expect(PolicyDocument.judge(eightBytes, keys: signer.keys, crypto: PolicyTestSigner.crypto, manifest: Self.build(coaching: nil), at: Self.at).verdict
            == .rejected(.relaxationNotAllowed))
        let (max, _) = try document(#"{"medium":{"flow":"acknowledge","seconds":2147483647},"high":"code"}"#)
        #expect(max.relaxations(of: .strictest(for: max)) == [])
    }
}

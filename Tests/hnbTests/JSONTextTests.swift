// Issue 39: the package's one JSON writer (`JSONText`) and the outcome's JSON form written by it,
// byte for byte: the same outcome is the same bytes on every platform, keys sorted, every key
// written, strings escaped as every other line of the package escapes them.

import Foundation
import Testing
@testable import hnb
import hnbTesting

@Suite("The package's one JSON writer and the outcome's bytes")
struct JSONTextTests {
    @Test("Numbers: the shortest text that reads back the same, no trailing .0; not finite is nil")
    func numbers() {
        #expect(JSONText.number(1_700_000_000) == "1700000000")
        #expect(JSONText.number(1.5) == "1.5")
        #expect(JSONText.number(-2.5) == "-2.5")
        #expect(JSONText.number(0) == "0")
        #expect(JSONText.number(1e16) == "1e+16")
        #expect(JSONText.number(1e-7) == "1e-07")
        #expect(JSONText.number(1_764_842_165.999) == "1764842165.999")
        #expect(JSONText.number(.infinity) == nil)
        #expect(JSONText.number(-.infinity) == nil)
        #expect(JSONText.number(.nan) == nil)
    }

    @Test("Objects keep the order members were added, write nil as null, and nest written JSON as it is")
    func objects() {
        var inner = JSONText.Object()
        inner.add("b", 2 as Int64?)
        var o = JSONText.Object()
        #expect(o.text == "{}")
        o.add("z", "a/\"\\\n\u{8}\u{1F}é")
        o.add("a", nil as String?)
        o.add("n", nil as Int64?)
        o.add("t", true)
        o.add("list", json: JSONText.array([inner.text, "null"]))
        #expect(o.text == #"{"z":"a/\"\\\n\u0008\u001fé","a":null,"n":null,"t":true,"list":[{"b":2},null]}"#)
        #expect(JSONText.array([]) == "[]")
    }

    /// An outcome with every field set, and one frame with every text.
    static let outcome: CallMonitorOutcome = {
        var outcome = CallMonitorOutcome(
            ending: .forceExit, flow: .terminate, seconds: 2, startedAt: 5, endedAt: 2_000_000_005,
            startedDate: Date(timeIntervalSince1970: 1_764_842_165.5), endedDate: Date(timeIntervalSince1970: 1_764_842_167),
            lowestRemaining: 0, presentations: [.init(surface: .builtInDialog, at: 5, remaining: 2)], wasScreenCaptured: true,
            verdict: .bankIsNotCalling, verdictArrivedAt: 7, language: "en",
            shown: [.init(surface: .builtInDialog, frames: [.init(
                at: 5, remaining: 2, title: "T", message: "M", kindLine: "K", detail: "a/b \"c\"", verdictLine: "V", countdown: "C",
                button: "B", contextKind: .payment, verdict: .bankIsNotCalling
            )], framesOmitted: 3)]
        )
        outcome.policySource = .document(version: 12)
        return outcome
    }()

    @Test("An outcome's bytes: keys sorted at every level, every key written, no spaces, and they read back as the outcome")
    func outcomeBytes() throws {
        let text = String(decoding: try Self.outcome.jsonData(), as: UTF8.self)
        #expect(text == """
            {"coaching":[],"endedAt":2000000005,"endedDate":1764842167,"ending":"forceExit","flow":"terminate","id":0,"language":"en",\
            "lowestRemaining":0,"policySource":"document","policyVersion":12,"presentations":[{"at":5,"remaining":2,"surface":"builtInDialog"}],\
            "schemaVersion":2,"seconds":2,"shown":[{"frames":[{"at":5,"button":"B","contextKind":"payment","countdown":"C",\
            "detail":"a/b \\"c\\"","kindLine":"K","message":"M","remaining":2,"title":"T","verdict":"bankIsNotCalling",\
            "verdictLine":"V"}],"framesOmitted":3,"surface":"builtInDialog"}],"startedAt":5,"startedDate":1764842165.5,\
            "verdict":"bankIsNotCalling","verdictArrivedAt":7,"wasScreenCaptured":true}
            """)
        #expect(try JSONDecoder().decode(CallMonitorOutcome.self, from: Data(text.utf8)) == Self.outcome)
    }

    @Test("An outcome under the code and without a verdict writes null for policyVersion, verdictArrivedAt and every missing text")
    func nulls() throws {
        var outcome = Self.outcome
        outcome.policySource = .code
        outcome.verdictArrivedAt = nil
        outcome.shown = [.init(surface: .delegate, frames: [.init(at: 1, remaining: 4)])]
        let text = String(decoding: try outcome.jsonData(), as: UTF8.self)
        #expect(text.contains(#""policySource":"code","policyVersion":null,"#))
        #expect(text.contains(#""verdictArrivedAt":null,"#))
        #expect(text.contains(#"{"frames":[{"at":1,"button":null,"contextKind":null,"countdown":null,"detail":null,"kindLine":null,"message":null,"remaining":4,"title":null,"verdict":"unknown","verdictLine":null}],"framesOmitted":0,"surface":"delegate"}"#))
    }

    @Test("A date that is not a finite number is an encoding error, not a record JSON cannot hold")
    func notFinite() {
        var outcome = Self.outcome
        outcome.endedDate = Date(timeIntervalSince1970: .infinity)
        #expect(throws: EncodingError.self) { try outcome.jsonData() }
        outcome.endedDate = Date(timeIntervalSince1970: 1)
        outcome.startedDate = Date(timeIntervalSince1970: .nan)
        #expect(throws: EncodingError.self) { try outcome.jsonData() }
    }
}

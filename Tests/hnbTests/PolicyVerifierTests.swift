// Split out of PolicyDocumentTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy

@Suite("Policy: verifying a document")
struct PolicyVerifierTests {
    let signer = PolicyTestSigner.shared
    static let header = #"{"alg":"EdDSA","kid":"ed-1","typ":"hnb-policy+jwt"}"#
    static let claims = #"{"iss":"com.bank.app","ver":3,"iat":100,"exp":200,"rules":[]}"#

    @Test("A document signed with either algorithm is verified and read", arguments: PolicyAlgorithm.allCases)
    func verifiesBoth(alg: PolicyAlgorithm) throws {
        let rules = #"[{"when":{"os":["iOS"],"osVersion":">=26.0 <26.2","attributes":{"region":["DE"]}},"policy":{"appWide":"observe","screens":{"transfer":"off","login":{"flow":"acknowledge","seconds":30}},"screenCaptured":{"flow":"terminate","seconds":3},"detection":false,"verifierBudget":99}},{"policy":{"appWide":{"flow":"terminate","seconds":0}}}]"#
        let document = try #require(signer.verify(signer.document(alg: alg, ver: 7, nbf: 1_767_225_601, rules: rules)).value)
        #expect(document.version == 7)
        #expect(document.notBefore == 1_767_225_601)
        #expect(document.expires == 1_798_761_600)
        #expect(document.rules.count == 2)
        var first = RemotePolicySettings()
        first.appWide = .off
        first.screens = ["transfer": .off, "login": .enforce(MonitorPolicy(flow: .acknowledge, requestedSeconds: 30))]
        first.screenCaptured = .enforce(MonitorPolicy(flow: .terminate, requestedSeconds: 3))
        first.detection = false
        first.verifierBudget = 30
        #expect(document.rules[0].policy == first)
        // Seconds are clamped as rule 5 clamps them.
        #expect(document.rules[1].policy.appWide == .enforce(MonitorPolicy(flow: .terminate, requestedSeconds: 1)))
        #expect(document.rule(for: ["os": "iOS", "osVersion": "26.1", "region": "DE"])?.index == 0)
        #expect(document.rule(for: ["os": "iOS", "osVersion": "26.2", "region": "DE"])?.index == 1)
        #expect(document.rule(for: ["os": "iOS", "osVersion": "26.1"])?.index == 1)
        #expect(document.rule(for: ["os": "Linux", "osVersion": "26.1", "region": "DE"])?.index == 1)
    }

    /// Every reason, each with a document whose only fault is that one (signed validly where a
    /// signature is reached).
    @Test("Each rejection reason is given for its own fault, and only for it")
    func eachReason() {
        let s = signer
        let h = Self.header
        func claims(_ body: String) -> String { #"{"iss":"com.bank.app","ver":3,"iat":100,"exp":200,"rules":[\#(body)]}"# }
        let cases: [(PolicyRejection, [UInt8])] = [
            (.tooLarge, s.document(rules: #"[{"when":{"attributes":{"pad":[""# + String(repeating: "p", count: 65_536) + #""]}},"policy":{}}]"#)),
            (.malformed, Array("abc.def".utf8)),
            (.malformed, Array("..".utf8)),
            (.malformed, s.sign(header: h, payload: Self.claims) + Array(".x".utf8)),
            (.malformed, Array(("eyJhbGciOiJFZERTQSJ9=" + ".e30.AAAA").utf8)),
            (.malformed, s.sign(header: "[1]", payload: Self.claims)),
            (.malformed, s.sign(header: h, payload: "{\"iss\"")),
            (.duplicateKey, s.sign(header: #"{"alg":"EdDSA","kid":"ed-1","typ":"hnb-policy+jwt","kid":"ed-1"}"#, payload: Self.claims)),
            (.duplicateKey, s.sign(header: h, payload: #"{"iss":"com.bank.app","ver":3,"ver":4,"iat":100,"exp":200,"rules":[]}"#)),
            (.unsupportedAlgorithm, s.sign(header: #"{"alg":"none","kid":"ed-1","typ":"hnb-policy+jwt"}"#, payload: Self.claims)),
            (.unsupportedAlgorithm, s.sign(header: #"{"alg":"HS256","kid":"ed-1","typ":"hnb-policy+jwt"}"#, payload: Self.claims)),
            (.unsupportedAlgorithm, s.sign(header: #"{"alg":"RS256","kid":"ed-1","typ":"hnb-policy+jwt"}"#, payload: Self.claims)),
            (.unsupportedAlgorithm, s.sign(header: #"{"alg":"eddsa","kid":"ed-1","typ":"hnb-policy+jwt"}"#, payload: Self.claims)),
            (.wrongType, s.sign(header: #"{"alg":"EdDSA","kid":"ed-1","typ":"JWT"}"#, payload: Self.claims)),
            (.wrongType, s.sign(header: #"{"alg":"EdDSA","kid":"ed-1"}"#, payload: Self.claims)),
            (.unknownField, s.sign(header: #"{"alg":"EdDSA","kid":"ed-1","typ":"hnb-policy+jwt","crit":["exp"]}"#, payload: Self.claims)),
            (.unknownKey, s.sign(header: #"{"alg":"EdDSA","kid":"ed-2","typ":"hnb-policy+jwt"}"#, payload: Self.claims)),
            (.keyTypeMismatch, s.sign(header: #"{"alg":"ES256","kid":"ed-1","typ":"hnb-policy+jwt"}"#, payload: Self.claims, with: s.ed)),
            (.keyTypeMismatch, s.sign(header: #"{"alg":"EdDSA","kid":"ec-1","typ":"hnb-policy+jwt"}"#, payload: Self.claims, with: s.ec)),
            (.badSignature, s.sign(header: h, payload: Self.claims, with: s.ec)),
            (.badSignature, s.sign(header: #"{"alg":"ES256","kid":"ec-1","typ":"hnb-policy+jwt"}"#, payload: Self.claims, with: s.ed)),
            (.wrongIssuer, s.document(iss: "com.other.app")),
            (.wrongIssuer, s.document(iss: "com.bank.app ")),
            (.invalidClaims, s.document(ver: 0)),
            (.invalidClaims, s.sign(header: h, payload: #"{"iss":"com.bank.app","ver":1.0,"iat":100,"exp":200,"rules":[]}"#)),
            (.invalidClaims, s.sign(header: h, payload: #"{"iss":"com.bank.app","ver":1,"iat":100,"rules":[]}"#)),
            (.invalidClaims, s.sign(header: h, payload: #"{"iss":"com.bank.app","ver":1,"exp":200,"rules":[]}"#)),
            (.invalidClaims, s.sign(header: h, payload: #"{"iss":"com.bank.app","ver":1,"iat":100,"exp":200}"#)),
            (.invalidClaims, s.document(nbf: 300, exp: 300)),
            (.unknownField, s.sign(header: h, payload: #"{"iss":"com.bank.app","ver":3,"iat":100,"exp":200,"rules":[],"aud":"x"}"#)),
            (.unknownField, s.sign(header: h, payload: claims(#"{"policy":{},"comment":""}"#))),
            (.unknownField, s.sign(header: h, payload: claims(#"{"policy":{"appwide":"observe"}}"#))),
            (.unknownField, s.sign(header: h, payload: claims(#"{"when":{"device":"x"},"policy":{}}"#))),
            (.unknownField, s.sign(header: h, payload: claims(#"{"policy":{"appWide":{"flow":"terminate","seconds":5,"grace":1}}}"#))),
            (.secondsOutOfRange, s.sign(header: h, payload: claims(#"{"policy":{"appWide":{"flow":"terminate","seconds":2147483648}}}"#))),
            (.secondsOutOfRange, s.sign(header: h, payload: claims(#"{"policy":{"screens":{"a":{"flow":"acknowledge","seconds":-2147483649}}}}"#))),
            (.secondsOutOfRange, s.sign(header: h, payload: claims(#"{"policy":{"screenCaptured":{"flow":"acknowledge","seconds":99999999999999999999}}}"#))),
            (.invalidPolicy, s.sign(header: h, payload: claims(#"{"policy":{"appWide":"off"}}"#))),
            (.invalidPolicy, s.sign(header: h, payload: claims(#"{"policy":{"screens":{"a":"observe"}}}"#))),
            (.invalidPolicy, s.sign(header: h, payload: claims(#"{"policy":{"appWide":{"flow":"close","seconds":5}}}"#))),
            (.invalidPolicy, s.sign(header: h, payload: claims(#"{"policy":{"appWide":{"flow":"terminate","seconds":1.5}}}"#))),
            (.invalidPolicy, s.sign(header: h, payload: claims(#"{"policy":{"detection":"no"}}"#))),
            (.invalidPolicy, s.sign(header: h, payload: claims(#"{"when":{"osVersion":">=26.x"},"policy":{}}"#))),
            (.invalidPolicy, s.sign(header: h, payload: claims(#"{"when":{}}"#))),
        ]
        for (reason, bytes) in cases {
            #expect(signer.verify(bytes).rejection == reason, "\(String(decoding: bytes.prefix(120), as: UTF8.self))")
        }
        #expect(PolicyDocument.verify(s.document(), keys: nil, issuer: "com.bank.app", crypto: PolicyTestSigner.crypto).rejection == .noKeys)
    }

    @Test("Version ranges: versions of different lengths compare part by part, a missing part reading 0 (\"26.1\" is the library's \"26.1.0\")")
    func versionRangeDifferentLengths() throws {
        let cases: [(String, String, Bool)] = [
            ("=26.1", "26.1.0", true), ("26.1", "26.1.0", true), ("26", "26.0.0.0", true), ("=26.1.0", "26.1", true),
            (">26.1", "26.1.0", false), (">26.1", "26.1.1", true), (">=26.1.1", "26.1", false), ("<26.1.0.1", "26.1", true),
            ("<=26.1", "26.1.0.1", false), (">=26.0 <26.2", "26.1.9", true), (">=26.0 <26.2", "26.2.0", false),
        ]
        for (range, version, inside) in cases {
            #expect(try #require(VersionRange(range)).contains(version) == inside, "\(range) \(version)")
        }
        // Through a document, as the library's "26.1.0" meets a rule written "26.1".
        let document = try #require(signer.verify(signer.document(rules: #"[{"when":{"osVersion":"26.1"},"policy":{}}]"#)).value)
        #expect(document.rule(for: ["osVersion": "26.1.0"])?.index == 0)
        #expect(document.rule(for: ["osVersion": "26.1.1"]) == nil)
    }

    @Test("Version ranges: when.appVersion is matched against the app's version, not the OS's")
    func appVersionCondition() throws {
        let document = try #require(signer.verify(signer.document(rules: #"[{"when":{"appVersion":">=5.2 <6"},"policy":{"appWide":"observe"}}]"#)).value)
        #expect(document.rules[0].when.appVersion == VersionRange(">=5.2 <6"))
        #expect(document.rules[0].when.osVersion == nil)
        #expect(document.rule(for: ["os": "iOS", "osVersion": "26.1", "appVersion": "5.2.0"])?.index == 0)
        #expect(document.rule(for: ["os": "iOS", "osVersion": "5.3", "appVersion": "6.0"]) == nil)
        #expect(document.rule(for: ["os": "iOS", "osVersion": "5.3", "appVersion": "5.1.9"]) == nil)
        #expect(document.rule(for: ["os": "iOS", "osVersion": "5.3"]) == nil)
    }

    @Test("Version ranges: an empty or blank range is refused, never a rule that matches every device (a kill switch for everyone)")
    func emptyVersionRangeRefused() {
        #expect(VersionRange("") == nil)
        #expect(VersionRange("   ") == nil)
        for rules in [
            #"[{"when":{"osVersion":""},"policy":{"appWide":"observe"}}]"#,
            #"[{"when":{"osVersion":" "},"policy":{"appWide":"observe"}}]"#,
            #"[{"when":{"appVersion":""},"policy":{"appWide":"observe"}}]"#,
        ] {
            #expect(signer.verify(signer.document(rules: rules)).rejection == .invalidPolicy, "\(rules)")
        }
    }

    @Test("Claims: a header without kid, or with a kid that is not a string, is malformed: no key is guessed")
    func kidMissingOrNotAString() {
        for header in [
            #"{"alg":"EdDSA","typ":"hnb-policy+jwt"}"#,
            #"{"alg":"EdDSA","kid":1,"typ":"hnb-policy+jwt"}"#,
            #"{"alg":"EdDSA","kid":null,"typ":"hnb-policy+jwt"}"#,
            #"{"alg":"EdDSA","kid":["ed-1"],"typ":"hnb-policy+jwt"}"#,
        ] {
            // Signed with the first pinned key, so only the kid's absence or type can refuse it.
            #expect(signer.verify(signer.sign(header: header, payload: Self.claims, with: signer.ed)).rejection == .malformed, "\(header)")
        }
    }

    @Test("Claims: an nbf that is not an integer (a string, a fraction) is invalid, not ignored")
    func nbfOfTheWrongType() {
        let h = Self.header
        for nbf in [#""150""#, "150.5", "1.5e2", "true", "null"] {
            let payload = #"{"iss":"com.bank.app","ver":3,"iat":100,"nbf":\#(nbf),"exp":200,"rules":[]}"#
            #expect(signer.verify(signer.sign(header: h, payload: payload)).rejection == .invalidClaims, "\(nbf)")
        }
        #expect(signer.verify(signer.sign(header: h, payload: #"{"iss":"com.bank.app","ver":3,"iat":100,"nbf":150,"exp":200,"rules":[]}"#)).value?.notBefore == 150)
    }

    @Test("Claims: verifierBudget is clamped to the API's own range (CallMonitor.callVerifierBudgetRange), 0 included")
    func verifierBudgetClampedToTheAPIRange() throws {
        let range = CallMonitor.callVerifierBudgetRange
        for (written, read) in [("0", range.lowerBound), ("-5", range.lowerBound), ("0.05", range.lowerBound), ("0.1", 0.1), ("2.5", 2.5), ("30", 30), ("30.5", range.upperBound), ("1e6", range.upperBound)] {
            let document = try #require(signer.verify(signer.document(rules: #"[{"policy":{"verifierBudget":\#(written)}}]"#)).value, "\(written)")
            #expect(document.rules[0].policy.verifierBudget == read, "\(written)")
        }
    }

    @Test("Without crypto every document is refused, a valid one included (fail closed)")
    func cryptoUnavailable() {
        #if os(Linux)
        #expect(LibCrypto(library: "libcrypto-that-is-not-there.so.3") == nil)
        #endif
        for alg in PolicyAlgorithm.allCases {
            #expect(PolicyDocument.verify(signer.document(alg: alg), keys: signer.keys, issuer: "com.bank.app", crypto: nil).rejection == .cryptoUnavailable)
        }
    }

    @Test("A key the platform refuses (a P-256 point off the curve) verifies nothing")
    func pointOffCurve() {
        let bad = PolicyKeySet(keys: [PolicyKeySet.Key(kid: "ec-1", material: .p256([4] + [UInt8](repeating: 1, count: 64)))])
        #expect(PolicyDocument.verify(signer.document(alg: .es256), keys: bad, issuer: "com.bank.app", crypto: PolicyTestSigner.crypto).rejection == .badSignature)
    }

    @Test("Flipping any bit of any byte of a valid document, header, payload or signature, is refused", arguments: PolicyAlgorithm.allCases)
    func everyByteFlipped(alg: PolicyAlgorithm) {
        let document = signer.document(alg: alg, ver: 2, rules: #"[{"when":{"os":"iOS"},"policy":{"appWide":"observe","screens":{"transfer":"off"}}}]"#)
        #expect(signer.verify(document).value != nil)
        var accepted: [Int] = []
        for index in document.indices {
            for bit in 0..<8 {
                var tampered = document
                tampered[index] ^= 1 << bit
                if signer.verify(tampered).value != nil { accepted.append(index) }
            }
        }
        #expect(accepted == [])
    }

    @Test("ES256 signatures go to OpenSSL as DER and come back raw, whatever their leading bytes")
    func ecdsaDER() throws {
        let raw = [UInt8](repeating: 0, count: 31) + [5] + [0x80] + [UInt8](repeating: 0xFF, count: 31)
        let der = try #require(PolicyDER.ecdsaSignature(raw: raw))
        #expect(der == [0x30, 0x26, 0x02, 0x01, 0x05, 0x02, 0x21, 0x00, 0x80] + [UInt8](repeating: 0xFF, count: 31))
        #expect(PolicyDER.rawECDSASignature(der: der) == raw)
        #expect(PolicyDER.ecdsaSignature(raw: [1, 2]) == nil)
        #expect(PolicyDER.rawECDSASignature(der: der + [0]) == nil)
    }
}

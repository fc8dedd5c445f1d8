// Errors that point (issue 38): every refusal of the verifier names the header member, claim or
// JSON path and what was expected there, and quotes at most a short value, never the input.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy

@Suite("Policy: every refusal names its member and what was expected")
struct PolicyRefusalDetailTests {
    let signer = PolicyTestSigner.shared
    static let h = #"{"alg":"EdDSA","kid":"ed-1","typ":"hnb-policy+jwt"}"#
    static let claims = #"{"iss":"com.bank.app","ver":3,"iat":100,"exp":200,"rules":[]}"#

    func explained(_ bytes: [UInt8], keys: PolicyKeySet? = PolicyTestSigner.shared.keys, crypto: PolicyCrypto? = PolicyTestSigner.crypto) -> PolicyRefusal? {
        if case .failure(let refusal) = PolicyDocument.verifyExplained(bytes, keys: keys, issuer: "com.bank.app", crypto: crypto) { return refusal }
        return nil
    }

    /// A document for each refusal of the verifier, with its reason and exact detail (also run
    /// through applyPolicy by PolicyResultDetailTests).
    static func verifierCases(_ s: PolicyTestSigner) -> [(PolicyRejection, [UInt8], String)] {
        let h = Self.h
        func rules(_ rules: String) -> String { #"{"iss":"com.bank.app","ver":3,"iat":100,"exp":200,"rules":[{"policy":{}},\#(rules)]}"# }
        return [
            (.tooLarge, [UInt8](repeating: 0x41, count: 65_537), "the document is longer than 64 KiB"),
            (.malformed, Array("abc.def".utf8), "expected three non-empty base64url parts joined by '.' (a JWS compact serialization), got 2 parts"),
            (.malformed, [0xEF, 0xBB, 0xBF] + s.document(), "the document starts with a byte-order mark: expected the compact JWS alone"),
            (.malformed, Array(("eyJhbGciOiJFZERTQSJ9=" + ".e30.AAAA").utf8), "header: expected unpadded base64url"),
            (.malformed, s.sign(header: "[1]", payload: Self.claims), "header: expected a JSON object"),
            (.malformed, s.sign(header: #"{"kid":"ed-1","typ":"hnb-policy+jwt"}"#, payload: Self.claims), "header alg: expected a string"),
            (.malformed, s.sign(header: #"{"alg":"EdDSA","typ":"hnb-policy+jwt"}"#, payload: Self.claims),
             "header kid: expected a string naming a pinned key, got none (the format requires kid)"),
            (.malformed, s.sign(header: h, payload: "{\"iss\""), "payload: expected JSON (RFC 8259), stopped at byte 6"),
            (.duplicateKey, s.sign(header: h, payload: #"{"iss":"com.bank.app","ver":3,"ver":4,"iat":100,"exp":200,"rules":[]}"#),
             #"payload: "ver" appears twice in one object"#),
            (.unsupportedAlgorithm, s.sign(header: #"{"alg":"HS256","kid":"ed-1","typ":"hnb-policy+jwt"}"#, payload: Self.claims),
             #"header alg: expected EdDSA, Ed25519 or ES256, got "HS256""#),
            (.wrongType, s.sign(header: #"{"alg":"EdDSA","kid":"ed-1","typ":"JWT"}"#, payload: Self.claims),
             #"header typ: expected "hnb-policy+jwt" (or application/hnb-policy+jwt), got "JWT""#),
            (.wrongType, s.sign(header: #"{"alg":"EdDSA","kid":"ed-1"}"#, payload: Self.claims),
             #"header typ: expected "hnb-policy+jwt" (or application/hnb-policy+jwt), got none"#),
            (.unknownField, s.sign(header: #"{"alg":"EdDSA","kid":"ed-1","typ":"hnb-policy+jwt","crit":["exp"]}"#, payload: Self.claims),
             "header crit: expected only alg, kid and typ (crit and extensions are refused)"),
            (.unknownKey, s.sign(header: #"{"alg":"EdDSA","kid":"ed-2","typ":"hnb-policy+jwt"}"#, payload: Self.claims),
             #"header kid: expected one of the pinned keys (ed-1, ec-1), got "ed-2""#),
            (.keyTypeMismatch, s.sign(header: #"{"alg":"ES256","kid":"ed-1","typ":"hnb-policy+jwt"}"#, payload: Self.claims, with: s.ed),
             #"header alg: key "ed-1" verifies EdDSA, got ES256"#),
            (.badSignature, s.sign(header: h, payload: Self.claims, with: s.ec), #"signature: does not verify with key "ed-1" (EdDSA)"#),
            (.badSignature, Array((String(decoding: s.document(), as: UTF8.self).split(separator: ".").prefix(2).joined(separator: ".") + ".AAAA").utf8),
             "signature: expected 64 bytes (Ed25519), got 3"),
            (.wrongIssuer, s.document(iss: "com.other.app"), #"iss: expected "com.bank.app", got "com.other.app""#),
            (.invalidClaims, s.document(ver: 0), "ver: expected an integer from 1, got 0"),
            (.invalidClaims, s.sign(header: h, payload: #"{"iss":"com.bank.app","ver":1,"iat":100.5,"exp":200,"rules":[]}"#),
             "iat: expected an integer NumericDate (whole seconds; the format is stricter than RFC 7519), got 100.5"),
            (.invalidClaims, s.sign(header: h, payload: #"{"iss":"com.bank.app","ver":1,"iat":100,"rules":[]}"#),
             "exp: expected an integer NumericDate (whole seconds; the format is stricter than RFC 7519), got none"),
            (.invalidClaims, s.document(nbf: 300, exp: 300), "nbf: expected before exp (300), got 300"),
            (.invalidClaims, s.sign(header: h, payload: #"{"iss":"com.bank.app","ver":1,"iat":100,"exp":200}"#), "rules: expected an array, got none"),
            (.unknownField, s.sign(header: h, payload: #"{"iss":"com.bank.app","ver":3,"iat":100,"exp":200,"rules":[],"aud":"x"}"#),
             "aud: expected only iss, ver, iat, nbf, exp and rules (the format refuses unknown claims)"),
            (.unknownField, s.sign(header: h, payload: rules(#"{"policy":{"appwide":"observe"}}"#)),
             "rules[1].policy.appwide: expected only appWide, screens, screenCaptured, detection, verifierBudget and coaching"),
            (.unknownField, s.sign(header: h, payload: rules(#"{"when":{"device":"x"},"policy":{}}"#)),
             "rules[1].when.device: expected only os, osVersion, appVersion and attributes"),
            (.secondsOutOfRange, s.sign(header: h, payload: rules(#"{"policy":{"screens":{"transfer":{"flow":"terminate","seconds":2147483648}}}}"#)),
             "rules[1].policy.screens.transfer.seconds: expected an integer from -2147483648 to 2147483647, got 2147483648"),
            (.invalidPolicy, s.sign(header: h, payload: rules(#"{"policy":{"screens":{"transfer":{"flow":"terminate","seconds":5.0}}}}"#)),
             "rules[1].policy.screens.transfer.seconds: expected an integer from -2147483648 to 2147483647, got 5.0"),
            (.invalidPolicy, s.sign(header: h, payload: rules(#"{"policy":{"appWide":{"flow":"close","seconds":5}}}"#)),
             #"rules[1].policy.appWide.flow: expected "terminate" or "acknowledge", got "close""#),
            (.invalidPolicy, s.sign(header: h, payload: rules(#"{"policy":{"appWide":"off"}}"#)),
             #"rules[1].policy.appWide: expected {"flow": "terminate"|"acknowledge", "seconds": N} or "code" or "observe", got "off""#),
            (.invalidPolicy, s.sign(header: h, payload: rules(#"{"when":{"osVersion":">=26.x"},"policy":{}}"#)),
             #"rules[1].when.osVersion: expected a version range (">=26.0 <26.2", "=26.1"), got ">=26.x""#),
            (.invalidPolicy, s.sign(header: h, payload: rules(#"{"when":{"os":["iOS",3]},"policy":{}}"#)), "rules[1].when.os[1]: expected a string, got 3"),
            (.invalidPolicy, s.sign(header: h, payload: rules(#"{"policy":{"detection":"no"}}"#)), #"rules[1].policy.detection: expected true or false, got "no""#),
            (.invalidPolicy, s.sign(header: h, payload: rules(#"{"when":{}}"#)), "rules[1].policy: expected an object, got none"),
        ]
    }

    @Test("Each reason of the verifier, with its exact detail")
    func everyReason() {
        let s = signer
        let cases = Self.verifierCases(s)
        var seen: Set<PolicyRejection> = []
        for (reason, bytes, detail) in cases {
            let refusal = explained(bytes)
            #expect(refusal == PolicyRefusal(reason, detail), "\(detail)")
            // The short reason the app switches on is the same one verify gives.
            #expect(signer.verify(bytes).rejection == reason)
            seen.insert(reason)
        }
        #expect(explained(s.document(), keys: nil) == PolicyRefusal(.noKeys, "no keys are pinned (setPolicyKeys)"))
        #expect(explained(s.document(), crypto: nil) == PolicyRefusal(.cryptoUnavailable, "no platform crypto could be loaded"))
        seen.formUnion([.noKeys, .cryptoUnavailable])
        // Every reason the verifier gives is above; the rest are the engine's and the facade's.
        let others: Set<PolicyRejection> = [.relaxationNotAllowed, .rollback, .expired, .notOnMainThread, .calledFromCallback, .exited]
        #expect(seen.union(others) == Set(PolicyRejection.allCases))
    }

    @Test("The signature layer alone: genuine or not under the pinned key whatever typ says, while the phones still refuse for typ first")
    func signatureLayer() {
        let s = signer
        func check(_ bytes: [UInt8]) -> PolicyDocument.SignatureCheck {
            PolicyDocument.checkSignature(bytes, keys: s.keys, crypto: PolicyTestSigner.crypto)
        }
        let jwt = #"{"alg":"EdDSA","kid":"ed-1","typ":"JWT"}"#
        #expect(check(s.sign(header: jwt, payload: Self.claims)) == .valid(algorithm: .edDSA, kid: "ed-1", named: true))
        #expect(signer.verify(s.sign(header: jwt, payload: Self.claims)).rejection == .wrongType)
        let forged = s.sign(header: jwt, payload: Self.claims, with: s.ec)
        #expect(check(forged) == .bad(PolicyRefusal(.badSignature, #"signature: does not verify with key "ed-1" (EdDSA)"#)))
        #expect(signer.verify(forged).rejection == .wrongType)
        // No kid: each pinned key of the algorithm is tried.
        #expect(check(s.sign(header: #"{"alg":"ES256"}"#, payload: Self.claims)) == .valid(algorithm: .es256, kid: "ec-1", named: false))
        #expect(check(s.sign(header: #"{"alg":"EdDSA"}"#, payload: Self.claims, with: s.ec))
            == .bad(PolicyRefusal(.badSignature, #"signature: does not verify with key "ed-1" (EdDSA)"#)))
        #expect(check(s.sign(header: #"{"alg":"EdDSA","kid":"ed-9","typ":"JWT"}"#, payload: Self.claims))
            == .notChecked(PolicyRefusal(.unknownKey, #"header kid: expected one of the pinned keys (ed-1, ec-1), got "ed-9""#)))
        #expect(check(Array("abc.def".utf8)) == .notChecked(PolicyRefusal(
            .malformed, "expected three non-empty base64url parts joined by '.' (a JWS compact serialization), got 2 parts")))
        #expect(PolicyDocument.checkSignature(s.document(), keys: s.keys, crypto: nil)
            == .notChecked(PolicyRefusal(.cryptoUnavailable, "no platform crypto could be loaded")))
    }

    @Test("A long value is quoted cut at 40 characters, never whole")
    func longValuesCut() throws {
        let long = String(repeating: "x", count: 5_000)
        let refusal = try #require(explained(signer.document(iss: long)))
        #expect(refusal.detail == "iss: expected \"com.bank.app\", got \"\(String(repeating: "x", count: 39))…")
    }
}

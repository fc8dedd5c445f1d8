// Interoperability by the RFCs (issue 38): what mainstream JOSE libraries write is read as they
// mean it (RFC 9864's `Ed25519`, RFC 7515's `typ` without `application/` and in any case, RFC
// 7517's keys of other types ignored, `use` and `key_ops` alike), and everything else the format
// refused stays refused.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy

@Suite("Policy: interoperability by the RFCs")
struct PolicyInteropTests {
    let signer = PolicyTestSigner.shared
    static let claims = #"{"iss":"com.bank.app","ver":3,"iat":100,"exp":200,"rules":[]}"#
    static let x = Base64URL.encode([UInt8](repeating: 7, count: 32))
    static let okp = #""kty":"OKP","crv":"Ed25519","x":"\#(x)""#

    @Test("alg Ed25519 (RFC 9864) verifies as EdDSA with an Ed25519 key; not with a P-256 key, and not in another case")
    func fullySpecifiedAlgorithm() {
        let ed = signer.sign(header: #"{"alg":"Ed25519","kid":"ed-1","typ":"hnb-policy+jwt"}"#, payload: Self.claims)
        #expect(signer.verify(ed).value?.version == 3)
        let onEC = signer.sign(header: #"{"alg":"Ed25519","kid":"ec-1","typ":"hnb-policy+jwt"}"#, payload: Self.claims, with: signer.ed)
        #expect(signer.verify(onEC).rejection == .keyTypeMismatch)
        for alg in ["ed25519", "ED25519", "Ed448", "EdDSA25519"] {
            let other = signer.sign(header: #"{"alg":"\#(alg)","kid":"ed-1","typ":"hnb-policy+jwt"}"#, payload: Self.claims)
            #expect(signer.verify(other).rejection == .unsupportedAlgorithm, "\(alg)")
        }
    }

    @Test("typ with or without application/, in any case of ASCII letters (RFC 7515 4.1.9); anything else is wrongType", arguments: [
        ("hnb-policy+jwt", true), ("application/hnb-policy+jwt", true), ("HNB-Policy+JWT", true), ("Application/HNB-POLICY+jwt", true),
        ("application/hnb-policy+jwt; charset=utf-8", false), ("text/hnb-policy+jwt", false), ("hnb-policy+jwt ", false),
        ("application/application/hnb-policy+jwt", false), ("hnb-policy", false), ("JWT", false), ("hnb-polic\u{212A}+jwt", false),
        ("application/hnb-policy+jw\u{212A}", false),
    ])
    func typeSpellings(typ: String, accepted: Bool) {
        let document = signer.sign(header: #"{"alg":"EdDSA","kid":"ed-1","typ":"\#(typ)"}"#, payload: Self.claims)
        #expect(signer.verify(document).rejection == (accepted ? nil : .wrongType))
    }

    @Test("A JWK Set with RSA, P-384, Ed448 and X25519 keys besides a usable one: those are ignored and listed; the usable key verifies")
    func mixedKeySet() throws {
        let text = #"{"keys":[{"kty":"RSA","kid":"r1","n":"AQAB","e":"AQAB","use":"enc"},{"kty":"EC","crv":"P-384","kid":"p384","x":"AA","y":"AA"},"#
            + #"{"kty":"OKP","crv":"Ed448","x":"AA","kid":"e448"},{"kty":"OKP","crv":"X25519","x":"AA"},{\#(Self.okp),"kid":"a","key_ops":["verify"]}]}"#
        let set = try PolicyKeySet.parse(Array(text.utf8))
        #expect(set.keys == [PolicyKeySet.Key(kid: "a", material: .ed25519([UInt8](repeating: 7, count: 32)))])
        #expect(set.ignored == [#""r1" (RSA)"#, #""p384" (EC/P-384)"#, #""e448" (OKP/Ed448)"#, "a key without kid (OKP/X25519)"])
        // The signer's real keys among others: its documents verify.
        let real = Array(signer.keys.json.utf8)
        let mixed = try PolicyKeySet.parse(Array(#"{"keys":[{"kty":"RSA","kid":"r1","n":"AQAB","e":"AQAB"},"#.utf8) + real.dropFirst(9))
        #expect(mixed.keys == signer.keys.keys)
        #expect(PolicyDocument.verify(signer.document(), keys: mixed, issuer: "com.bank.app", crypto: PolicyTestSigner.crypto).value != nil)
    }

    @Test("Still refused: no usable key, a private key of any type, a shared secret, a kid twice across types, use or key_ops not for signatures", arguments: [
        (#"{"keys":[{"kty":"RSA","kid":"r1","n":"AQAB","e":"AQAB"},{"kty":"EC","crv":"P-384","x":"AA","y":"AA"}]}"#,
         #"the key set has no OKP/Ed25519 or EC/P-256 key (ignored: "r1" (RSA), a key without kid (EC/P-384))"#),
        // Issue 53: a shared secret is refused like a private key, whatever else the set holds.
        (#"{"keys":[{"kty":"oct","kid":"s1","k":"AA"},{\#(okp),"kid":"a"}]}"#,
         #"key "s1" is a shared secret (kty oct): a key set the apps carry holds public keys only"#),
        (#"{"keys":[{\#(okp),"kid":"a","k":"AA"}]}"#, #"key "a" is a shared secret (kty oct): a key set the apps carry holds public keys only"#),
        (#"{"keys":[{"kty":"oct","kid":"s2"},{\#(okp),"kid":"a"}]}"#, #"key "s2" is a shared secret (kty oct): a key set the apps carry holds public keys only"#),
        // A key that is both is named for its private part, the first thing checked.
        (#"{"keys":[{"kty":"oct","kid":"s3","k":"AA","d":"AA"},{\#(okp),"kid":"a"}]}"#, #"key "s3" is a private key: pin only the public part"#),
        (#"{"keys":[{"kty":"RSA","kid":"r1","n":"AQAB","e":"AQAB","d":"AQAB"},{\#(okp),"kid":"a"}]}"#, #"key "r1" is a private key: pin only the public part"#),
        (#"{"keys":[{"kty":"RSA","kid":"a","n":"AQAB","e":"AQAB"},{\#(okp),"kid":"a"}]}"#, #"two keys are named "a""#),
        (#"{"keys":[{\#(okp),"kid":"a","key_ops":["encrypt"]}]}"#, #"key "a" is not for signatures (key_ops "encrypt")"#),
        (#"{"keys":[{\#(okp),"kid":"a","key_ops":["verify","wrapKey"]}]}"#, #"key "a" is not for signatures (key_ops "wrapKey")"#),
        (#"{"keys":[{\#(okp),"kid":"a","key_ops":[]}]}"#, #"key "a": "key_ops" is not an array of operations"#),
        (#"{"keys":[{\#(okp),"kid":"a","key_ops":"verify"}]}"#, #"key "a": "key_ops" is not an array of operations"#),
        (#"{"keys":[{\#(okp),"kid":"a","use":"enc"}]}"#, #"key "a" is not for signatures (use "enc")"#),
        (#"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(x)","y":"\#(x)","kid":"a","alg":"Ed25519"}]}"#, #"key "a" says alg "Ed25519", which its type cannot verify"#),
    ])
    func stillRefused(text: String, reason: String) {
        #expect(throws: PolicyKeySet.Failure(reason)) { try PolicyKeySet.parse(Array(text.utf8)) }
    }

    @Test("A JWK of RFC 9864 (alg Ed25519) and one with key_ops sign and verify are read")
    func acceptedKeys() throws {
        let set = try PolicyKeySet.parse(Array(#"{"keys":[{\#(Self.okp),"kid":"a","alg":"Ed25519","use":"sig","key_ops":["sign","verify"]}]}"#.utf8))
        #expect(set.keys.map(\.kid) == ["a"])
        #expect(set.ignored == [])
    }
}

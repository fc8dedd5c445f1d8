// Split out of PolicyDocumentTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy

@Suite("Policy: the key set")
struct PolicyKeySetTests {
    static let x = Base64URL.encode([UInt8](repeating: 7, count: 32))

    @Test("A JWK Set of Ed25519 and P-256 keys is read with each kid, in order")
    func readsBothKinds() throws {
        let set = try PolicyKeySet.parse(Array(#"{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"a","x":"\#(Self.x)","use":"sig","alg":"EdDSA","key_ops":["verify"]},{"kty":"EC","crv":"P-256","kid":"b","x":"\#(Self.x)","y":"\#(Self.x)"}]}"#.utf8))
        #expect(set.keys == [
            PolicyKeySet.Key(kid: "a", material: .ed25519([UInt8](repeating: 7, count: 32))),
            PolicyKeySet.Key(kid: "b", material: .p256([4] + [UInt8](repeating: 7, count: 64))),
        ])
        #expect(try PolicyKeySet.parse(Array(set.json.utf8)) == set)
    }

    @Test("A key set is refused, with its reason, for each way it can be wrong")
    func refusals() {
        let okp = #""kty":"OKP","crv":"Ed25519","x":"\#(Self.x)""#
        let cases: [(String, String)] = [
            (#"{"keys":[]}"#, "the key set has no key"),
            (#"{"kes":[]}"#, "the key set has no \"keys\" array"),
            (#"{"keys":[{\#(okp)}]}"#, "a key has no \"kid\""),
            (#"{"keys":[{\#(okp),"kid":"a","d":"\#(Self.x)"}]}"#, "key \"a\" is a private key: pin only the public part"),
            (#"{"keys":[{"kty":"OKP","crv":"Ed25519","x":"AAAA","kid":"a"}]}"#, "key \"a\": \"x\" is not 32 bytes of base64url"),
            (#"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(Self.x)","kid":"a"}]}"#, "key \"a\" has no \"y\""),
            (#"{"keys":[{"kty":"RSA","kid":"a","n":"AQAB","e":"AQAB"}]}"#, "the key set has no OKP/Ed25519 or EC/P-256 key (ignored: \"a\" (RSA))"),
            (#"{"keys":[{"kty":"OKP","crv":"X25519","x":"\#(Self.x)","kid":"a"}]}"#, "the key set has no OKP/Ed25519 or EC/P-256 key (ignored: \"a\" (OKP/X25519))"),
            (#"{"keys":[{\#(okp),"kid":"a","alg":"ES256"}]}"#, "key \"a\" says alg \"ES256\", which its type cannot verify"),
            (#"{"keys":[{\#(okp),"kid":"a","use":"enc"}]}"#, "key \"a\" is not for signatures (use \"enc\")"),
            (#"{"keys":[{\#(okp),"kid":"a"},{\#(okp),"kid":"a"}]}"#, "two keys are named \"a\""),
            (#"{"keys":[{\#(okp),"kid":"a","kid":"b"}]}"#, "the key set names \"kid\" twice in one object"),
            ("{\"keys\":", "the key set is not JSON"),
        ]
        for (text, reason) in cases {
            #expect(throws: PolicyKeySet.Failure(reason), "\(text)") { try PolicyKeySet.parse(Array(text.utf8)) }
        }
        let long = #"{"keys":[{\#(okp),"kid":"a","pad":""# + String(repeating: "p", count: 65_536) + "\"}]}"
        #expect(throws: PolicyKeySet.Failure("the key set is longer than 64 KiB")) { try PolicyKeySet.parse(Array(long.utf8)) }
    }
}

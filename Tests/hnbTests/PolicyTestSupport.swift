// What the signed-policy tests share: keys generated at test time by the platform's crypto (the
// same libcrypto or CryptoKit the library verifies with; nothing hand-rolled), and documents
// signed with them, so every rejection can be reached with a valid signature.

import Foundation
@testable import hnb
@testable import hnbPolicy
// The signing key is the tool's (`callmonitor policy keygen` and `sign`): apps never sign.
@testable import callmonitor

/// A signer with its pinned key set, made once per test run (fresh keys each run: the tests
/// depend on no key bytes).
struct PolicyTestSigner: Sendable {
    let ed: PolicySigningKey
    let ec: PolicySigningKey
    let keys: PolicyKeySet

    static let shared: PolicyTestSigner = {
        do {
            let ed = try PolicySigningKey.generate(.edDSA)
            let ec = try PolicySigningKey.generate(.es256)
            return PolicyTestSigner(ed: ed, ec: ec, keys: PolicyKeySet(keys: [
                PolicyKeySet.Key(kid: "ed-1", material: ed.publicKey),
                PolicyKeySet.Key(kid: "ec-1", material: ec.publicKey),
            ]))
        } catch {
            fatalError("the platform crypto could not generate test keys: \(error)")
        }
    }()

    static let crypto: PolicyCrypto = {
        guard let crypto = PolicyCrypto.platform else { fatalError("no platform crypto for the policy tests") }
        return crypto
    }()

    /// A compact JWS of `payload` under `header` (texts as given, so a test can write a
    /// duplicate key or an odd member), signed by the key `with`.
    func sign(header: String, payload: String, with key: PolicySigningKey? = nil) -> [UInt8] {
        let signer = key ?? (header.contains("\"ES256\"") ? ec : ed)
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        do {
            let signature = try signer.sign(Array(input.utf8))
            return Array((input + "." + Base64URL.encode(signature)).utf8)
        } catch {
            fatalError("signing failed: \(error)")
        }
    }

    /// A document with the usual header for `alg` and the claims with `body` as its rules.
    func document(alg: PolicyAlgorithm = .edDSA, iss: String = "com.bank.app", ver: Int = 1, iat: Int = 1_767_225_600,
                  nbf: Int? = nil, exp: Int = 1_798_761_600, rules: String = #"[]"#) -> [UInt8] {
        let kid = alg == .edDSA ? "ed-1" : "ec-1"
        let nbfText = nbf.map { ",\"nbf\":\($0)" } ?? ""
        return sign(
            header: #"{"alg":"\#(alg.rawValue)","kid":"\#(kid)","typ":"hnb-policy+jwt"}"#,
            payload: #"{"iss":"\#(iss)","ver":\#(ver),"iat":\#(iat)\#(nbfText),"exp":\#(exp),"rules":\#(rules)}"#
        )
    }

    func verify(_ bytes: [UInt8], issuer: String = "com.bank.app") -> Result<PolicyDocument, PolicyRejection> {
        PolicyDocument.verify(bytes, keys: keys, issuer: issuer, crypto: Self.crypto)
    }
}

extension Result {
    var rejection: Failure? { if case .failure(let failure) = self { failure } else { nil } }
    var value: Success? { if case .success(let value) = self { value } else { nil } }
}

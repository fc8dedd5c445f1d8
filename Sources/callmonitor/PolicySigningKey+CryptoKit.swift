// CryptoKit's key generation and signing for `callmonitor policy` on Apple platforms (the tool
// runs on macOS): Curve25519.Signing for EdDSA, P256.Signing for ES256. P-256 keys in PKCS #8
// (`derRepresentation`) need macOS 11, hence the checks; the library verifies without them.

#if canImport(CryptoKit)
import CryptoKit
import Foundation
import hnb
import hnbPolicy

extension PolicySigningKey {
    static func cryptoKitGenerate(_ algorithm: PolicyAlgorithm) throws(Failure) -> PolicySigningKey {
        switch algorithm {
        case .edDSA:
            let key = Curve25519.Signing.PrivateKey()
            return PolicySigningKey(
                algorithm: .edDSA, pkcs8: PolicyDER.ed25519PrivatePrefix + Array(key.rawRepresentation),
                publicKey: .ed25519(Array(key.publicKey.rawRepresentation))
            )
        case .es256:
            guard #available(iOS 14, macOS 11, macCatalyst 14, tvOS 14, watchOS 7, *) else {
                throw Failure("P-256 keys in PKCS #8 need iOS 14 or macOS 11")
            }
            let key = P256.Signing.PrivateKey()
            return PolicySigningKey(
                algorithm: .es256, pkcs8: Array(key.derRepresentation), publicKey: .p256(Array(key.publicKey.x963Representation))
            )
        }
    }

    static func cryptoKitLoad(_ pkcs8: [UInt8]) throws(Failure) -> PolicySigningKey {
        if pkcs8.count == PolicyDER.ed25519PrivatePrefix.count + 32, pkcs8.starts(with: PolicyDER.ed25519PrivatePrefix) {
            guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: pkcs8.dropFirst(PolicyDER.ed25519PrivatePrefix.count)) else {
                throw Failure("not an Ed25519 private key")
            }
            return PolicySigningKey(algorithm: .edDSA, pkcs8: pkcs8, publicKey: .ed25519(Array(key.publicKey.rawRepresentation)))
        }
        guard #available(iOS 14, macOS 11, macCatalyst 14, tvOS 14, watchOS 7, *) else {
            throw Failure("P-256 keys in PKCS #8 need iOS 14 or macOS 11")
        }
        guard let key = try? P256.Signing.PrivateKey(derRepresentation: pkcs8) else { throw Failure("not an Ed25519 or P-256 private key") }
        return PolicySigningKey(algorithm: .es256, pkcs8: pkcs8, publicKey: .p256(Array(key.publicKey.x963Representation)))
    }

    func cryptoKitSign(_ message: [UInt8]) throws(Failure) -> [UInt8] {
        switch algorithm {
        case .edDSA:
            guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: pkcs8.dropFirst(PolicyDER.ed25519PrivatePrefix.count)),
                  let signature = try? key.signature(for: Data(message)) else { throw Failure("signing failed") }
            return Array(signature)
        case .es256:
            guard #available(iOS 14, macOS 11, macCatalyst 14, tvOS 14, watchOS 7, *) else {
                throw Failure("P-256 keys in PKCS #8 need iOS 14 or macOS 11")
            }
            guard let key = try? P256.Signing.PrivateKey(derRepresentation: pkcs8),
                  let signature = try? key.signature(for: Data(message)) else { throw Failure("signing failed") }
            return Array(signature.rawRepresentation)
        }
    }
}
#endif

// CryptoKit for the signed policy on Apple platforms (issue 28): Curve25519.Signing for EdDSA
// and P256.Signing for ES256, iOS 13 and macOS 10.15 onwards, so no availability check is needed
// for verification. Only forwards: which key, which message and which signature are decided in
// PolicyDocument+Verify.swift.

import hnb

#if canImport(CryptoKit)
import CryptoKit
import Foundation

extension PolicyCrypto {
    /// Verification through CryptoKit.
    static let cryptoKit = PolicyCrypto { key, message, signature in
        switch key.material {
        case .ed25519(let x):
            guard let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: x) else { return false }
            return publicKey.isValidSignature(Data(signature), for: Data(message))
        case .p256(let point):
            guard let publicKey = try? P256.Signing.PublicKey(x963Representation: point),
                  let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return publicKey.isValidSignature(ecdsa, for: Data(message))
        }
    }
}
#endif

// The signature check of the signed policy (issue 28), as one value the verifier is handed, so a
// test can hand it one that is unavailable and see every document refused. The crypto itself is
// the platform's (CryptoKit on Apple platforms, OpenSSL 3's libcrypto on Linux, in the two files
// beside this one); this file only holds the interface and the DER encodings the platforms want,
// which are encoding, not cryptography.

import hnb

/// Checks one signature with one pinned key.
package struct PolicyCrypto: Sendable {
    /// `true` exactly when `signature` (raw: 64 bytes for both algorithms, ES256's as `r ‖ s`)
    /// is a valid signature of `message` by `key`. A key the platform refuses (a P-256 point
    /// off the curve) verifies nothing.
    package let verify: @Sendable (_ key: PolicyKeySet.Key, _ message: [UInt8], _ signature: [UInt8]) -> Bool

    package init(verify: @escaping @Sendable (_ key: PolicyKeySet.Key, _ message: [UInt8], _ signature: [UInt8]) -> Bool) {
        self.verify = verify
    }

    /// The platform's crypto, or `nil` where none can be loaded (a Linux machine without
    /// libcrypto.so.3): then every document is refused (`cryptoUnavailable`) and the code's
    /// policy holds.
    package static var platform: PolicyCrypto? {
        #if canImport(CryptoKit)
        PolicyCrypto.cryptoKit
        #elseif os(Linux)
        LibCrypto.shared.map(PolicyCrypto.init(libCrypto:))
        #else
        nil
        #endif
    }
}

/// The DER the platforms want around raw keys and signatures (RFC 5480, RFC 8410, SEC 1):
/// fixed prefixes and a two-integer sequence, no cryptography.
package enum PolicyDER {
    /// SubjectPublicKeyInfo of an Ed25519 key: this prefix, then the 32 key bytes.
    static let ed25519Prefix: [UInt8] = [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00]
    /// SubjectPublicKeyInfo of a P-256 key (id-ecPublicKey, prime256v1): this prefix, then the
    /// 65-byte uncompressed point.
    static let p256Prefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
        0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    /// The SubjectPublicKeyInfo DER of a pinned key.
    static func subjectPublicKeyInfo(_ material: PolicyKeySet.Key.Material) -> [UInt8] {
        switch material {
        case .ed25519(let x): ed25519Prefix + x
        case .p256(let point): p256Prefix + point
        }
    }

    /// The key of a SubjectPublicKeyInfo DER of one of the two kinds, or `nil`.
    static func material(fromSubjectPublicKeyInfo der: [UInt8]) -> PolicyKeySet.Key.Material? {
        if der.count == ed25519Prefix.count + 32, der.starts(with: ed25519Prefix) { return .ed25519(Array(der.dropFirst(ed25519Prefix.count))) }
        if der.count == p256Prefix.count + 65, der.starts(with: p256Prefix) { return .p256(Array(der.dropFirst(p256Prefix.count))) }
        return nil
    }

    /// ECDSA-Sig-Value DER (`SEQUENCE { INTEGER r, INTEGER s }`) of a raw 64-byte `r ‖ s`.
    static func ecdsaSignature(raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64 else { return nil }
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }

    /// The raw 64-byte `r ‖ s` of an ECDSA-Sig-Value DER, or `nil` when it is not one with both
    /// integers positive and at most 32 bytes.
    static func rawECDSASignature(der: [UInt8]) -> [UInt8]? {
        guard der.count >= 8, der[0] == 0x30, Int(der[1]) == der.count - 2 else { return nil }
        var index = 2
        var out: [UInt8] = []
        for _ in 0..<2 {
            guard index + 2 <= der.count, der[index] == 0x02 else { return nil }
            let length = Int(der[index + 1])
            index += 2
            guard length >= 1, index + length <= der.count else { return nil }
            var value = Array(der[index..<(index + length)])
            index += length
            while value.count > 1, value[0] == 0 { value.removeFirst() }
            guard value.count <= 32 else { return nil }
            out += [UInt8](repeating: 0, count: 32 - value.count) + value
        }
        guard index == der.count else { return nil }
        return out
    }

    /// PKCS #8 of an Ed25519 private key (RFC 8410): this prefix, then the 32-byte seed (for the
    /// tool's key generation and signing, which CryptoKit does with raw keys).
    package static let ed25519PrivatePrefix: [UInt8] = [
        0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
    ]
}

// OpenSSL 3's libcrypto, loaded at run time on Linux, for the signed policy (issue 28). Not a
// system-library target: that needs libssl-dev's headers at build time, and the README's two
// commands must build and run on a machine with nothing but the Swift toolchain. The few
// functions used are declared here with their C types (OpenSSL 3's stable ABI, libcrypto.so.3),
// and keys go in as DER, so no OSSL_PARAM or version-specific structure is touched. When the
// library cannot be loaded, `PolicyCrypto.platform` is `nil` and every document is refused.

import hnb

#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The loaded library. Its functions are thread-safe (OpenSSL 3) and the handle is never
/// closed, so the pointers stay valid for the process's life: hence the unchecked `Sendable`.
package final class LibCrypto: @unchecked Sendable {
    typealias D2iPubkey = @convention(c) (UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, Int) -> OpaquePointer?
    typealias D2iAutoPrivateKey = D2iPubkey
    typealias I2dPubkey = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> CInt
    typealias PkeyFree = @convention(c) (OpaquePointer?) -> Void
    typealias MdCtxNew = @convention(c) () -> OpaquePointer?
    typealias MdCtxFree = @convention(c) (OpaquePointer?) -> Void
    typealias DigestInit = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> CInt
    typealias DigestVerify = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int) -> CInt
    typealias DigestSign = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?, UnsafePointer<UInt8>?, Int) -> CInt
    typealias Sha256 = @convention(c) () -> OpaquePointer?
    typealias PkeyCtxNewID = @convention(c) (CInt, OpaquePointer?) -> OpaquePointer?
    typealias PkeyCtxFree = @convention(c) (OpaquePointer?) -> Void
    typealias KeygenInit = @convention(c) (OpaquePointer?) -> CInt
    typealias SetCurve = @convention(c) (OpaquePointer?, CInt) -> CInt
    typealias Keygen = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> CInt
    typealias Pkey2Pkcs8 = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias I2dPkcs8 = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> CInt
    typealias Pkcs8Free = @convention(c) (OpaquePointer?) -> Void
    typealias CryptoFree = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, CInt) -> Void

    // OpenSSL's NIDs (obj_mac.h), stable across versions.
    private static let nidED25519: CInt = 1087
    private static let nidECPublicKey: CInt = 408
    private static let nidPrime256v1: CInt = 415

    let d2iPUBKEY: D2iPubkey
    let d2iAutoPrivateKey: D2iAutoPrivateKey
    let i2dPUBKEY: I2dPubkey
    let pkeyFree: PkeyFree
    let mdCtxNew: MdCtxNew
    let mdCtxFree: MdCtxFree
    let digestVerifyInit: DigestInit
    let digestVerify: DigestVerify
    let digestSignInit: DigestInit
    let digestSign: DigestSign
    let sha256: Sha256
    let pkeyCtxNewID: PkeyCtxNewID
    let pkeyCtxFree: PkeyCtxFree
    let keygenInit: KeygenInit
    let setCurve: SetCurve
    let keygen: Keygen
    let pkey2PKCS8: Pkey2Pkcs8
    let i2dPKCS8: I2dPkcs8
    let pkcs8Free: Pkcs8Free
    let cryptoFree: CryptoFree

    /// The library most Linux systems with OpenSSL 3 have, loaded once.
    package static let shared = LibCrypto(library: "libcrypto.so.3")

    /// Loads `library` (a name dlopen searches for, or a path) and every function used, or
    /// `nil` when any is missing: a test names a library that does not exist to see the
    /// monitor fail closed.
    package init?(library: String) {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<F>(_ name: String, as _: F.Type) -> F? {
            guard let pointer = dlsym(handle, name) else { return nil }
            return unsafeBitCast(pointer, to: F.self)
        }
        guard let d2iPUBKEY = symbol("d2i_PUBKEY", as: D2iPubkey.self),
              let d2iAutoPrivateKey = symbol("d2i_AutoPrivateKey", as: D2iAutoPrivateKey.self),
              let i2dPUBKEY = symbol("i2d_PUBKEY", as: I2dPubkey.self),
              let pkeyFree = symbol("EVP_PKEY_free", as: PkeyFree.self),
              let mdCtxNew = symbol("EVP_MD_CTX_new", as: MdCtxNew.self),
              let mdCtxFree = symbol("EVP_MD_CTX_free", as: MdCtxFree.self),
              let digestVerifyInit = symbol("EVP_DigestVerifyInit", as: DigestInit.self),
              let digestVerify = symbol("EVP_DigestVerify", as: DigestVerify.self),
              let digestSignInit = symbol("EVP_DigestSignInit", as: DigestInit.self),
              let digestSign = symbol("EVP_DigestSign", as: DigestSign.self),
              let sha256 = symbol("EVP_sha256", as: Sha256.self),
              let pkeyCtxNewID = symbol("EVP_PKEY_CTX_new_id", as: PkeyCtxNewID.self),
              let pkeyCtxFree = symbol("EVP_PKEY_CTX_free", as: PkeyCtxFree.self),
              let keygenInit = symbol("EVP_PKEY_keygen_init", as: KeygenInit.self),
              let setCurve = symbol("EVP_PKEY_CTX_set_ec_paramgen_curve_nid", as: SetCurve.self),
              let keygen = symbol("EVP_PKEY_keygen", as: Keygen.self),
              let pkey2PKCS8 = symbol("EVP_PKEY2PKCS8", as: Pkey2Pkcs8.self),
              let i2dPKCS8 = symbol("i2d_PKCS8_PRIV_KEY_INFO", as: I2dPkcs8.self),
              let pkcs8Free = symbol("PKCS8_PRIV_KEY_INFO_free", as: Pkcs8Free.self),
              let cryptoFree = symbol("CRYPTO_free", as: CryptoFree.self)
        else {
            dlclose(handle)
            return nil
        }
        self.d2iPUBKEY = d2iPUBKEY
        self.d2iAutoPrivateKey = d2iAutoPrivateKey
        self.i2dPUBKEY = i2dPUBKEY
        self.pkeyFree = pkeyFree
        self.mdCtxNew = mdCtxNew
        self.mdCtxFree = mdCtxFree
        self.digestVerifyInit = digestVerifyInit
        self.digestVerify = digestVerify
        self.digestSignInit = digestSignInit
        self.digestSign = digestSign
        self.sha256 = sha256
        self.pkeyCtxNewID = pkeyCtxNewID
        self.pkeyCtxFree = pkeyCtxFree
        self.keygenInit = keygenInit
        self.setCurve = setCurve
        self.keygen = keygen
        self.pkey2PKCS8 = pkey2PKCS8
        self.i2dPKCS8 = i2dPKCS8
        self.pkcs8Free = pkcs8Free
        self.cryptoFree = cryptoFree
    }

    /// Decodes DER with one of the `d2i_` functions.
    private func decode(_ der: [UInt8], with function: D2iPubkey) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return function(nil, &cursor, buffer.count)
        }
    }

    /// The digest for an algorithm: SHA-256 for ES256, none for Ed25519 (it hashes itself).
    private func digest(_ algorithm: PolicyAlgorithm) -> OpaquePointer? {
        algorithm == .es256 ? sha256() : nil
    }

    func verify(_ key: PolicyKeySet.Key, _ message: [UInt8], _ signature: [UInt8]) -> Bool {
        let wire: [UInt8]
        switch key.algorithm {
        case .edDSA:
            guard signature.count == 64 else { return false }
            wire = signature
        case .es256:
            guard let der = PolicyDER.ecdsaSignature(raw: signature) else { return false }
            wire = der
        }
        guard let pkey = decode(PolicyDER.subjectPublicKeyInfo(key.material), with: d2iPUBKEY) else { return false }
        defer { pkeyFree(pkey) }
        guard let context = mdCtxNew() else { return false }
        defer { mdCtxFree(context) }
        guard digestVerifyInit(context, nil, digest(key.algorithm), nil, pkey) == 1 else { return false }
        let result = wire.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { tbs in
                digestVerify(context, sig.baseAddress, sig.count, tbs.baseAddress, tbs.count)
            }
        }
        return result == 1
    }

    /// Bytes an `i2d_` function writes into a buffer OpenSSL allocates.
    private func encode(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>) -> CInt) -> [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>?
        let length = body(&out)
        guard length > 0, let out else { return nil }
        defer { cryptoFree(out, nil, 0) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// Why a key could not be made, read or used (the tool prints the description).
    package struct Failure: Error, Equatable, Sendable {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    /// A private key as the tool keeps it: PKCS #8 DER and the public key OpenSSL reads back
    /// from it. Plain values, so the signing key type can live in the tool, not in an app's
    /// library.
    package typealias PrivateKey = (algorithm: PolicyAlgorithm, pkcs8: [UInt8], publicKey: PolicyKeySet.Key.Material)

    /// The private key of an `EVP_PKEY`, with its public key read back from OpenSSL.
    private func privateKey(_ pkey: OpaquePointer) throws(Failure) -> PrivateKey {
        guard let spki = encode({ i2dPUBKEY(pkey, $0) }), let material = PolicyDER.material(fromSubjectPublicKeyInfo: spki) else {
            throw Failure("the key is neither Ed25519 nor P-256")
        }
        guard let info = pkey2PKCS8(pkey) else { throw Failure("the key could not be exported") }
        defer { pkcs8Free(info) }
        guard let pkcs8 = encode({ i2dPKCS8(info, $0) }) else { throw Failure("the key could not be exported") }
        let algorithm: PolicyAlgorithm = if case .ed25519 = material { .edDSA } else { .es256 }
        return (algorithm, pkcs8, material)
    }

    /// A new key from OpenSSL's generator.
    package func generate(_ algorithm: PolicyAlgorithm) throws(Failure) -> PrivateKey {
        let id = algorithm == .edDSA ? Self.nidED25519 : Self.nidECPublicKey
        guard let context = pkeyCtxNewID(id, nil) else { throw Failure("no key generator") }
        defer { pkeyCtxFree(context) }
        guard keygenInit(context) == 1 else { throw Failure("the key generator did not start") }
        if algorithm == .es256 {
            guard setCurve(context, Self.nidPrime256v1) == 1 else { throw Failure("no P-256") }
        }
        var pkey: OpaquePointer?
        guard keygen(context, &pkey) == 1, let pkey else { throw Failure("the key was not generated") }
        defer { pkeyFree(pkey) }
        return try privateKey(pkey)
    }

    /// The key a PKCS #8 DER blob holds.
    package func load(pkcs8: [UInt8]) throws(Failure) -> PrivateKey {
        guard let pkey = decode(pkcs8, with: d2iAutoPrivateKey) else { throw Failure("not a private key") }
        defer { pkeyFree(pkey) }
        return try privateKey(pkey)
    }

    /// The raw signature of `message` (64 bytes; ES256 as `r ‖ s`) by the PKCS #8 key `pkcs8`.
    package func sign(_ message: [UInt8], pkcs8: [UInt8], algorithm: PolicyAlgorithm) throws(Failure) -> [UInt8] {
        guard let pkey = decode(pkcs8, with: d2iAutoPrivateKey) else { throw Failure("not a private key") }
        defer { pkeyFree(pkey) }
        guard let context = mdCtxNew() else { throw Failure("no signing context") }
        defer { mdCtxFree(context) }
        guard digestSignInit(context, nil, digest(algorithm), nil, pkey) == 1 else { throw Failure("signing did not start") }
        // One call into a buffer larger than either signature (Ed25519 64 bytes, a P-256 DER at
        // most 72), rather than asking for the length first, which some providers answer by
        // finishing the digest.
        var length = 80
        var signature = [UInt8](repeating: 0, count: length)
        let signed = signature.withUnsafeMutableBufferPointer { sig in
            message.withUnsafeBufferPointer { digestSign(context, sig.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        guard signed == 1, length <= signature.count else { throw Failure("signing failed") }
        signature.removeLast(signature.count - length)
        switch algorithm {
        case .edDSA: return signature
        case .es256:
            guard let raw = PolicyDER.rawECDSASignature(der: signature) else { throw Failure("OpenSSL's signature is not DER") }
            return raw
        }
    }
}

extension PolicyCrypto {
    /// Verification through a loaded libcrypto.
    package init(libCrypto: LibCrypto) {
        self.init { key, message, signature in libCrypto.verify(key, message, signature) }
    }
}
#endif

// The private signing keys of `callmonitor policy keygen` and `sign` (issue 28), and of the tests
// that sign documents of their own. An app only verifies, so the key type, its PEM form and the
// platform calls that generate and sign live here, in the tool, not in the library (issue 27):
// CryptoKit on Apple platforms (PolicySigningKey+CryptoKit.swift), the library's loaded
// libcrypto on Linux.

import hnb
import hnbPolicy

/// A private signing key: the library itself never signs.
struct PolicySigningKey: Sendable {
    let algorithm: PolicyAlgorithm
    /// The private key as PKCS #8 DER (what a `PRIVATE KEY` PEM holds).
    let pkcs8: [UInt8]
    /// Its public key, as pinned.
    let publicKey: PolicyKeySet.Key.Material

    struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A new key, from the platform's generator.
    static func generate(_ algorithm: PolicyAlgorithm) throws(Failure) -> PolicySigningKey {
        #if canImport(CryptoKit)
        try cryptoKitGenerate(algorithm)
        #elseif os(Linux)
        try PolicySigningKey(libCrypto { library throws(LibCrypto.Failure) in try library.generate(algorithm) })
        #else
        throw Failure("no platform crypto")
        #endif
    }

    /// The key a PKCS #8 DER blob holds (Ed25519 or P-256).
    static func load(pkcs8: [UInt8]) throws(Failure) -> PolicySigningKey {
        #if canImport(CryptoKit)
        try cryptoKitLoad(pkcs8)
        #elseif os(Linux)
        try PolicySigningKey(libCrypto { library throws(LibCrypto.Failure) in try library.load(pkcs8: pkcs8) })
        #else
        throw Failure("no platform crypto")
        #endif
    }

    /// The raw signature of `message` (64 bytes; ES256 as `r ‖ s`).
    func sign(_ message: [UInt8]) throws(Failure) -> [UInt8] {
        #if canImport(CryptoKit)
        try cryptoKitSign(message)
        #elseif os(Linux)
        try Self.libCrypto { library throws(LibCrypto.Failure) in try library.sign(message, pkcs8: pkcs8, algorithm: algorithm) }
        #else
        throw Failure("no platform crypto")
        #endif
    }

    /// The private key as a PEM text.
    var pem: String {
        let body = Base64URL.standard(pkcs8)
        var lines = ["-----BEGIN PRIVATE KEY-----"]
        var rest = Substring(body)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        lines.append("-----END PRIVATE KEY-----")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The DER of a `PRIVATE KEY` PEM text, or `nil` when it is not one.
    static func der(fromPEM text: String) -> [UInt8]? {
        if case .der(let der, "PRIVATE KEY") = PEM(text) { return der }
        return nil
    }

    /// What a private key PEM holds: PKCS #8 (`PRIVATE KEY`), SEC 1 (`EC PRIVATE KEY`) or
    /// PKCS #1 (`RSA PRIVATE KEY`) DER, which the platform may or may not read, or something
    /// `sign` cannot use, each with the one line that says what to do.
    enum PEM: Equatable {
        case der([UInt8], label: String)
        /// `ENCRYPTED PRIVATE KEY`, or an old-style PEM with `Proc-Type: 4,ENCRYPTED`.
        case encrypted
        case notPEM

        static let labels = ["PRIVATE KEY", "EC PRIVATE KEY", "RSA PRIVATE KEY"]

        init(_ text: String) {
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: " \t") }
            if lines.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || lines.contains(where: { $0.hasPrefix("Proc-Type: 4,ENCRYPTED") }) {
                self = .encrypted
                return
            }
            for label in Self.labels {
                guard let begin = lines.firstIndex(of: "-----BEGIN \(label)-----"),
                      let end = lines.firstIndex(of: "-----END \(label)-----"), begin < end,
                      let der = Base64URL.decodeStandard(lines[(begin + 1)..<end].joined()) else { continue }
                self = .der(der, label: label)
                return
            }
            self = .notPEM
        }

        /// The line for a PEM `sign` cannot read at all.
        func problem(path: String) -> String {
            switch self {
            case .encrypted:
                "\(path) is encrypted: sign reads an unencrypted key; decrypt it on the signing server with "
                    + "openssl pkcs8 -topk8 -nocrypt -in \(path) -out KEY.pem"
            case .der, .notPEM: "\(path) is not a PRIVATE KEY PEM"
            }
        }

        /// The line for a SEC 1 or PKCS #1 key the platform did not read.
        static func conversion(label: String, path: String) -> String {
            label == "RSA PRIVATE KEY"
                ? "\(path) is an RSA key (PKCS #1): the phones verify only Ed25519 (EdDSA) and P-256 (ES256) keys (policy keygen makes one)"
                : "\(path) is a SEC 1 \(label) the platform cannot read: convert it to PKCS #8 with openssl pkcs8 -topk8 -nocrypt -in \(path) -out KEY.pem"
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = self
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

extension Base64URL {
    /// Padded standard base64 (PEM's).
    static func standard(_ bytes: [UInt8]) -> String {
        var text = encode(bytes).replacingAll("-", with: "+").replacingAll("_", with: "/")
        while text.utf8.count % 4 != 0 { text += "=" }
        return text
    }

    /// The bytes of padded standard base64, strictly.
    static func decodeStandard(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        var padding = 0
        while body.hasSuffix("="), padding < 2 { body = body.dropLast(); padding += 1 }
        guard (body.utf8.count + padding) % 4 == 0, !body.contains("-"), !body.contains("_") else { return nil }
        return decode(Array(String(body).replacingAll("+", with: "-").replacingAll("/", with: "_").utf8))
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}


#if !canImport(CryptoKit) && os(Linux)
extension PolicySigningKey {
    /// The key the library's libcrypto made or read.
    fileprivate init(_ key: LibCrypto.PrivateKey) {
        self.init(algorithm: key.algorithm, pkcs8: key.pkcs8, publicKey: key.publicKey)
    }

    /// `body` run with the library's libcrypto, its failures in this type's words (the same
    /// texts the tool has always printed).
    fileprivate static func libCrypto<Result>(_ body: (LibCrypto) throws(LibCrypto.Failure) -> Result) throws(Failure) -> Result {
        guard let library = LibCrypto.shared else { throw Failure("libcrypto.so.3 could not be loaded") }
        do {
            return try body(library)
        } catch {
            throw Failure(error.description)
        }
    }
}
#endif

// The keys an app pins for its signed policy (issue 28): a JWK Set (RFC 7517) of Ed25519
// (OKP, RFC 8037) and P-256 (EC, RFC 7518) public keys, each named by its `kid` so a bank can
// rotate: sign with a new key once every app in use carries it, then drop the old one. Parsing
// is pure and strict; the key bytes are checked by the platform's crypto when a signature is.

import hnb

/// The two signature algorithms a policy document may use (RFC 7518 `ES256`, RFC 8037 `EdDSA`).
package enum PolicyAlgorithm: String, CaseIterable, Sendable {
    case edDSA = "EdDSA"
    case es256 = "ES256"

    /// The algorithm an `alg` names: `EdDSA`, RFC 9864's fully specified `Ed25519` (the same
    /// signature with the only curve this library verifies EdDSA with), or `ES256`; else `nil`.
    package init?(name: String) {
        if name == "Ed25519" {
            self = .edDSA
        } else {
            self.init(rawValue: name)
        }
    }
}

/// A pinned public key set.
package struct PolicyKeySet: Equatable, Sendable {
    /// One public key.
    package struct Key: Equatable, Sendable {
        package let kid: String
        package let material: Material

        /// The key as its algorithm needs it.
        package enum Material: Equatable, Sendable {
            /// Ed25519: the 32-byte public key.
            case ed25519([UInt8])
            /// P-256: the uncompressed point, `04 ‖ x ‖ y` (65 bytes).
            case p256([UInt8])
        }

        /// The algorithm this key verifies; a document naming the other is rejected
        /// (`keyTypeMismatch`), so an EC key can never be read as an Ed25519 one.
        package var algorithm: PolicyAlgorithm {
            switch material {
            case .ed25519: .edDSA
            case .p256: .es256
            }
        }

        package init(kid: String, material: Material) {
            self.kid = kid
            self.material = material
        }
    }

    /// The keys, in the order of the set.
    package let keys: [Key]
    /// The keys of a type or curve this library does not use (RSA, P-384, Ed448, X25519…), which
    /// RFC 7517 section 5 says to ignore: `"r1" (RSA)`, for the tool to list.
    package let ignored: [String]

    package init(keys: [Key], ignored: [String] = []) {
        self.keys = keys
        self.ignored = ignored
    }

    /// The key named `kid`, if pinned.
    package func key(named kid: String) -> Key? { keys.first { $0.kid == kid } }

    /// Why a key set was refused; the text is for the developer who bundled it.
    package struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    /// A key set and a policy document are each at most this long: checked before anything
    /// else is read.
    package static let maximumLength = 64 * 1024

    /// Reads a JWK Set. Keys of a type or curve this library does not use are ignored (RFC 7517
    /// section 5), but at least one usable key is needed. Refuses, with the reason, a set with
    /// none, a private key of any type (`d`: a bank must never ship its signing key), a shared
    /// secret (`oct`, or any key with `k`: it would be readable in every copy of the app),
    /// coordinates of the wrong length, a `use` other than `sig` or `key_ops` other than `sign`
    /// and `verify` (the two say the same thing, RFC 7517 section 4.3), an `alg` that does not
    /// match the key, and two keys with one `kid`. Other members of a key are ignored.
    package static func parse(_ bytes: [UInt8]) throws -> PolicyKeySet {
        guard bytes.count <= maximumLength else { throw Failure("the key set is longer than 64 KiB") }
        let json: StrictJSON
        do {
            json = try StrictJSON.parse(bytes)
        } catch StrictJSON.Failure.duplicateKey(let key) {
            throw Failure("the key set names \"\(key)\" twice in one object")
        } catch {
            throw Failure("the key set is not JSON")
        }
        guard case .array(let entries)? = json["keys"] else { throw Failure("the key set has no \"keys\" array") }
        guard !entries.isEmpty else { throw Failure("the key set has no key") }
        var keys: [Key] = []
        var ignored: [String] = []
        var kids: Set<String> = []
        for entry in entries {
            let read = try parseKey(entry)
            if let kid = read.kid {
                guard kids.insert(kid).inserted else { throw Failure("two keys are named \"\(kid)\"") }
            }
            switch read {
            case .usable(let key): keys.append(key)
            case .ignored(_, let description): ignored.append(description)
            }
        }
        guard !keys.isEmpty else {
            throw Failure("the key set has no OKP/Ed25519 or EC/P-256 key (ignored: \(ignored.joined(separator: ", ")))")
        }
        return PolicyKeySet(keys: keys, ignored: ignored)
    }

    /// One entry of the set: a key this library verifies with, or one it ignores.
    private enum Entry {
        case usable(Key)
        case ignored(kid: String?, description: String)

        var kid: String? {
            switch self {
            case .usable(let key): key.kid
            case .ignored(let kid, _): kid
            }
        }
    }

    private static func parseKey(_ json: StrictJSON) throws -> Entry {
        guard case .object = json else { throw Failure("a key is not a JSON object") }
        func text(_ name: String) throws -> String? {
            guard let value = json[name] else { return nil }
            guard case .string(let text) = value else { throw Failure("a key's \"\(name)\" is not a string") }
            return text
        }
        func bytes(_ name: String, count: Int, kid: String) throws -> [UInt8] {
            guard let encoded = try text(name) else { throw Failure("key \"\(kid)\" has no \"\(name)\"") }
            guard let decoded = Base64URL.decode(Array(encoded.utf8)), decoded.count == count else {
                throw Failure("key \"\(kid)\": \"\(name)\" is not \(count) bytes of base64url")
            }
            return decoded
        }
        let kty = try text("kty")
        let crv = try text("crv")
        let usable = (kty == "OKP" && crv == "Ed25519") || (kty == "EC" && crv == "P-256")
        let named = try text("kid")
        // A private key is refused whatever its type: a bank must never ship one.
        guard json["d"] == nil else { throw Failure("key \"\(named ?? "")\" is a private key: pin only the public part") }
        // So is a shared secret (issue 53): a key set ships inside every copy of the app, where
        // anyone can read it, and the phones verify only with public keys anyway.
        guard kty != "oct", json["k"] == nil else {
            throw Failure("key \"\(named ?? "")\" is a shared secret (kty oct): a key set the apps carry holds public keys only")
        }
        guard usable else {
            let type = [kty ?? "no kty", crv].compactMap { $0 }.joined(separator: "/")
            return .ignored(kid: named, description: named.map { "\"\($0)\" (\(type))" } ?? "a key without kid (\(type))")
        }
        guard let kid = named, !kid.isEmpty else { throw Failure("a key has no \"kid\"") }
        if let use = try text("use"), use != "sig" { throw Failure("key \"\(kid)\" is not for signatures (use \"\(use)\")") }
        if let operations = json["key_ops"] {
            guard case .array(let values) = operations, !values.isEmpty else {
                throw Failure("key \"\(kid)\": \"key_ops\" is not an array of operations")
            }
            for value in values {
                guard case .string(let operation) = value else { throw Failure("key \"\(kid)\": \"key_ops\" is not an array of operations") }
                guard operation == "verify" || operation == "sign" else {
                    throw Failure("key \"\(kid)\" is not for signatures (key_ops \"\(operation)\")")
                }
            }
        }
        let material: Key.Material = kty == "OKP"
            ? .ed25519(try bytes("x", count: 32, kid: kid))
            : .p256([0x04] + (try bytes("x", count: 32, kid: kid)) + (try bytes("y", count: 32, kid: kid)))
        let key = Key(kid: kid, material: material)
        // RFC 9864's fully specified `Ed25519` names the same algorithm as `EdDSA` with this key.
        if let alg = try text("alg"), PolicyAlgorithm(name: alg) != key.algorithm {
            throw Failure("key \"\(kid)\" says alg \"\(alg)\", which its type cannot verify")
        }
        return .usable(key)
    }

    /// The set as JWK Set JSON, for the tool's `keygen`.
    package var json: String {
        let entries = keys.map { key -> String in
            switch key.material {
            case .ed25519(let x):
                return "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"use\":\"sig\",\"alg\":\"EdDSA\",\"kid\":\(JSONText.quoted(key.kid)),\"x\":\"\(Base64URL.encode(x))\"}"
            case .p256(let point):
                return "{\"kty\":\"EC\",\"crv\":\"P-256\",\"use\":\"sig\",\"alg\":\"ES256\",\"kid\":\(JSONText.quoted(key.kid)),"
                    + "\"x\":\"\(Base64URL.encode(point[1..<33]))\",\"y\":\"\(Base64URL.encode(point[33..<65]))\"}"
            }
        }
        return "{\"keys\":[" + entries.joined(separator: ",") + "]}"
    }
}

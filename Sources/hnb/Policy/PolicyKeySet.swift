// The keys an app pins for its signed policy (issue 28): a JWK Set (RFC 7517) of Ed25519
// (OKP, RFC 8037) and P-256 (EC, RFC 7518) public keys, each named by its `kid` so a bank can
// rotate: sign with a new key once every app in use carries it, then drop the old one. Parsing
// is pure and strict; the key bytes are checked by the platform's crypto when a signature is.

/// The two signature algorithms a policy document may use (RFC 7518 `ES256`, RFC 8037 `EdDSA`).
package enum PolicyAlgorithm: String, CaseIterable, Sendable {
    case edDSA = "EdDSA"
    case es256 = "ES256"
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

    package init(keys: [Key]) { self.keys = keys }

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

    /// Reads a JWK Set. Refuses, with the reason, an empty set, a key of another type or
    /// curve, a private key (`d`: a bank must never ship its signing key), coordinates of the
    /// wrong length, a `use` other than `sig`, an `alg` that does not match the key, and two
    /// keys with one `kid`. Other members of a key are ignored, as RFC 7517 asks.
    package static func parse(_ bytes: [UInt8]) throws(Failure) -> PolicyKeySet {
        guard bytes.count <= maximumLength else { throw Failure("the key set is longer than 64 KiB") }
        let json: StrictJSON
        do {
            json = try StrictJSON.parse(bytes)
        } catch .duplicateKey(let key) {
            throw Failure("the key set names \"\(key)\" twice in one object")
        } catch {
            throw Failure("the key set is not JSON")
        }
        guard case .array(let entries)? = json["keys"] else { throw Failure("the key set has no \"keys\" array") }
        guard !entries.isEmpty else { throw Failure("the key set has no key") }
        var keys: [Key] = []
        for entry in entries {
            let key = try parseKey(entry)
            guard !keys.contains(where: { $0.kid == key.kid }) else { throw Failure("two keys are named \"\(key.kid)\"") }
            keys.append(key)
        }
        return PolicyKeySet(keys: keys)
    }

    private static func parseKey(_ json: StrictJSON) throws(Failure) -> Key {
        guard case .object = json else { throw Failure("a key is not a JSON object") }
        func text(_ name: String) throws(Failure) -> String? {
            guard let value = json[name] else { return nil }
            guard case .string(let text) = value else { throw Failure("a key's \"\(name)\" is not a string") }
            return text
        }
        func bytes(_ name: String, count: Int, kid: String) throws(Failure) -> [UInt8] {
            guard let encoded = try text(name) else { throw Failure("key \"\(kid)\" has no \"\(name)\"") }
            guard let decoded = Base64URL.decode(Array(encoded.utf8)), decoded.count == count else {
                throw Failure("key \"\(kid)\": \"\(name)\" is not \(count) bytes of base64url")
            }
            return decoded
        }
        guard let kid = try text("kid"), !kid.isEmpty else { throw Failure("a key has no \"kid\"") }
        guard json["d"] == nil else { throw Failure("key \"\(kid)\" is a private key: pin only the public part") }
        if let use = try text("use"), use != "sig" { throw Failure("key \"\(kid)\" is not for signatures (use \"\(use)\")") }
        let kty = try text("kty")
        let crv = try text("crv")
        let material: Key.Material
        switch (kty, crv) {
        case ("OKP", "Ed25519"):
            material = .ed25519(try bytes("x", count: 32, kid: kid))
        case ("EC", "P-256"):
            material = .p256([0x04] + (try bytes("x", count: 32, kid: kid)) + (try bytes("y", count: 32, kid: kid)))
        default:
            throw Failure("key \"\(kid)\" is \(kty ?? "no type")/\(crv ?? "no curve"): only OKP/Ed25519 and EC/P-256 are supported")
        }
        let key = Key(kid: kid, material: material)
        if let alg = try text("alg"), alg != key.algorithm.rawValue {
            throw Failure("key \"\(kid)\" says alg \"\(alg)\", which its type cannot verify")
        }
        return key
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

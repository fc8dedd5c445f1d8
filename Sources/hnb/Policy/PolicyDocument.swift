// The signed policy document (issue 28): a JWS compact serialization (RFC 7515) whose payload
// holds the claims and the rules. Reading it is a pure function of the bytes, the pinned keys,
// the issuer and the crypto it is handed: nothing here knows the time, the device or the policy
// in force (those are the engine's, Engine/MonitorEngine+RemotePolicy.swift). Every way a
// document can be wrong is one `Rejection`, so the app, the tool and the tests read one answer.

/// The reasons a document is refused, as the app reads them.
package typealias PolicyRejection = CallMonitor.PolicyRejection

/// A policy setting of the document for one part of the guard.
package enum RemoteSetting: Equatable, Sendable {
    /// Absent or `"code"`: what the app's code set holds.
    case code
    /// `"off"` (a screen, the capture escalation) or `"observe"` (app-wide): no policy from here.
    case off
    /// A flow and its seconds, clamped as in rules 5 and 6.
    case enforce(MonitorPolicy)
}

/// What one rule's `policy` says; absent fields are the code's.
package struct RemotePolicySettings: Equatable, Sendable {
    package var appWide: RemoteSetting = .code
    package var screens: [String: RemoteSetting] = [:]
    package var screenCaptured: RemoteSetting = .code
    package var detection: Bool?
    /// Seconds, clamped as `setCallVerifierBudget` clamps.
    package var verifierBudget: Double?

    /// A screen's setting (`.code` when the document does not name it).
    func screen(_ name: String?) -> RemoteSetting { name.flatMap { screens[$0] } ?? .code }
}

/// A version range of a `when`: comparators joined by spaces, all of which must hold.
package struct VersionRange: Sendable {
    package enum Comparison: String, Sendable { case atLeast = ">=", above = ">", atMost = "<=", below = "<", equal = "=" }
    package let terms: [(Comparison, [Int])]

    /// `">=26.0 <26.2"`, `"=26.1"`, `"26.1"` (equal); `nil` when any term is not one.
    init?(_ text: String) {
        var terms: [(Comparison, [Int])] = []
        for word in text.split(separator: " ") {
            var rest = Substring(word)
            var comparison = Comparison.equal
            for candidate in [Comparison.atLeast, .atMost, .above, .below, .equal] where rest.hasPrefix(candidate.rawValue) {
                comparison = candidate
                rest = rest.dropFirst(candidate.rawValue.count)
                break
            }
            guard let version = VersionRange.version(String(rest)) else { return nil }
            terms.append((comparison, version))
        }
        guard !terms.isEmpty else { return nil }
        self.terms = terms
    }

    /// Dot-separated non-negative integers, at most 4 parts of at most 6 digits.
    static func version(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard (1...6).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part) else { return nil }
            numbers.append(number)
        }
        return numbers
    }

    /// Compares as numbers, missing parts reading 0 (26 = 26.0 = 26.0.0).
    static func compare(_ a: [Int], _ b: [Int]) -> Int {
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    /// Whether `text` is a version inside the range; a text that is not a version is outside.
    func contains(_ text: String) -> Bool {
        guard let version = VersionRange.version(text) else { return false }
        return terms.allSatisfy { comparison, bound in
            let order = VersionRange.compare(version, bound)
            switch comparison {
            case .atLeast: return order >= 0
            case .above: return order > 0
            case .atMost: return order <= 0
            case .below: return order < 0
            case .equal: return order == 0
            }
        }
    }
}

/// A rule's `when`: every condition given must hold; an empty one always does.
package struct PolicyCondition: Sendable {
    package var os: [String]?
    package var osVersion: VersionRange?
    package var appVersion: VersionRange?
    package var attributes: [String: [String]] = [:]

    /// Whether the device described by `attributes` (the library's `os`, `osVersion`,
    /// `appVersion` and the app's own) matches. A condition on an attribute the device does not
    /// have does not hold: a rule for a region never applies where the region is unknown.
    func matches(_ device: [String: String]) -> Bool {
        if let os, !(device["os"].map(os.contains) ?? false) { return false }
        if let osVersion, !(device["osVersion"].map(osVersion.contains) ?? false) { return false }
        if let appVersion, !(device["appVersion"].map(appVersion.contains) ?? false) { return false }
        for (name, values) in attributes where !(device[name].map(values.contains) ?? false) { return false }
        return true
    }
}

/// A verified document: what the engine applies.
package struct PolicyDocument: Sendable {
    package struct Rule: Sendable {
        package let when: PolicyCondition
        package let policy: RemotePolicySettings
    }

    package let version: Int64
    package let issuedAt: Int64
    package let notBefore: Int64?
    package let expires: Int64
    package let rules: [Rule]

    /// The first rule whose `when` matches the device, or `nil` (the code's policy).
    package func rule(for device: [String: String]) -> (index: Int, rule: Rule)? {
        rules.enumerated().first { $0.element.when.matches(device) }.map { ($0.offset, $0.element) }
    }
}

extension PolicyDocument {
    /// The header members this version understands; any other is refused (`crit` included: an
    /// extension this version cannot honour must not be ignored).
    private static let headerMembers: Set<String> = ["alg", "kid", "typ"]
    private static let claimMembers: Set<String> = ["iss", "ver", "iat", "nbf", "exp", "rules"]
    private static let policyMembers: Set<String> = ["appWide", "screens", "screenCaptured", "detection", "verifierBudget"]
    private static let whenMembers: Set<String> = ["os", "osVersion", "appVersion", "attributes"]
    /// The `typ` a policy document carries (RFC 8725 explicit typing).
    package static let type = "hnb-policy+jwt"

    /// Verifies and reads a compact JWS: size first, then the header, the key, the signature,
    /// and only then the claims, so nothing of an unsigned payload is interpreted.
    package static func verify(
        _ bytes: [UInt8], keys: PolicyKeySet?, issuer: String, crypto: PolicyCrypto?
    ) -> Result<PolicyDocument, PolicyRejection> {
        // Not `Result { … }`: its typed-throws initializer is missing from older SDKs' overlays.
        do {
            return .success(try read(bytes, keys: keys, issuer: issuer, crypto: crypto))
        } catch {
            return .failure(error)
        }
    }

    private static func read(_ bytes: [UInt8], keys: PolicyKeySet?, issuer: String, crypto: PolicyCrypto?) throws(PolicyRejection) -> PolicyDocument {
        guard bytes.count <= PolicyKeySet.maximumLength else { throw .tooLarge }
        guard let keys else { throw .noKeys }
        // Surrounding white space is tolerated (a file's last newline); nothing inside.
        var text = bytes[...]
        while let last = text.last, [0x0A, 0x0D, 0x20, 0x09].contains(last) { text = text.dropLast() }
        while let first = text.first, [0x0A, 0x0D, 0x20, 0x09].contains(first) { text = text.dropFirst() }
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else { throw .malformed }
        guard let headerBytes = Base64URL.decode(parts[0]), let signature = Base64URL.decode(parts[2]) else { throw .malformed }
        let header = try json(headerBytes)
        guard case .object(let members) = header else { throw .malformed }
        guard case .string(let alg)? = header["alg"] else { throw .malformed }
        guard let algorithm = PolicyAlgorithm(name: alg) else { throw .unsupportedAlgorithm }
        guard case .string(let typ)? = header["typ"], isPolicyType(typ) else { throw .wrongType }
        guard members.allSatisfy({ headerMembers.contains($0.key) }) else { throw .unknownField }
        guard case .string(let kid)? = header["kid"] else { throw .malformed }
        guard let key = keys.key(named: kid) else { throw .unknownKey }
        guard key.algorithm == algorithm else { throw .keyTypeMismatch }
        guard signature.count == 64 else { throw .badSignature }
        guard let crypto else { throw .cryptoUnavailable }
        // The signing input is the first two parts as they arrived (RFC 7515 section 5.2).
        let signingInput = Array(text[parts[0].startIndex..<parts[1].endIndex])
        guard crypto.verify(key, signingInput, signature) else { throw .badSignature }
        guard let payload = Base64URL.decode(parts[1]) else { throw .malformed }
        return try claims(try json(payload), issuer: issuer)
    }

    /// Whether `typ` names the policy's media type: `hnb-policy+jwt`, with or without the
    /// `application/` prefix RFC 7515 section 4.1.9 lets a producer leave out, in any case (media
    /// types are case-insensitive, RFC 2045).
    static func isPolicyType(_ typ: String) -> Bool {
        let lowered = String(typ.unicodeScalars.map { $0.isASCII ? Character(String($0).lowercased()) : Character($0) })
        return lowered == type || lowered == "application/" + type
    }

    private static func json(_ bytes: [UInt8]) throws(PolicyRejection) -> StrictJSON {
        do {
            return try StrictJSON.parse(bytes)
        } catch .duplicateKey {
            throw .duplicateKey
        } catch {
            throw .malformed
        }
    }

    private static func claims(_ json: StrictJSON, issuer: String) throws(PolicyRejection) -> PolicyDocument {
        guard case .object(let members) = json else { throw .malformed }
        guard members.allSatisfy({ claimMembers.contains($0.key) }) else { throw .unknownField }
        guard case .string(let iss)? = json["iss"] else { throw .invalidClaims }
        guard iss == issuer else { throw .wrongIssuer }
        guard case .integer(let ver)? = json["ver"], ver >= 1 else { throw .invalidClaims }
        guard case .integer(let iat)? = json["iat"] else { throw .invalidClaims }
        guard case .integer(let exp)? = json["exp"] else { throw .invalidClaims }
        var nbf: Int64?
        if let value = json["nbf"] {
            guard case .integer(let seconds) = value, seconds < exp else { throw .invalidClaims }
            nbf = seconds
        }
        guard case .array(let entries)? = json["rules"] else { throw .invalidClaims }
        var rules: [Rule] = []
        for entry in entries {
            guard case .object(let ruleMembers) = entry else { throw .invalidPolicy }
            guard ruleMembers.allSatisfy({ $0.key == "when" || $0.key == "policy" }) else { throw .unknownField }
            guard let policy = entry["policy"] else { throw .invalidPolicy }
            rules.append(Rule(when: try condition(entry["when"]), policy: try settings(policy)))
        }
        return PolicyDocument(version: ver, issuedAt: iat, notBefore: nbf, expires: exp, rules: rules)
    }

    private static func strings(_ json: StrictJSON) throws(PolicyRejection) -> [String] {
        switch json {
        case .string(let text): return [text]
        case .array(let elements):
            var out: [String] = []
            for element in elements {
                guard case .string(let text) = element else { throw .invalidPolicy }
                out.append(text)
            }
            return out
        default: throw .invalidPolicy
        }
    }

    private static func condition(_ json: StrictJSON?) throws(PolicyRejection) -> PolicyCondition {
        var condition = PolicyCondition()
        guard let json else { return condition }
        guard case .object(let members) = json else { throw .invalidPolicy }
        guard members.allSatisfy({ whenMembers.contains($0.key) }) else { throw .unknownField }
        if let os = json["os"] { condition.os = try strings(os) }
        for name in ["osVersion", "appVersion"] {
            guard let value = json[name] else { continue }
            guard case .string(let text) = value, let range = VersionRange(text) else { throw .invalidPolicy }
            if name == "osVersion" { condition.osVersion = range } else { condition.appVersion = range }
        }
        if let attributes = json["attributes"] {
            guard case .object(let pairs) = attributes else { throw .invalidPolicy }
            for (name, values) in pairs { condition.attributes[name] = try strings(values) }
        }
        return condition
    }

    /// `{"flow": …, "seconds": N}`, or one of the words `allowed`.
    private static func setting(_ json: StrictJSON, words: [String: RemoteSetting]) throws(PolicyRejection) -> RemoteSetting {
        switch json {
        case .string(let word):
            guard let setting = words[word] else { throw .invalidPolicy }
            return setting
        case .object(let members):
            guard members.allSatisfy({ $0.key == "flow" || $0.key == "seconds" }) else { throw .unknownField }
            let flow: CallMonitorFlow
            switch json["flow"] {
            case .string("terminate")?: flow = .terminate
            case .string("acknowledge")?: flow = .acknowledge
            default: throw .invalidPolicy
            }
            let seconds: Int32
            switch json["seconds"] {
            case .integer(let value)?:
                guard let exact = Int32(exactly: value) else { throw .secondsOutOfRange }
                seconds = exact
            case .number(let value, _)?:
                // A whole number too large for Int64 (or written with an exponent) arrives here.
                guard value.rounded() == value, value.magnitude > Double(Int32.max) else { throw .invalidPolicy }
                throw .secondsOutOfRange
            default: throw .invalidPolicy
            }
            return .enforce(MonitorPolicy(flow: flow, requestedSeconds: seconds))
        default:
            throw .invalidPolicy
        }
    }

    private static func settings(_ json: StrictJSON) throws(PolicyRejection) -> RemotePolicySettings {
        guard case .object(let members) = json else { throw .invalidPolicy }
        guard members.allSatisfy({ policyMembers.contains($0.key) }) else { throw .unknownField }
        var settings = RemotePolicySettings()
        if let appWide = json["appWide"] { settings.appWide = try setting(appWide, words: ["code": .code, "observe": .off]) }
        if let screens = json["screens"] {
            guard case .object(let pairs) = screens else { throw .invalidPolicy }
            for (name, value) in pairs { settings.screens[name] = try setting(value, words: ["code": .code, "off": .off]) }
        }
        if let captured = json["screenCaptured"] {
            settings.screenCaptured = try setting(captured, words: ["code": .code, "off": .off])
        }
        if let detection = json["detection"] {
            guard case .bool(let on) = detection else { throw .invalidPolicy }
            settings.detection = on
        }
        if let budget = json["verifierBudget"] {
            let seconds: Double
            switch budget {
            case .integer(let value): seconds = Double(value)
            case .number(let value, _): seconds = value
            default: throw .invalidPolicy
            }
            settings.verifierBudget = min(max(seconds, 0.1), 30)
        }
        return settings
    }
}

#if DEBUG
// Equality that only the tests use, left out of release builds (CONTRIBUTING, "Binary size").
extension VersionRange: Equatable {
    package static func == (lhs: VersionRange, rhs: VersionRange) -> Bool {
        lhs.terms.count == rhs.terms.count && zip(lhs.terms, rhs.terms).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }
}
extension PolicyCondition: Equatable {}
extension PolicyDocument: Equatable {}
extension PolicyDocument.Rule: Equatable {}
#endif

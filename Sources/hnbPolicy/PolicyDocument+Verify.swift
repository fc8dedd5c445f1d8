// The signed policy document's verifier (issue 28): a JWS compact serialization (RFC 7515)
// whose payload holds the claims and the rules. Reading it is a pure function of the bytes, the
// pinned keys, the issuer and the crypto it is handed: nothing here knows the time, the device or
// the policy in force (those are the engine's, in hnb). Every way a document can be wrong is one
// `PolicyRejection`, so the app, the tool and the tests read one answer. Part of the policy
// product (issue 39); the document it yields is hnb's value (Engine/RemotePolicyDocument.swift).

import hnb

extension PolicyDocument {
    /// The header members this version understands; any other is refused (`crit` included: an
    /// extension this version cannot honour must not be ignored).
    private static let headerMembers: Set<String> = ["alg", "kid", "typ"]
    private static let claimMembers: Set<String> = ["iss", "ver", "iat", "nbf", "exp", "rules"]
    private static let policyMembers: Set<String> = ["appWide", "screens", "screenCaptured", "detection", "verifierBudget", "coaching"]
    private static let whenMembers: Set<String> = ["os", "osVersion", "appVersion", "attributes"]
    /// The `typ` a policy document carries (RFC 8725 explicit typing).
    package static let type = "hnb-policy+jwt"

    /// Verifies and reads a compact JWS: size first, then the header, the key, the signature,
    /// and only then the claims, so nothing of an unsigned payload is interpreted.
    package static func verify(
        _ bytes: [UInt8], keys: PolicyKeySet?, issuer: String, crypto: PolicyCrypto?
    ) -> Result<PolicyDocument, PolicyRejection> {
        verifyExplained(bytes, keys: keys, issuer: issuer, crypto: crypto).mapError(\.reason)
    }

    /// ``verify(_:keys:issuer:crypto:)`` with what each refusal points at.
    package static func verifyExplained(
        _ bytes: [UInt8], keys: PolicyKeySet?, issuer: String, crypto: PolicyCrypto?
    ) -> Result<PolicyDocument, PolicyRefusal> {
        // Not `Result { … }`: its typed-throws initializer is missing from older SDKs' overlays.
        do {
            return .success(try read(bytes, keys: keys, issuer: issuer, crypto: crypto))
        } catch {
            let error = error.narrowed(or: PolicyRefusal.unexpected)
            return .failure(error)
        }
    }

    /// Whether `typ` names the policy's media type: `hnb-policy+jwt`, with or without the
    /// `application/` prefix RFC 7515 section 4.1.9 lets a producer leave out, in any case of
    /// its ASCII letters (media types are case-insensitive, RFC 2045; only ASCII is folded, so
    /// the Kelvin sign never reads as a k).
    static func isPolicyType(_ typ: String) -> Bool {
        let lowered = String(typ.unicodeScalars.map { $0.isASCII ? Character(String($0).lowercased()) : Character($0) })
        return lowered == type || lowered == "application/" + type
    }

    /// A value as a message may quote it: short ones whole, long ones cut, so no message ever
    /// echoes a whole input.
    static func quote(_ json: StrictJSON) -> String {
        let text: String
        switch json {
        case .object: return "an object"
        case .array: return "an array"
        case .string(let value): text = JSONText.quoted(value)
        case .integer(let value): text = String(value)
        case .number(_, let literal): text = literal
        case .bool(let value): text = value ? "true" : "false"
        case .null: text = "null"
        }
        return text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }

    /// A compact JWS split and its header read, before anything of it is trusted: what both
    /// the phones' reading and the signature layer start from.
    struct Compact {
        /// The header as read (an object with a string `alg`).
        let header: StrictJSON
        let members: [(key: String, value: StrictJSON)]
        /// The `alg` as written and the algorithm it names.
        let alg: String
        let algorithm: PolicyAlgorithm
        let signature: [UInt8]
        /// The first two parts as they arrived (RFC 7515 section 5.2).
        let signingInput: [UInt8]
        /// The payload part, still base64url.
        let payload: ArraySlice<UInt8>
    }

    /// Size, form, header and `alg`: the steps every reading takes first, in the phones' order.
    private static func compact(_ bytes: [UInt8], keys: PolicyKeySet?) throws -> (Compact, PolicyKeySet) {
        guard bytes.count <= PolicyKeySet.maximumLength else { throw PolicyRefusal.tooLarge }
        guard let keys else { throw PolicyRefusal(.noKeys, PolicyRefusal.noKeysDetail) }
        // Surrounding white space is tolerated (a file's last newline); nothing inside.
        var text = bytes[...]
        while let last = text.last, [0x0A, 0x0D, 0x20, 0x09].contains(last) { text = text.dropLast() }
        while let first = text.first, [0x0A, 0x0D, 0x20, 0x09].contains(first) { text = text.dropFirst() }
        if text.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw PolicyRefusal(.malformed, "the document starts with a byte-order mark: expected the compact JWS alone")
        }
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            throw PolicyRefusal(.malformed, "expected three non-empty base64url parts joined by '.' (a JWS compact serialization), got \(parts.count) part\(parts.count == 1 ? "" : "s")")
        }
        guard let headerBytes = Base64URL.decode(parts[0]) else { throw PolicyRefusal(.malformed, "header: expected unpadded base64url") }
        guard let signature = Base64URL.decode(parts[2]) else { throw PolicyRefusal(.malformed, "signature: expected unpadded base64url") }
        let header = try json(headerBytes, part: "header")
        guard case .object(let members) = header else { throw PolicyRefusal(.malformed, "header: expected a JSON object") }
        guard case .string(let alg)? = header["alg"] else { throw PolicyRefusal(.malformed, "header alg: expected a string") }
        guard let algorithm = PolicyAlgorithm(name: alg) else {
            throw PolicyRefusal(.unsupportedAlgorithm, "header alg: expected EdDSA, Ed25519 or ES256, got \(quote(.string(alg)))")
        }
        let compact = Compact(
            header: header, members: members, alg: alg, algorithm: algorithm, signature: signature,
            signingInput: Array(text[parts[0].startIndex..<parts[1].endIndex]), payload: parts[1]
        )
        return (compact, keys)
    }

    /// The pinned key the header's `kid` names, of the type its `alg` needs.
    private static func namedKey(_ jws: Compact, keys: PolicyKeySet) throws -> PolicyKeySet.Key {
        guard case .string(let kid)? = jws.header["kid"] else {
            throw PolicyRefusal(.malformed, "header kid: expected a string naming a pinned key, got \(jws.header["kid"].map(quote) ?? "none") (the format requires kid)")
        }
        guard let key = keys.key(named: kid) else {
            throw PolicyRefusal(.unknownKey, "header kid: expected one of the pinned keys (\(keys.keys.map(\.kid).joined(separator: ", "))), got \(quote(.string(kid)))")
        }
        guard key.algorithm == jws.algorithm else {
            throw PolicyRefusal(.keyTypeMismatch, "header alg: key \(quote(.string(kid))) verifies \(key.algorithm.rawValue), got \(jws.alg)")
        }
        return key
    }

    /// Whether the signature over the signing input is genuine under `key`: the one signature
    /// check, which the phones' reading and the tool's signature layer both run.
    private static func checkSignature(_ jws: Compact, key: PolicyKeySet.Key, crypto: PolicyCrypto?) throws {
        guard jws.signature.count == 64 else {
            throw PolicyRefusal(.badSignature, "signature: expected 64 bytes (\(jws.algorithm == .es256 ? "raw r‖s" : "Ed25519")), got \(jws.signature.count)")
        }
        guard let crypto else { throw PolicyRefusal(.cryptoUnavailable, "no platform crypto could be loaded") }
        guard crypto.verify(key, jws.signingInput, jws.signature) else {
            throw PolicyRefusal(.badSignature, "signature: does not verify with key \(quote(.string(key.kid))) (\(jws.algorithm.rawValue))")
        }
    }

    /// The phones' reading: size, form, header, `alg`, then `typ` and the header's members (a
    /// token signed for something else is refused before its key is looked up), the key, the
    /// signature, and only then the claims, so nothing of an unsigned payload is interpreted.
    private static func read(_ bytes: [UInt8], keys: PolicyKeySet?, issuer: String, crypto: PolicyCrypto?) throws -> PolicyDocument {
        let (jws, keys) = try compact(bytes, keys: keys)
        guard case .string(let typ)? = jws.header["typ"], isPolicyType(typ) else {
            throw PolicyRefusal(.wrongType, "header typ: expected \"\(type)\" (or application/\(type)), got \(jws.header["typ"].map(quote) ?? "none")")
        }
        for member in jws.members where !headerMembers.contains(member.key) {
            throw PolicyRefusal(.unknownField, "header \(member.key): expected only alg, kid and typ (crit and extensions are refused)")
        }
        let key = try namedKey(jws, keys: keys)
        try checkSignature(jws, key: key, crypto: crypto)
        guard let payload = Base64URL.decode(jws.payload) else { throw PolicyRefusal(.malformed, "payload: expected unpadded base64url") }
        return try claims(try json(payload, part: "payload"), issuer: issuer)
    }

    /// Reads a payload as the phones read a signed document's: the strict JSON reader, then the
    /// claims and rules, for `callmonitor policy sign`, which refuses what no phone would apply.
    /// Without `issuer` the payload's own `iss` is taken (the signer is not told the app's).
    package static func readPayload(_ bytes: [UInt8], issuer: String?) -> Result<PolicyDocument, PolicyRefusal> {
        do {
            guard bytes.count <= PolicyKeySet.maximumLength else { throw PolicyRefusal.tooLarge }
            let parsed = try json(bytes, part: "payload")
            var expected = issuer ?? ""
            if issuer == nil, case .string(let own)? = parsed["iss"] { expected = own }
            return .success(try claims(parsed, issuer: expected))
        } catch {
            let error = error.narrowed(or: PolicyRefusal.unexpected)
            return .failure(error)
        }
    }

    /// The integer `exp` a payload claims, read without judging anything else, for the tool to
    /// say that a document the phones refuse for its content has expired as well; `nil` when
    /// the document or its `exp` cannot be read.
    package static func claimedExpiry(_ bytes: [UInt8]) -> Int64? {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard bytes.count <= PolicyKeySet.maximumLength, parts.count == 3, let payload = Base64URL.decode(parts[1]),
              let parsed = try? StrictJSON.parse(payload), case .integer(let exp)? = parsed["exp"] else { return nil }
        return exp
    }

    /// The signature layer alone, for the bank's tool: whether the signature over these bytes is
    /// genuine under a pinned key, whatever the header's other members and the claims are.
    package enum SignatureCheck: Equatable, Sendable {
        /// Genuine under the pinned key `kid`; `named` is false when the header names no `kid`
        /// and the key was found by trying each pinned key of the algorithm (the RFC examples).
        case valid(algorithm: PolicyAlgorithm, kid: String, named: Bool)
        /// The signature was checked and is not genuine (`badSignature`).
        case bad(PolicyRefusal)
        /// The signature could not be checked: the form, the `alg`, the key or the crypto.
        case notChecked(PolicyRefusal)
    }

    /// Checks only the signature of `bytes`, with the same steps and the same check as
    /// ``verify(_:keys:issuer:crypto:)``, leaving out what only the phones' acceptance needs
    /// (`typ`, the other header members, the claims). Without a `kid` in the header, each pinned
    /// key of the algorithm is tried, so that a document signed without one (as the RFCs'
    /// examples are) still says whether its signing works.
    package static func checkSignature(_ bytes: [UInt8], keys: PolicyKeySet?, crypto: PolicyCrypto?) -> SignatureCheck {
        let jws: Compact
        let pinned: PolicyKeySet
        do {
            (jws, pinned) = try compact(bytes, keys: keys)
        } catch {
            let error = error.narrowed(or: PolicyRefusal.unexpected)
            return .notChecked(error)
        }
        if jws.header["kid"] == nil {
            let candidates = pinned.keys.filter { $0.algorithm == jws.algorithm }
            guard !candidates.isEmpty else {
                return .notChecked(PolicyRefusal(.unknownKey, "header kid: none, and no pinned key verifies \(jws.algorithm.rawValue)"))
            }
            var last: PolicyRefusal?
            for key in candidates {
                do {
                    try checkSignature(jws, key: key, crypto: crypto)
                    return .valid(algorithm: jws.algorithm, kid: key.kid, named: false)
                } catch {
                    let error = error.narrowed(or: PolicyRefusal.unexpected)
                    if error.reason != .badSignature { return .notChecked(error) }
                    last = error
                }
            }
            if candidates.count == 1, let last { return .bad(last) }
            let names = candidates.map { quote(.string($0.kid)) }.joined(separator: ", ")
            return .bad(PolicyRefusal(.badSignature, "signature: does not verify with any pinned \(jws.algorithm.rawValue) key (\(names); the header names no kid)"))
        }
        do {
            let key = try namedKey(jws, keys: pinned)
            try checkSignature(jws, key: key, crypto: crypto)
            return .valid(algorithm: jws.algorithm, kid: key.kid, named: true)
        } catch {
            let error = error.narrowed(or: PolicyRefusal.unexpected)
            return error.reason == .badSignature ? .bad(error) : .notChecked(error)
        }
    }

    private static func json(_ bytes: [UInt8], part: String) throws -> StrictJSON {
        do {
            return try StrictJSON.parse(bytes)
        } catch {
            let error = error.narrowed(or: StrictJSON.Failure.unexpected)
            switch error {
            case .duplicateKey(let key):
                throw PolicyRefusal(.duplicateKey, "\(part): \(quote(.string(key))) appears twice in one object")
            case .tooDeep:
                throw PolicyRefusal(.malformed, "\(part): nested deeper than JSON is read here")
            case .syntax(let offset):
                throw PolicyRefusal(.malformed, "\(part): expected JSON (RFC 8259), stopped at byte \(offset)")
            }
        }
    }

    /// An integer NumericDate claim: the format takes whole seconds only (RFC 7519 allows
    /// fractions; two readers must not round one two ways).
    private static func date(_ json: StrictJSON?, _ name: String) throws -> Int64 {
        guard case .integer(let seconds)? = json else {
            throw PolicyRefusal(.invalidClaims, "\(name): expected an integer NumericDate (whole seconds; the format is stricter than RFC 7519), got \(json.map(quote) ?? "none")")
        }
        return seconds
    }

    private static func claims(_ json: StrictJSON, issuer: String) throws -> PolicyDocument {
        guard case .object(let members) = json else { throw PolicyRefusal(.malformed, "payload: expected a JSON object of claims") }
        for member in members where !claimMembers.contains(member.key) {
            throw PolicyRefusal(.unknownField, "\(member.key): expected only iss, ver, iat, nbf, exp and rules (the format refuses unknown claims)")
        }
        guard case .string(let iss)? = json["iss"] else {
            throw PolicyRefusal(.invalidClaims, "iss: expected a string, got \(json["iss"].map(quote) ?? "none")")
        }
        guard iss == issuer else { throw PolicyRefusal(.wrongIssuer, "iss: expected \(quote(.string(issuer))), got \(quote(.string(iss)))") }
        guard case .integer(let ver)? = json["ver"], ver >= 1 else {
            throw PolicyRefusal(.invalidClaims, "ver: expected an integer from 1, got \(json["ver"].map(quote) ?? "none")")
        }
        let iat = try date(json["iat"], "iat")
        let exp = try date(json["exp"], "exp")
        var nbf: Int64?
        if let value = json["nbf"] {
            let seconds = try date(value, "nbf")
            guard seconds < exp else { throw PolicyRefusal(.invalidClaims, "nbf: expected before exp (\(exp)), got \(seconds)") }
            nbf = seconds
        }
        guard case .array(let entries)? = json["rules"] else {
            throw PolicyRefusal(.invalidClaims, "rules: expected an array, got \(json["rules"].map(quote) ?? "none")")
        }
        var rules: [Rule] = []
        for (index, entry) in entries.enumerated() {
            let path = "rules[\(index)]"
            guard case .object(let ruleMembers) = entry else { throw PolicyRefusal(.invalidPolicy, "\(path): expected an object, got \(quote(entry))") }
            for member in ruleMembers where member.key != "when" && member.key != "policy" {
                throw PolicyRefusal(.unknownField, "\(path).\(member.key): expected only when and policy")
            }
            guard let policy = entry["policy"] else { throw PolicyRefusal(.invalidPolicy, "\(path).policy: expected an object, got none") }
            rules.append(Rule(when: try condition(entry["when"], path: "\(path).when"), policy: try settings(policy, path: "\(path).policy")))
        }
        return PolicyDocument(version: ver, issuedAt: iat, notBefore: nbf, expires: exp, rules: rules)
    }

    private static func strings(_ json: StrictJSON, path: String) throws -> [String] {
        switch json {
        case .string(let text): return [text]
        case .array(let elements):
            var out: [String] = []
            for (index, element) in elements.enumerated() {
                guard case .string(let text) = element else {
                    throw PolicyRefusal(.invalidPolicy, "\(path)[\(index)]: expected a string, got \(quote(element))")
                }
                out.append(text)
            }
            return out
        default: throw PolicyRefusal(.invalidPolicy, "\(path): expected a string or an array of strings, got \(quote(json))")
        }
    }

    private static func condition(_ json: StrictJSON?, path: String) throws -> PolicyCondition {
        var condition = PolicyCondition()
        guard let json else { return condition }
        guard case .object(let members) = json else { throw PolicyRefusal(.invalidPolicy, "\(path): expected an object, got \(quote(json))") }
        for member in members where !whenMembers.contains(member.key) {
            throw PolicyRefusal(.unknownField, "\(path).\(member.key): expected only os, osVersion, appVersion and attributes")
        }
        if let os = json["os"] { condition.os = try strings(os, path: "\(path).os") }
        for name in ["osVersion", "appVersion"] {
            guard let value = json[name] else { continue }
            guard case .string(let text) = value, let range = VersionRange(text) else {
                throw PolicyRefusal(.invalidPolicy, "\(path).\(name): expected a version range (\">=26.0 <26.2\", \"=26.1\"), got \(quote(value))")
            }
            if name == "osVersion" { condition.osVersion = range } else { condition.appVersion = range }
        }
        if let attributes = json["attributes"] {
            guard case .object(let pairs) = attributes else {
                throw PolicyRefusal(.invalidPolicy, "\(path).attributes: expected an object of names to values, got \(quote(attributes))")
            }
            for (name, values) in pairs { condition.attributes[name] = try strings(values, path: "\(path).attributes.\(name)") }
        }
        return condition
    }

    /// `{"flow": …, "seconds": N}`, or one of the words `allowed`.
    private static func setting(_ json: StrictJSON, words: [String: RemoteSetting], path: String) throws -> RemoteSetting {
        let expected = "expected {\"flow\": \"terminate\"|\"acknowledge\", \"seconds\": N} or " + words.keys.sorted().map { "\"\($0)\"" }.joined(separator: " or ")
        switch json {
        case .string(let word):
            guard let setting = words[word] else { throw PolicyRefusal(.invalidPolicy, "\(path): \(expected), got \(quote(json))") }
            return setting
        case .object(let members):
            for member in members where member.key != "flow" && member.key != "seconds" {
                throw PolicyRefusal(.unknownField, "\(path).\(member.key): expected only flow and seconds")
            }
            let flow: CallMonitorFlow
            switch json["flow"] {
            case .string("terminate")?: flow = .terminate
            case .string("acknowledge")?: flow = .acknowledge
            default:
                throw PolicyRefusal(.invalidPolicy, "\(path).flow: expected \"terminate\" or \"acknowledge\", got \(json["flow"].map(quote) ?? "none")")
            }
            return .enforce(MonitorPolicy(flow: flow, requestedSeconds: try seconds(json["seconds"], path: "\(path).seconds")))
        default:
            throw PolicyRefusal(.invalidPolicy, "\(path): \(expected), got \(quote(json))")
        }
    }

    /// A `seconds` member: an integer within `Int32` (outside it: `secondsOutOfRange`), which the
    /// monitor then clamps as its API does (rules 5 and 6; a coaching warning's as rule 32 does).
    private static func seconds(_ json: StrictJSON?, path: String) throws -> Int32 {
        let range = "expected an integer from \(Int32.min) to \(Int32.max)"
        switch json {
        case .integer(let value)?:
            guard let exact = Int32(exactly: value) else { throw PolicyRefusal(.secondsOutOfRange, "\(path): \(range), got \(value)") }
            return exact
        case .number(let value, let literal)?:
            // A whole number too large for Int64 (or written with an exponent) arrives here.
            guard value.rounded() == value, value.magnitude > Double(Int32.max) else {
                throw PolicyRefusal(.invalidPolicy, "\(path): \(range), got \(quote(.number(value, literal: literal)))")
            }
            throw PolicyRefusal(.secondsOutOfRange, "\(path): \(range), got \(quote(.number(value, literal: literal)))")
        default:
            throw PolicyRefusal(.invalidPolicy, "\(path): \(range), got \(json.map(quote) ?? "none")")
        }
    }

    /// A name the document chose (a screen, a member, a level) as a path or message may show it:
    /// cut past 40 characters, so that no refusal echoes a long input back whole.
    private static func cut(_ name: String) -> String { name.count <= 40 ? name : String(name.prefix(40)) + "…" }

    /// `coaching`: `{"screens": {NAME: {"medium": R, "high": R}}}` (rule 35), where each R is
    /// `"code"` (the code's response), `"off"`, `"evaluate"` or `{"flow": "acknowledge",
    /// "seconds": N}`. Anything else, an unknown level (`unknown`, `low`) or member included, is
    /// refused, and with it the whole document.
    private static func coaching(_ json: StrictJSON, path: String) throws -> [String: RemoteCoaching] {
        guard case .object(let members) = json else {
            throw PolicyRefusal(.invalidPolicy, "\(path): expected an object {\"screens\": {…}}, got \(quote(json))")
        }
        for member in members where member.key != "screens" {
            throw PolicyRefusal(.unknownField, "\(path).\(cut(member.key)): expected only screens")
        }
        guard let screens = json["screens"] else { return [:] }
        guard case .object(let pairs) = screens else {
            throw PolicyRefusal(.invalidPolicy, "\(path).screens: expected an object of screen names, got \(quote(screens))")
        }
        var out: [String: RemoteCoaching] = [:]
        for (name, levels) in pairs {
            let screenPath = "\(path).screens.\(cut(name))"
            guard case .object(let levelMembers) = levels else {
                throw PolicyRefusal(.invalidPolicy, "\(screenPath): expected an object of levels {\"medium\": …, \"high\": …}, got \(quote(levels))")
            }
            for member in levelMembers where member.key != "medium" && member.key != "high" {
                throw PolicyRefusal(.unknownField, "\(screenPath): \(quote(.string(member.key))) is not a level: expected only medium and high (unknown is never set: it changes nothing)")
            }
            var remote = RemoteCoaching()
            if let medium = levels["medium"] { remote.medium = try coachingResponse(medium, path: "\(screenPath).medium") }
            if let high = levels["high"] { remote.high = try coachingResponse(high, path: "\(screenPath).high") }
            out[name] = remote
        }
        return out
    }

    /// One level's response; `nil` for `"code"`.
    private static func coachingResponse(_ json: StrictJSON, path: String) throws -> CallMonitor.CoachingResponse? {
        let expected = "expected \"code\", \"off\", \"evaluate\" or {\"flow\": \"acknowledge\", \"seconds\": N}"
        switch json {
        case .string("code"): return nil
        case .string("off"): return .off
        case .string("evaluate"): return .evaluate
        case .object(let members):
            for member in members where member.key != "flow" && member.key != "seconds" {
                throw PolicyRefusal(.unknownField, "\(path).\(cut(member.key)): expected only flow and seconds")
            }
            guard case .string("acknowledge")? = json["flow"] else {
                throw PolicyRefusal(.invalidPolicy, "\(path).flow: expected \"acknowledge\" (a coaching signal never starts a countdown to exit), got \(json["flow"].map(quote) ?? "none")")
            }
            // Negative seconds count as 0, as CoachingPolicy's initializer clamps them.
            let value = try seconds(json["seconds"], path: "\(path).seconds")
            return .acknowledge(seconds: max(0, value))
        default:
            throw PolicyRefusal(.invalidPolicy, "\(path): \(expected), got \(quote(json))")
        }
    }

    private static func settings(_ json: StrictJSON, path: String) throws -> RemotePolicySettings {
        guard case .object(let members) = json else { throw PolicyRefusal(.invalidPolicy, "\(path): expected an object, got \(quote(json))") }
        for member in members where !policyMembers.contains(member.key) {
            throw PolicyRefusal(.unknownField, "\(path).\(member.key): expected only appWide, screens, screenCaptured, detection, verifierBudget and coaching")
        }
        var settings = RemotePolicySettings()
        if let appWide = json["appWide"] { settings.appWide = try setting(appWide, words: ["code": .code, "observe": .off], path: "\(path).appWide") }
        if let screens = json["screens"] {
            guard case .object(let pairs) = screens else {
                throw PolicyRefusal(.invalidPolicy, "\(path).screens: expected an object of screen names, got \(quote(screens))")
            }
            for (name, value) in pairs { settings.screens[name] = try setting(value, words: ["code": .code, "off": .off], path: "\(path).screens.\(name)") }
        }
        if let captured = json["screenCaptured"] {
            settings.screenCaptured = try setting(captured, words: ["code": .code, "off": .off], path: "\(path).screenCaptured")
        }
        if let detection = json["detection"] {
            guard case .bool(let on) = detection else {
                throw PolicyRefusal(.invalidPolicy, "\(path).detection: expected true or false, got \(quote(detection))")
            }
            settings.detection = on
        }
        if let member = json["coaching"] { settings.coaching = try coaching(member, path: "\(path).coaching") }
        if let budget = json["verifierBudget"] {
            let seconds: Double
            switch budget {
            case .integer(let value): seconds = Double(value)
            case .number(let value, _): seconds = value
            default: throw PolicyRefusal(.invalidPolicy, "\(path).verifierBudget: expected a number of seconds, got \(quote(budget))")
            }
            // The API's own clamp, so the document can never clamp where setCallVerifierBudget does not.
            settings.verifierBudget = CallMonitor.verifierBudgetSeconds(clamping: seconds)
        }
        return settings
    }
}

extension PolicyRefusal {
    /// The document is over 64 KiB: the verifier's first refusal, before anything is read.
    static let tooLarge = PolicyRefusal(.tooLarge, "the document is longer than 64 KiB")
}

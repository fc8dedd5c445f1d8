// A verified signed policy document as the engine takes it (issue 28; the seam of issue 39):
// the rules, their conditions and settings, the claims the engine times it by, and the refusal
// vocabulary the engine and the verifier share. Reading, verifying and signing a document are the
// policy product's (Sources/hnbPolicy); nothing here parses JSON or checks a signature, and the
// engine never sees a document that was not verified (Engine/MonitorEngine+RemotePolicy.swift).

/// The reasons a document is refused, as the engine, the verifier and the tool name them: the
/// same words as the policy product's public `CallMonitor.PolicyRejection` (documented there),
/// which an app reads. Kept here because the engine decides some of them (`rollback`, `expired`,
/// `relaxationNotAllowed`, `noKeys`) and reports all of them as document events.
package enum PolicyRejection: String, Error, CaseIterable, Sendable {
    case tooLarge, malformed, duplicateKey, unsupportedAlgorithm, wrongType, unknownKey, keyTypeMismatch, badSignature
    case wrongIssuer, invalidClaims, unknownField, secondsOutOfRange, invalidPolicy, relaxationNotAllowed, rollback
    case expired, noKeys, cryptoUnavailable, notOnMainThread, calledFromCallback, exited
}

/// A policy setting of the document for one part of the guard.
package enum RemoteSetting: Equatable, Sendable {
    /// Absent or `"code"`: what the app's code set holds.
    case code
    /// `"off"` (a screen, the capture escalation) or `"observe"` (app-wide): no policy from here.
    case off
    /// A flow and its seconds, clamped as in rules 5 and 6.
    case enforce(MonitorPolicy)
}

/// What one rule's `policy.coaching.screens.<name>` says (rule 35): the coaching response to each
/// level for the protections of that name; `nil` is the code's response for that level.
package struct RemoteCoaching: Equatable, Sendable {
    package var medium: CallMonitor.CoachingResponse?
    package var high: CallMonitor.CoachingResponse?

    /// Both levels the code's, for the reader to fill.
    package init(medium: CallMonitor.CoachingResponse? = nil, high: CallMonitor.CoachingResponse? = nil) {
        self.medium = medium
        self.high = high
    }
}

/// What one rule's `policy` says; absent fields are the code's.
package struct RemotePolicySettings: Equatable, Sendable {
    package var appWide: RemoteSetting = .code
    package var screens: [String: RemoteSetting] = [:]
    package var screenCaptured: RemoteSetting = .code
    package var detection: Bool?
    /// Seconds, clamped to ``CallMonitor/callVerifierBudgetRange`` as `setCallVerifierBudget` clamps.
    package var verifierBudget: Double?
    /// The coaching policy of the protections of each screen name (rule 35); a name not listed
    /// keeps the code's coaching policy.
    package var coaching: [String: RemoteCoaching] = [:]

    /// Every part the code's, for the reader to fill.
    package init() {}

    /// A screen's setting (`.code` when the document does not name it).
    package func screen(_ name: String?) -> RemoteSetting { name.flatMap { screens[$0] } ?? .code }
}

/// A version range of a `when`: comparators joined by spaces, all of which must hold.
package struct VersionRange: Sendable {
    package enum Comparison: String, Sendable { case atLeast = ">=", above = ">", atMost = "<=", below = "<", equal = "=" }
    package let terms: [(Comparison, [Int])]

    /// `">=26.0 <26.2"`, `"=26.1"`, `"26.1"` (equal); `nil` when any term is not one.
    package init?(_ text: String) {
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
    package static func version(_ text: String) -> [Int]? {
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
    package static func compare(_ a: [Int], _ b: [Int]) -> Int {
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    /// Whether `text` is a version inside the range; a text that is not a version is outside.
    package func contains(_ text: String) -> Bool {
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

    /// A condition that always holds, for the reader to fill.
    package init() {}

    /// Whether the device described by `attributes` (the library's `os`, `osVersion`,
    /// `appVersion` and the app's own) matches. A condition on an attribute the device does not
    /// have does not hold: a rule for a region never applies where the region is unknown.
    package func matches(_ device: [String: String]) -> Bool {
        if let os, !(device["os"].map(os.contains) ?? false) { return false }
        if let osVersion, !(device["osVersion"].map(osVersion.contains) ?? false) { return false }
        if let appVersion, !(device["appVersion"].map(appVersion.contains) ?? false) { return false }
        for (name, values) in attributes where !(device[name].map(values.contains) ?? false) { return false }
        return true
    }
}

extension PolicyCondition {
    /// The device the rules read (rule 26): the app's own attributes with the library's (`os`,
    /// `osVersion`, `appVersion`, as the platform reported them) over them, so an app's attribute
    /// of the same name can never make the device match a rule for another system or version.
    package static func device(library: [String: String], app: [String: String]) -> [String: String] {
        app.merging(library) { _, library in library }
    }
}

/// A verified document: what the engine applies.
package struct PolicyDocument: Sendable {
    package struct Rule: Sendable {
        package let when: PolicyCondition
        package let policy: RemotePolicySettings

        package init(when: PolicyCondition, policy: RemotePolicySettings) {
            self.when = when
            self.policy = policy
        }
    }

    package let version: Int64
    package let issuedAt: Int64
    package let notBefore: Int64?
    package let expires: Int64
    package let rules: [Rule]

    /// A document as its verifier read it (only the verifier makes one: the engine trusts it).
    package init(version: Int64, issuedAt: Int64, notBefore: Int64?, expires: Int64, rules: [Rule]) {
        self.version = version
        self.issuedAt = issuedAt
        self.notBefore = notBefore
        self.expires = expires
        self.rules = rules
    }

    /// The first rule whose `when` matches the device, or `nil` (the code's policy).
    package func rule(for device: [String: String]) -> (index: Int, rule: Rule)? {
        rules.enumerated().first { $0.element.when.matches(device) }.map { ($0.offset, $0.element) }
    }
}

/// A refusal with what it points at: the reason the app switches on, and for the person who
/// reads it, the header member, claim or JSON path and what was expected there.
package struct PolicyRefusal: Error, Equatable, Sendable {
    package let reason: PolicyRejection
    /// `rules[1].policy.screens.transfer.seconds: expected an integer from 0 to 2147483647, got 5.0`.
    /// Never the whole input: at most a short value of it.
    package let detail: String

    package init(_ reason: PolicyRejection, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    /// The detail of ``PolicyRejection/noKeys``, which the verifier and the engine both give.
    package static let noKeysDetail = "no keys are pinned (setPolicyKeys)"
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

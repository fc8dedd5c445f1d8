// What the `callmonitor policy` tool needs of the signed policy (issue 28), for a bank's backend
// team: signing a payload into a compact JWS, and verifying and explaining a document exactly as
// the library reads it, with the same parsers and the same crypto (the library's package API).
// It lives in the tool, not the library, so that no app ships code only the backend runs.

import Foundation
import hnb
import hnbPolicy

/// The tool's view of the signed policy.
enum PolicyTool {
    /// The compact JWS of `payload` signed by `key` under `kid`, with the header the library
    /// requires. The payload is signed as given (its bytes, not a re-encoding).
    static func sign(payload: [UInt8], kid: String, key: PolicySigningKey) throws(PolicySigningKey.Failure) -> String {
        let header = "{\"alg\":\"\(key.algorithm.rawValue)\",\"kid\":\(JSONText.quoted(kid)),\"typ\":\"\(PolicyDocument.type)\"}"
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(payload)
        return input + "." + Base64URL.encode(try key.sign(Array(input.utf8)))
    }

    /// What `verify` and `explain` print and whether the document is valid.
    struct Report: Sendable {
        let valid: Bool
        let lines: [String]
        /// The document as read, when it is valid.
        var document: PolicyDocument?
    }

    /// The signature layer first, on its own line (``PolicyDocument/checkSignature(_:keys:crypto:)``:
    /// the library's own steps and check, so an engineer learns whether their signing works even
    /// when the content is refused), then the content.
    ///
    /// Judges `document` as a phone would at wall-clock `time` (``PolicyDocument/judge``: the
    /// library's verifier, then the engine's own steps): refused with the phones' reason,
    /// `expired` or `notYetValid` with the instants, or valid with the decoded rules. Without
    /// `allowsRelaxation`, a document that weakens any code policy at all (an "observe", an
    /// "off", detection off) is refused, as it would be in an app that set any.
    static func verify(document: [UInt8], keys: PolicyKeySet, issuer: String, allowsRelaxation: Bool, at time: Date) -> Report {
        let judgement = PolicyDocument.judge(document, keys: keys, issuer: issuer, crypto: PolicyCrypto.platform, allowsRelaxation: allowsRelaxation, at: time)
        let content = report(judgement, at: time)
        let check = PolicyDocument.checkSignature(document, keys: keys, crypto: PolicyCrypto.platform)
        var signature = signatureLine(check)
        // A signature the form or the key kept from being checked, for the very refusal the next
        // line gives: the reason alone, not the same detail twice.
        if case .notChecked(let refusal) = check, judgement.verdict == .rejected(refusal.reason), judgement.detail == refusal.detail {
            signature = "signature: not checked (\(refusal.reason.rawValue))"
        }
        var lines = [signature] + content.lines
        // A genuine document refused for its content that is past its exp as well: both are
        // said, so fixing the content alone is not mistaken for enough.
        if case .valid = check, case .rejected(let reason) = judgement.verdict, reason != .expired,
           let exp = PolicyDocument.claimedExpiry(Array(document.drop { [0x0A, 0x0D, 0x20, 0x09].contains($0) })), Double(exp) <= time.timeIntervalSince1970 {
            lines.append("also expired: exp \(PolicyFiles.describe(Double(exp))) is not after --at \(PolicyFiles.describe(time.timeIntervalSince1970))")
        }
        return Report(valid: content.valid, lines: lines, document: content.document)
    }

    /// The signature layer on a line of its own, before what the phones do with the content:
    /// `signature: valid (EdDSA, kid "bank-2026")`, `signature: badSignature: …`, or
    /// `signature: not checked: unknownKey: …` when the form, the key or the crypto stop it.
    static func signatureLine(_ check: PolicyDocument.SignatureCheck) -> String {
        switch check {
        case .valid(let algorithm, let kid, true):
            return "signature: valid (\(algorithm.rawValue), kid \(JSONText.quoted(kid)))"
        case .valid(let algorithm, let kid, false):
            return "signature: valid (\(algorithm.rawValue), key \(JSONText.quoted(kid)): the header names no kid, so each pinned \(algorithm.rawValue) key was tried)"
        case .bad(let refusal):
            // The detail names the signature already; the line says it once.
            let detail = refusal.detail.hasPrefix("signature: ") ? String(refusal.detail.dropFirst("signature: ".count)) : refusal.detail
            return "signature: \(refusal.reason.rawValue): \(detail)"
        case .notChecked(let refusal):
            return "signature: not checked: \(refusal.reason.rawValue): \(refusal.detail)"
        }
    }

    /// The content judgement: what the phones do with the document at `time`.
    private static func report(_ judgement: PolicyJudgement, at time: Date) -> Report {
        let at = PolicyFiles.describe(time.timeIntervalSince1970)
        switch judgement.verdict {
        case .rejected(.expired):
            let expires = judgement.document.map { PolicyFiles.describe(Double($0.expires)) } ?? "?"
            return Report(valid: false, lines: ["rejected expired: exp \(expires) is not after --at \(at)"])
        case .rejected(.relaxationNotAllowed):
            let detail = judgement.detail.map { ": \($0)" } ?? ""
            return Report(valid: false, lines: ["rejected relaxationNotAllowed\(detail) (--allow-relaxation judges as an app that allows it)"])
        case .rejected(let reason):
            return Report(valid: false, lines: ["rejected \(reason.rawValue)" + (judgement.detail.map { ": \($0)" } ?? "")])
        case .notYetValid(let notBefore):
            return Report(valid: false, lines: [
                "notYetValid: nbf \(PolicyFiles.describe(Double(notBefore))) is after --at \(at) "
                    + "(the phones accept it and apply it from nbf; --at \(notBefore) judges it then)",
            ])
        case .applied:
            guard let verified = judgement.document else { return Report(valid: false, lines: ["rejected malformed"]) }
            var lines = ["valid ver \(verified.version) iat \(verified.issuedAt)" + (verified.notBefore.map { " nbf \($0)" } ?? "") + " exp \(verified.expires)"]
            for (index, rule) in verified.rules.enumerated() {
                lines.append("rule \(index): when \(describe(rule.when))")
                lines += describe(rule.policy).map { "  " + $0 }
            }
            return Report(valid: true, lines: lines, document: verified)
        }
    }

    /// Which rule applies, at wall-clock `time`, to the device `attributes` describe, and the
    /// policy of the app-wide guard, each screen the document names, the capture escalation and
    /// detection.
    static func explain(document: [UInt8], keys: PolicyKeySet, issuer: String, allowsRelaxation: Bool, attributes: [String: String], at time: Date) -> Report {
        let verified = verify(document: document, keys: keys, issuer: issuer, allowsRelaxation: allowsRelaxation, at: time)
        guard verified.valid, let parsed = verified.document else { return verified }
        let device = attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        // The signature line and the document's line, then the device.
        let head = Array(verified.lines.prefix(2))
        guard let (index, rule) = parsed.rule(for: attributes) else {
            return Report(valid: true, lines: head + ["device \(device)", "no rule matches: the code's policy holds"])
        }
        return Report(valid: true, lines: head + ["device \(device)", "rule \(index) applies"] + describe(rule.policy))
    }

    private static func describe(_ setting: RemoteSetting, off: String) -> String {
        switch setting {
        case .code: "code"
        case .off: off
        case .enforce(let policy): "\(policy.flow) \(policy.seconds)"
        }
    }

    private static func describe(_ settings: RemotePolicySettings) -> [String] {
        var lines = ["appWide: \(describe(settings.appWide, off: "observe"))"]
        for name in settings.screens.keys.sorted() {
            lines.append("screen \(name): \(describe(settings.screens[name] ?? .code, off: "off"))")
        }
        lines.append("screenCaptured: \(describe(settings.screenCaptured, off: "off"))")
        lines.append("detection: \(settings.detection.map { $0 ? "on" : "off" } ?? "code")")
        lines.append("verifierBudget: \(settings.verifierBudget.map { "\($0)" } ?? "code")")
        // Rule 35: only when the document sets some, so documents without coaching print as before.
        for name in settings.coaching.keys.sorted() {
            let levels = settings.coaching[name] ?? RemoteCoaching()
            lines.append("coaching screen \(PolicyFiles.clipped(name)): medium \(levels.medium.map(\.description) ?? "code"), high \(levels.high.map(\.description) ?? "code")")
        }
        return lines
    }

    private static func describe(_ condition: PolicyCondition) -> String {
        var parts: [String] = []
        if let os = condition.os { parts.append("os in [\(os.joined(separator: ", "))]") }
        if let range = condition.osVersion { parts.append("osVersion \(describe(range))") }
        if let range = condition.appVersion { parts.append("appVersion \(describe(range))") }
        for name in condition.attributes.keys.sorted() {
            parts.append("\(name) in [\((condition.attributes[name] ?? []).joined(separator: ", "))]")
        }
        return parts.isEmpty ? "always" : parts.joined(separator: ", ")
    }

    private static func describe(_ range: VersionRange) -> String {
        range.terms.map { "\($0.0.rawValue)\($0.1.map(String.init).joined(separator: "."))" }.joined(separator: " ")
    }
}

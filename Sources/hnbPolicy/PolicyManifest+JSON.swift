// The app's manifest as JSON (issue 38), written from the value the engine fills
// (Sources/hnb/Engine/PolicyManifest.swift) and read back by the bank's tool, which runs the
// verifier and the engine's relaxation check against it. Part of the policy product (issue 39):
// hnb holds only the value. The form is Schemas/callmonitor-manifest.v1.schema.json.

import Foundation
import hnb

extension PolicyManifest {
    /// The manifest as JSON text: one line, keys sorted and every key present (`null` where
    /// there is no value), so the same build always writes the same bytes.
    package var json: String {
        func policy(_ policy: MonitorPolicy?) -> String {
            guard let policy else { return "null" }
            return "{\"flow\":\(Self.flowName(policy.flow)),\"seconds\":\(policy.seconds)}"
        }
        func strings(_ values: [String]) -> String { "[" + values.map(JSONText.quoted).joined(separator: ",") + "]" }
        let screenList = screens.keys.sorted().map { name in
            let setting = screens[name] ?? MonitorPolicy(flow: .terminate, requestedSeconds: 1)
            return "{\"flow\":\(Self.flowName(setting.flow)),\"name\":\(JSONText.quoted(name)),\"seconds\":\(setting.seconds)}"
        }
        return "{"
            + "\"allowsRelaxation\":\(allowsRelaxation),"
            + "\"appVersion\":\(appVersion.map(JSONText.quoted) ?? "null"),"
            + "\"appWide\":\(policy(appWide)),"
            + "\"attributes\":\(strings(attributes)),"
            + "\"coaching\":\(coaching.map(Self.coachingJSON) ?? "null"),"
            + "\"detection\":\(detection),"
            + "\"issuer\":\(issuer.map(JSONText.quoted) ?? "null"),"
            + "\"kids\":\(strings(kids)),"
            + "\"schemaVersion\":\(Self.schemaVersion),"
            + "\"screenCaptured\":\(policy(screenCaptured)),"
            + "\"screens\":[\(screenList.joined(separator: ","))]"
            + "}"
    }

    /// `{"high": R, "medium": R}`, each R `{"response": "off"|"evaluate"|"acknowledge",
    /// "seconds": N or null}`: one shape for all three, which the schema checks member by member.
    private static func coachingJSON(_ policy: CallMonitor.CoachingPolicy) -> String {
        func response(_ response: CallMonitor.CoachingResponse) -> String {
            switch response {
            case .off: "{\"response\":\"off\",\"seconds\":null}"
            case .evaluate: "{\"response\":\"evaluate\",\"seconds\":null}"
            case .acknowledge(let seconds): "{\"response\":\"acknowledge\",\"seconds\":\(max(0, seconds))}"
            }
        }
        return "{\"high\":\(response(policy.high)),\"medium\":\(response(policy.medium))}"
    }

    private static func flowName(_ flow: CallMonitorFlow) -> String {
        switch flow {
        case .terminate: "\"terminate\""
        case .acknowledge: "\"acknowledge\""
        }
    }
}

// MARK: Reading

extension PolicyManifest {
    /// Why a manifest could not be read: one line naming the member and what was expected.
    package struct ReadError: Error, Equatable, Sendable {
        package let message: String
    }

    private static let members: Set<String> = [
        "allowsRelaxation", "appVersion", "appWide", "attributes", "detection", "issuer", "kids", "schemaVersion", "screenCaptured", "screens",
    ]

    /// Members a manifest of an earlier library lacks, read as "not known" when absent:
    /// `coaching` (rule 35).
    private static let laterMembers: Set<String> = ["coaching"]

    /// Reads a manifest as ``json`` writes it, strictly (JSON with no duplicate key, every
    /// member present but those of ``laterMembers``, none unknown), so a file that is not one is
    /// refused with the member at fault, never half read.
    package static func parse(_ bytes: [UInt8]) throws -> PolicyManifest {
        let json: StrictJSON
        do {
            json = try StrictJSON.parse(bytes)
        } catch {
            switch error.narrowed(or: StrictJSON.Failure.unexpected) {
            case .duplicateKey(let key): throw ReadError(message: "\(PolicyDocument.quote(.string(key))) appears twice in one object")
            case .tooDeep: throw ReadError(message: "nested deeper than JSON is read here")
            case .syntax(let offset): throw ReadError(message: "expected JSON (a manifest written by CallMonitor.policyManifest()), stopped at byte \(offset)")
            }
        }
        guard case .object(let found) = json else { throw ReadError(message: "expected a JSON object, got \(PolicyDocument.quote(json))") }
        // The version first: a newer library's manifest is named as such, not as unknown members.
        guard case .integer(let version)? = json["schemaVersion"] else {
            throw ReadError(message: "schemaVersion: expected 1, got \(json["schemaVersion"].map(PolicyDocument.quote) ?? "none")")
        }
        guard version == schemaVersion else {
            throw ReadError(message: "schemaVersion: expected 1, got \(version) (a manifest this version of callmonitor does not read)")
        }
        for member in found where !members.contains(member.key) && !laterMembers.contains(member.key) {
            throw ReadError(message: "\(member.key): not a member of a manifest (expected only \(members.union(laterMembers).sorted().joined(separator: ", ")))")
        }
        for name in members.sorted() where json[name] == nil { throw ReadError(message: "\(name): missing") }
        var manifest = PolicyManifest()
        manifest.allowsRelaxation = try bool(json["allowsRelaxation"], "allowsRelaxation")
        manifest.appVersion = try optionalString(json["appVersion"], "appVersion")
        manifest.appWide = try policy(json["appWide"], "appWide")
        manifest.attributes = try strings(json["attributes"], "attributes")
        manifest.detection = try bool(json["detection"], "detection")
        if let coaching = json["coaching"] { manifest.coaching = try coachingPolicy(coaching, "coaching") }
        manifest.issuer = try optionalString(json["issuer"], "issuer")
        manifest.kids = try strings(json["kids"], "kids")
        manifest.screenCaptured = try policy(json["screenCaptured"], "screenCaptured")
        guard case .array(let screens)? = json["screens"] else {
            throw ReadError(message: "screens: expected an array of {\"name\", \"flow\", \"seconds\"}, got \(json["screens"].map(PolicyDocument.quote) ?? "none")")
        }
        for (index, screen) in screens.enumerated() {
            let path = "screens[\(index)]"
            guard case .object(let pairs) = screen, case .string(let name)? = screen["name"] else {
                throw ReadError(message: "\(path): expected {\"name\": string, \"flow\", \"seconds\"}, got \(PolicyDocument.quote(screen))")
            }
            for pair in pairs where !["name", "flow", "seconds"].contains(pair.key) {
                throw ReadError(message: "\(path).\(pair.key): expected only name, flow and seconds")
            }
            guard manifest.screens[name] == nil else { throw ReadError(message: "\(path).name: \(PolicyDocument.quote(.string(name))) is listed twice") }
            manifest.screens[name] = try policy(screen, path)
        }
        return manifest
    }

    private static func bool(_ json: StrictJSON?, _ path: String) throws -> Bool {
        guard case .bool(let value)? = json else { throw ReadError(message: "\(path): expected true or false, got \(json.map(PolicyDocument.quote) ?? "none")") }
        return value
    }

    private static func optionalString(_ json: StrictJSON?, _ path: String) throws -> String? {
        switch json {
        case .string(let text)?: return text
        case .null?: return nil
        default: throw ReadError(message: "\(path): expected a string or null, got \(json.map(PolicyDocument.quote) ?? "none")")
        }
    }

    private static func strings(_ json: StrictJSON?, _ path: String) throws -> [String] {
        guard case .array(let elements)? = json else { throw ReadError(message: "\(path): expected an array of strings, got \(json.map(PolicyDocument.quote) ?? "none")") }
        var out: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                throw ReadError(message: "\(path)[\(index)]: expected a string, got \(PolicyDocument.quote(element))")
            }
            out.append(text)
        }
        return out
    }

    /// `{"high": R, "medium": R}` as ``json`` writes it, or `null` (not known).
    private static func coachingPolicy(_ json: StrictJSON, _ path: String) throws -> CallMonitor.CoachingPolicy? {
        if case .null = json { return nil }
        let expected = #"expected {"response": "off"|"evaluate", "seconds": null} or {"response": "acknowledge", "seconds": N}"#
        guard case .object(let pairs) = json else {
            throw ReadError(message: "\(path): expected {\"high\", \"medium\"} or null, got \(PolicyDocument.quote(json))")
        }
        for pair in pairs where pair.key != "medium" && pair.key != "high" {
            throw ReadError(message: "\(path): \(PolicyDocument.quote(.string(pair.key))) is not a level (expected only high and medium)")
        }
        func response(_ level: String) throws -> CallMonitor.CoachingResponse {
            let value = json[level]
            if case .object(let members)? = value, members.count == 2 {
                switch (value?["response"], value?["seconds"]) {
                case (.string("off")?, .null?): return .off
                case (.string("evaluate")?, .null?): return .evaluate
                case (.string("acknowledge")?, .integer(let seconds)?):
                    if let exact = Int32(exactly: seconds), exact >= 0 { return .acknowledge(seconds: exact) }
                default: break
                }
            }
            throw ReadError(message: "\(path).\(level): \(expected), got \(value.map(PolicyDocument.quote) ?? "none")")
        }
        return CallMonitor.CoachingPolicy(medium: try response("medium"), high: try response("high"))
    }

    /// `{"flow": …, "seconds": N}` (and, in a screen, its name), or `null` for none.
    private static func policy(_ json: StrictJSON?, _ path: String) throws -> MonitorPolicy? {
        if case .null? = json { return nil }
        guard case .object(let pairs)? = json else {
            throw ReadError(message: "\(path): expected {\"flow\", \"seconds\"} or null, got \(json.map(PolicyDocument.quote) ?? "none")")
        }
        let isScreen = pairs.contains { $0.key == "name" }
        for pair in pairs where pair.key != "flow" && pair.key != "seconds" && !(isScreen && pair.key == "name") {
            throw ReadError(message: "\(path).\(pair.key): expected only flow and seconds")
        }
        let flow: CallMonitorFlow
        switch json?["flow"] {
        case .string("terminate")?: flow = .terminate
        case .string("acknowledge")?: flow = .acknowledge
        default: throw ReadError(message: "\(path).flow: expected \"terminate\" or \"acknowledge\", got \(json?["flow"].map(PolicyDocument.quote) ?? "none")")
        }
        guard case .integer(let seconds)? = json?["seconds"], let exact = Int32(exactly: seconds), exact >= 0 else {
            throw ReadError(message: "\(path).seconds: expected an integer from 0 to \(Int32.max), got \(json?["seconds"].map(PolicyDocument.quote) ?? "none")")
        }
        return MonitorPolicy(flow: flow, requestedSeconds: exact)
    }
}

// MARK: Judging a document against a build

extension PolicyManifest {
    /// The strictest code a build could have for every part `document` names: terminate with
    /// one second app-wide, for the capture escalation and for each screen it names. A setting
    /// that weakens this code weakens some app's code, so without a manifest the tool cannot
    /// say it is allowed.
    package static func strictest(for document: PolicyDocument) -> PolicyManifest {
        let strictest = MonitorPolicy(flow: .terminate, requestedSeconds: 1)
        var manifest = PolicyManifest()
        manifest.appWide = strictest
        manifest.screenCaptured = strictest
        manifest.coaching = strictestCoaching
        for rule in document.rules {
            for name in rule.policy.screens.keys { manifest.screens[name] = strictest }
        }
        return manifest
    }
}

/// One part of one rule of a document, by its JSON path.
package struct PolicyRulePart: Equatable, Sendable {
    package enum Part: Equatable, Sendable {
        case appWide
        case screen(String)
        case screenCaptured
        case detection
        /// The `coaching` levels of a named screen (rule 35).
        case coaching(String)
    }

    package let rule: Int
    package let part: Part

    /// `rules[1].policy.screens.transfer`.
    package var path: String {
        let base = "rules[\(rule)].policy"
        switch part {
        case .appWide: return base + ".appWide"
        case .screen(let name): return base + ".screens." + name
        case .screenCaptured: return base + ".screenCaptured"
        case .detection: return base + ".detection"
        case .coaching(let name): return base + ".coaching.screens." + name
        }
    }
}

/// Why a rule, or one of its screens, does nothing on a build: no device of it can match.
package struct PolicyInertRule: Equatable, Sendable {
    package enum Cause: Equatable, Sendable {
        /// `when.os` names no value the library writes (`"ios"` for `"iOS"`).
        case noPlatform([String])
        /// `when.appVersion` excludes the build's version.
        case appVersion(range: String, version: String)
        /// `when.attributes` names an attribute the app never sets.
        case attributeNeverSet(String)
        /// `policy.screens` names a screen the build never opens.
        case screenNeverOpened(String)
    }

    package let rule: Int
    package let cause: Cause
}

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

extension PolicyDocument {
    /// Judges `bytes` as a phone of the build `manifest` describes would at wall-clock `time`:
    /// with its issuer, the keys of `keys` it pins (by `kid`), its code's policy and its
    /// permission to relax (``judge(_:keys:issuer:crypto:allowsRelaxation:at:code:)``).
    package static func judge(_ bytes: [UInt8], keys: PolicyKeySet, crypto: PolicyCrypto?, manifest: PolicyManifest, at time: Date) -> PolicyJudgement {
        guard let issuer = manifest.issuer else {
            // A build that pinned no keys refuses every document: the verifier's own answer.
            let refusal = verifyExplained(bytes, keys: nil, issuer: "", crypto: crypto).failure
            return PolicyJudgement(verdict: .rejected(refusal?.reason ?? .noKeys), detail: refusal?.detail, document: nil)
        }
        let pinned = PolicyKeySet(keys: keys.keys.filter { manifest.kids.contains($0.kid) })
        return judge(bytes, keys: pinned, issuer: issuer, crypto: crypto, allowsRelaxation: manifest.allowsRelaxation, at: time, code: manifest)
    }

    /// Each part of each rule that weakens `code`, by the engine's own check (rule 26, run on a
    /// fresh engine holding that code, one part at a time): what a `relaxationNotAllowed` is
    /// about. Empty when the document weakens nothing there.
    package func relaxations(of code: PolicyManifest) -> [PolicyRulePart] {
        var engine = MonitorEngine()
        engine.adoptCode(of: code)
        var found: [PolicyRulePart] = []
        for (index, rule) in rules.enumerated() {
            var parts: [(PolicyRulePart.Part, RemotePolicySettings)] = []
            func alone(_ change: (inout RemotePolicySettings) -> Void) -> RemotePolicySettings {
                var settings = RemotePolicySettings()
                change(&settings)
                return settings
            }
            let policy = rule.policy
            if policy.appWide != .code { parts.append((.appWide, alone { $0.appWide = policy.appWide })) }
            for name in policy.screens.keys.sorted() where policy.screens[name] != .code {
                parts.append((.screen(name), alone { $0.screens[name] = policy.screens[name] }))
            }
            if policy.screenCaptured != .code { parts.append((.screenCaptured, alone { $0.screenCaptured = policy.screenCaptured })) }
            if policy.detection != nil { parts.append((.detection, alone { $0.detection = policy.detection })) }
            for name in policy.coaching.keys.sorted() {
                parts.append((.coaching(name), alone { $0.coaching[name] = policy.coaching[name] }))
            }
            for (part, settings) in parts {
                let probe = PolicyDocument(version: version, issuedAt: issuedAt, notBefore: notBefore, expires: expires,
                                           rules: [Rule(when: PolicyCondition(), policy: settings)])
                if engine.weakens(probe) { found.append(PolicyRulePart(rule: index, part: part)) }
            }
        }
        return found
    }

    /// The rules that no device can match (`when.os` no platform's, on every build), and, given
    /// a build's manifest, those that none of its devices can match (its version outside
    /// `when.appVersion`, an attribute it never sets) and the screens it never opens. Each is
    /// read with the rules' own matching (``VersionRange``); a rule that cannot match is not
    /// searched for screens.
    package func inertRules(on manifest: PolicyManifest?) -> [PolicyInertRule] {
        var found: [PolicyInertRule] = []
        for (index, rule) in rules.enumerated() {
            let when = rule.when
            var dead = false
            if let os = when.os, !os.contains(where: PolicyManifest.osNames.contains) {
                found.append(PolicyInertRule(rule: index, cause: .noPlatform(os)))
                dead = true
            }
            guard let manifest else { continue }
            if let range = when.appVersion, let version = manifest.appVersion, !range.contains(version) {
                let text = range.terms.map { "\($0.0.rawValue)\($0.1.map(String.init).joined(separator: "."))" }.joined(separator: " ")
                found.append(PolicyInertRule(rule: index, cause: .appVersion(range: text, version: version)))
                dead = true
            }
            for name in when.attributes.keys.sorted()
            where !manifest.attributes.contains(name) && !PolicyManifest.libraryAttributes.contains(name) {
                found.append(PolicyInertRule(rule: index, cause: .attributeNeverSet(name)))
                dead = true
            }
            guard !dead else { continue }
            for name in rule.policy.screens.keys.sorted() where rule.policy.screens[name] != .code && manifest.screens[name] == nil {
                found.append(PolicyInertRule(rule: index, cause: .screenNeverOpened(name)))
            }
        }
        return found
    }
}

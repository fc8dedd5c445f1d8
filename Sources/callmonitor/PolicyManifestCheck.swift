// `callmonitor policy verify --manifest` and `explain --manifest` (issue 38): what the phones of
// each app build do with a document, judged against the build's manifest (written by
// `CallMonitor.policyManifest()`): the library's verifier and the engine's relaxation check run
// with that build's issuer, keys and code (`PolicyDocument.judge(_:keys:crypto:manifest:at:)`),
// then the rules and screens no device of it can reach. Without a manifest, a setting that could
// be laxer than some app's code is said to be unjudged, never passed as valid.

import Foundation
import hnb
import hnbPolicy

enum PolicyManifestCheck {
    /// One manifest file, read.
    struct Build {
        let path: String
        let manifest: PolicyManifest
    }

    /// Reads each manifest; one that cannot be read ends the tool with one line naming the file
    /// and the member at fault (exit status 2).
    static func load(_ paths: [String]) -> [Build] {
        paths.map { (path: String) -> Build in
            let bytes: [UInt8]
            do throws(PolicyFiles.Unreadable) {
                bytes = try PolicyFiles.read(path, limit: PolicyKeySet.maximumLength)
            } catch {
                fail(error.message)
            }
            guard bytes.count <= PolicyKeySet.maximumLength else { fail("\(path) is longer than 64 KiB: not a manifest") }
            do {
                return Build(path: path, manifest: try PolicyManifest.parse(bytes))
            } catch {
                fail("\(path) is not a manifest: \(error.narrowed(or: PolicyManifest.ReadError.unexpected).message)")
            }
        }
    }

    /// The lines that follow a valid report, and whether any build refuses the document. Rules
    /// no platform matches are said once; then, per build, `applied` with what does nothing
    /// there, or the refusal and why. Without builds and without relaxation allowed, the
    /// settings that may be laxer than an app's code are named as unjudged.
    static func lines(
        document bytes: [UInt8], keys: PolicyKeySet, issuer: String, builds: [Build], allowsRelaxation: Bool, at time: Date
    ) -> (lines: [String], refused: Bool) {
        guard case .success(let document) = PolicyDocument.verify(bytes, keys: keys, issuer: issuer, crypto: PolicyCrypto.platform) else {
            return ([], false)
        }
        var lines = warnings(document, builds: builds, allowsRelaxation: allowsRelaxation)
        guard !builds.isEmpty else { return (lines, false) }
        var refused = false
        for build in builds {
            let answer = answer(bytes, keys: keys, build: build, at: time)
            lines += answer.lines
            if answer.verdict != .applied { refused = true }
        }
        return (lines, refused)
    }

    /// What verify warns about before any build's answer: the rules that would do nothing
    /// (``inertRules(_:)``), and, without builds or relaxation allowed, the settings that may be
    /// laxer than an app's code.
    static func warnings(_ document: PolicyDocument, builds: [Build], allowsRelaxation: Bool) -> [String] {
        var lines = inertRules(document)
        guard builds.isEmpty, !allowsRelaxation else { return lines }
        let unjudged = document.relaxations(of: .strictest(for: document))
        if !unjudged.isEmpty {
            let parts = unjudged.map { "\($0.path) (\(setting(of: $0, in: document)))" }.joined(separator: ", ")
            lines.append("cannot check relaxation without a manifest: \(parts) may be laxer than the app's code (--manifest judges it)")
        }
        return lines
    }

    /// The rules of `document` no device can reach (a platform no app writes, issue 53's
    /// `"os": "ios"`): a mistake, which sign refuses without --force. A setting that may be laxer
    /// than an app's code is not one: whether it is, only a manifest says, and sign --manifest
    /// judges it.
    static func inertRules(_ document: PolicyDocument) -> [String] {
        document.inertRules(on: nil).map { describe($0, onBuild: false) }
    }

    /// `sign --manifest`: the signed document as each build's phones would judge it now (its
    /// issuer, whether it pins `kid`, its code and permission to relax). A build that refuses it
    /// ends the tool before anything is printed on standard output, with its answer on standard
    /// error and exit status 1; one that keeps it until its `nbf` accepts it.
    static func checkSigned(_ jws: String, kid: String, key: PolicyKeySet.Key.Material, builds: [Build]) {
        let keys = PolicyKeySet(keys: [PolicyKeySet.Key(kid: kid, material: key)])
        var lines: [String] = []
        for build in builds {
            let answer = answer(Array(jws.utf8), keys: keys, build: build, at: Date())
            if case .rejected = answer.verdict { lines += answer.lines }
        }
        guard !lines.isEmpty else { return }
        Output.error("callmonitor: not signed: a build given with --manifest would refuse it\n" + lines.joined(separator: "\n") + "\n")
        exit(1)
    }

    /// One build's answer: its line, and under it what does nothing there, or each part that
    /// weakens its code.
    private static func answer(_ bytes: [UInt8], keys: PolicyKeySet, build: Build, at time: Date) -> (lines: [String], verdict: PolicyJudgement.Verdict) {
        let manifest = build.manifest
        let label = "manifest \(build.path)" + (manifest.appVersion.map { " (appVersion \(PolicyFiles.clipped($0)))" } ?? "")
        let judgement = PolicyDocument.judge(bytes, keys: keys, crypto: PolicyCrypto.platform, manifest: manifest, at: time)
        var lines: [String] = []
        switch judgement.verdict {
        case .applied:
            lines.append("\(label): applied")
            for inert in judgement.document?.inertRules(on: manifest) ?? [] {
                if case .noPlatform = inert.cause { continue }
                lines.append("  " + describe(inert, onBuild: true, manifest: manifest))
            }
        case .notYetValid(let notBefore):
            lines.append("\(label): notYetValid (in force from nbf \(PolicyFiles.describe(Double(notBefore))))")
        case .rejected(.relaxationNotAllowed):
            lines.append("\(label): rejected relaxationNotAllowed (this build does not allow relaxation)")
            if let document = judgement.document {
                for part in document.relaxations(of: manifest) {
                    lines.append("  \(part.path): \(setting(of: part, in: document)) weakens the app's code (\(code(of: part, in: manifest)))")
                }
            }
        case .rejected(let reason):
            lines.append("\(label): rejected \(reason.rawValue)" + (judgement.detail.map { ": \($0)" } ?? ""))
        }
        return (lines, judgement.verdict)
    }

    private static func describe(_ policy: MonitorPolicy?) -> String {
        policy.map { "\($0.flow) \($0.seconds)" } ?? "none"
    }

    private static func describe(_ setting: RemoteSetting?, off: String) -> String {
        switch setting {
        case .enforce(let policy)?: describe(policy)
        case .off?: off
        case .code?, nil: "code"
        }
    }

    /// What the document sets for one part, in the words `verify` prints the rules with.
    private static func setting(of part: PolicyRulePart, in document: PolicyDocument) -> String {
        let policy = document.rules[part.rule].policy
        switch part.part {
        case .appWide: return describe(policy.appWide, off: "observe")
        case .screen(let name): return describe(policy.screens[name], off: "off")
        case .screenCaptured: return describe(policy.screenCaptured, off: "off")
        case .detection: return policy.detection.map { $0 ? "on" : "off" } ?? "code"
        case .coaching(let name):
            let levels = policy.coaching[name] ?? RemoteCoaching()
            return "coaching medium \(levels.medium.map(\.description) ?? "code"), high \(levels.high.map(\.description) ?? "code")"
        }
    }

    /// What the build's code sets for one part.
    private static func code(of part: PolicyRulePart, in manifest: PolicyManifest) -> String {
        switch part.part {
        case .appWide: "appWide \(describe(manifest.appWide))"
        case .screen(let name): "screen \(PolicyFiles.clipped(name)) \(describe(manifest.screens[name]))"
        case .screenCaptured: "screenCaptured \(describe(manifest.screenCaptured))"
        case .detection: "detection \(manifest.detection ? "on" : "off")"
        case .coaching: manifest.coaching.map { "coaching medium \($0.medium), high \($0.high)" } ?? "coaching not in the manifest"
        }
    }

    private static func describe(_ inert: PolicyInertRule, onBuild: Bool, manifest: PolicyManifest? = nil) -> String {
        let rule = "rules[\(inert.rule)]"
        let nothing = onBuild ? "would do nothing on this build" : "would do nothing"
        switch inert.cause {
        case .noPlatform(let os):
            let named = os.map { JSONText.quoted(PolicyFiles.clipped($0)) }.joined(separator: ", ")
            return "\(rule) \(nothing): when.os [\(named)] names no platform (the library writes \(PolicyManifest.osNames.joined(separator: ", ")))"
        case .appVersion(let range, let version):
            return "\(rule) \(nothing): when.appVersion \(PolicyFiles.clipped(range)) excludes \(PolicyFiles.clipped(version))"
        case .attributeNeverSet(let name):
            let set = manifest.map { $0.attributes.isEmpty ? "none" : $0.attributes.map { PolicyFiles.clipped($0) }.joined(separator: ", ") } ?? "none"
            return "\(rule) \(nothing): when.attributes.\(PolicyFiles.clipped(name)) is an attribute the app never sets (it sets: \(set))"
        case .screenNeverOpened(let name):
            let opened = manifest.map { $0.screens.isEmpty ? "none" : $0.screens.keys.sorted().map { PolicyFiles.clipped($0) }.joined(separator: ", ") } ?? "none"
            return "\(rule).policy.screens.\(PolicyFiles.clipped(name)) \(nothing): the app opens no screen of that name (it opens: \(opened))"
        }
    }
}

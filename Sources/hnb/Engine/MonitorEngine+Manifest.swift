// The engine's side of the app's manifest (issue 38): the code's policy as rule 26's relaxation
// check reads it, written out, and a fresh engine set up as a manifest describes a build, so
// that the bank's tool asks this engine, and no copy of its rules, whether a document weakens
// that build's code.

extension MonitorEngine {
    /// The parts of the guard the relaxation check compares a document with (rule 26): the
    /// app-wide policy (observing counts as none), the open named protections (the strictest
    /// per name), the screen-capture escalation, call detection as the code sets it, the code's
    /// coaching policy (rule 35), and whether relaxation is allowed. The rest of a manifest (keys, attributes, version) is the
    /// facade's.
    package func codeManifest() -> PolicyManifest {
        var manifest = PolicyManifest()
        manifest.appWide = guards.appWide?.policy
        for protection in guards.protections {
            guard let name = protection.name else { continue }
            manifest.screens[name] = MonitorPolicy.strictest(manifest.screens[name], protection.policy)
        }
        manifest.screenCaptured = guards.escalation
        manifest.detection = remote.codeDetection
        manifest.coaching = coaching.policy
        manifest.allowsRelaxation = remote.allowsRelaxation
        return manifest
    }

    /// A fresh engine's code set as `manifest` describes it, through the guards' own setters:
    /// the app-wide policy, one protection open per named screen, the escalation, detection and
    /// the coaching policy (the strictest there could be when the manifest does not say).
    /// Whether relaxation is allowed is `setPolicyKeys`' input, which the judgement sends.
    package mutating func adoptCode(of manifest: PolicyManifest) {
        _ = guards.setAppWide(manifest.appWide.map(AppWidePolicy.enforce))
        for (index, name) in manifest.screens.keys.sorted().enumerated() {
            guard let policy = manifest.screens[name] else { continue }
            _ = guards.openProtection(UInt64(index + 1), policy, named: name)
        }
        _ = guards.setEscalation(manifest.screenCaptured)
        remote.setCodeDetection(manifest.detection)
        coaching.setPolicy(manifest.coaching ?? PolicyManifest.strictestCoaching)
    }

    /// Whether the document accepted is not yet in force at this engine's wall clock (before its
    /// `nbf`, rule 28): the judgement's "not yet valid", read without opening the engine's state.
    package var acceptedDocumentIsNotYetInForce: Bool {
        if case .notYet = remote.standing(at: wallClockSince1970) { true } else { false }
    }

    /// Rule 26's question about `document` for the code this engine holds.
    package func weakens(_ document: PolicyDocument) -> Bool {
        guards.weakens(document, codeDetection: remote.codeDetection, codeCoaching: coaching.policy)
    }
}

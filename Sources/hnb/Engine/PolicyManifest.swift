// The app's manifest (issue 38): what one build of an app does when no document is in force, the
// part of the app a signed document is judged against and that the bank's tool cannot see. The
// engine fills it from its own state (MonitorEngine+Manifest.swift); writing it as JSON, reading
// it back and judging a document against it are the policy product's (Sources/hnbPolicy,
// PolicyManifest+JSON.swift), so that hnb holds only the value (issue 39). The form is
// Schemas/callmonitor-manifest.v1.schema.json.

/// What an app build does without a document: its code's policy (the parts rule 26's relaxation
/// check compares a document with), the names its documents can address, and its keys.
package struct PolicyManifest: Sendable {
    /// The form this version writes and reads.
    package static let schemaVersion: Int64 = 1

    /// The app's version, as the rules' `appVersion` reads it; `nil` when not known.
    package var appVersion: String?
    /// The app-wide policy the code sets; `nil` for none (not started, or observing only).
    package var appWide: MonitorPolicy?
    /// Each named screen open when the manifest was written, with its policy (the strictest,
    /// when several protections share a name: the relaxation check compares with each).
    package var screens: [String: MonitorPolicy] = [:]
    /// The screen-capture escalation (rule 25); `nil` when the code sets none.
    package var screenCaptured: MonitorPolicy?
    /// The code's coaching policy (rule 35: a document's `coaching` levels are compared with
    /// it); `nil` when the manifest does not say (one written before rule 35), and the tool then
    /// compares with the strictest code there could be.
    package var coaching: CallMonitor.CoachingPolicy?
    /// Call detection as the code sets it (rule 22).
    package var detection = true
    /// The names of the attributes the app sets for the rules (`setPolicyAttributes`), sorted.
    package var attributes: [String] = []
    /// Whether a document may weaken the code's policy.
    package var allowsRelaxation = false
    /// The `iss` the app expects; `nil` when no keys were pinned.
    package var issuer: String?
    /// The `kid`s of the pinned keys, sorted.
    package var kids: [String] = []

    package init() {}

    /// The strictest coaching policy a build could have (an acknowledge warning of `Int32.max`
    /// seconds for both levels): any coaching level a document sets below it may weaken some
    /// build's code, so without a manifest that says otherwise the tool cannot call it allowed.
    package static let strictestCoaching = CallMonitor.CoachingPolicy(medium: .acknowledge(seconds: .max), high: .acknowledge(seconds: .max))

    /// The library's `os` values (PolicyPlatformAttributes.swift writes one of them): a rule's
    /// `when.os` that names none of them matches no device.
    package static let osNames = ["iOS", "macCatalyst", "visionOS", "macOS", "Linux", "unknown"]

    /// The attributes the library sets itself on every device (the app's cannot replace them).
    package static let libraryAttributes: Set<String> = ["os", "osVersion", "appVersion"]
}

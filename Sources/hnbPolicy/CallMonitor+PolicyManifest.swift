// The app's manifest (issue 38): what this build does without a signed document, written by the
// monitor so the bank's tool can judge a document against it (`callmonitor policy verify
// --manifest`). The code's policy is the engine's own state, read through hnb's seam; the policy
// product adds what it keeps itself (the keys, the issuer, the attributes' names). Form:
// Schemas/callmonitor-manifest.v1.schema.json.

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation
import hnb

extension CallMonitor {
    /// The app's manifest: a small JSON document that says what this build does when no signed
    /// document is in force, for the bank's tool to judge documents against.
    ///
    /// It holds the code's policy as the monitor has it now (the app-wide policy, each named
    /// screen open now with its flow and seconds, the screen-capture escalation, whether call
    /// detection is on), the names of the attributes the app set with
    /// ``setPolicyAttributes(_:)``, whether the app allows relaxation, the issuer and the `kid`s
    /// of the keys pinned with ``setPolicyKeys(jwks:issuer:allowsRelaxation:storeDirectory:)``,
    /// and the app's version. Write it once per app version, in a test or a debug build that
    /// configures the monitor as the app does and opens each named screen, and keep it beside
    /// the signing keys; `callmonitor policy verify --manifest FILE` then says what phones of
    /// that build do with a document (<doc:ChangingThePolicyRemotely>).
    ///
    /// ```swift
    /// try monitor.setPolicyKeys(jwks: bundledJWKS, issuer: "com.bank.app")
    /// monitor.setPolicyAttributes(["region": "DE"])
    /// monitor.startMonitoring(withAcknowledgeIn: 10)
    /// let transfer = monitor.protect(named: "transfer", withTerminateIn: 5)
    /// try monitor.policyManifest(appVersion: "4.2").write(to: manifestURL)
    /// transfer.end()
    /// ```
    ///
    /// The bytes are deterministic: one line of JSON, keys sorted, every key present (`null`
    /// where there is no value), so the same configuration always writes the same file.
    ///
    /// > Important: Call it on the main thread, after the calls that configure the monitor and
    /// > outside its delegate methods and callbacks: it reads what those calls have set.
    ///
    /// - Parameter appVersion: The app's version, as documents' `when.appVersion` ranges read
    ///   it; `nil` writes the main bundle's short version, or `null` where there is none.
    /// - Returns: The manifest, UTF-8 JSON (Schemas/callmonitor-manifest.v1.schema.json).
    @MainActor
    public func policyManifest(appVersion: String? = nil) -> Data {
        var manifest = codeManifest()
        let plug = pluggedPolicyPort as? PolicyPlug
        let attributes = plug?.attributes.value ?? PolicyAttributes()
        manifest.appVersion = appVersion ?? attributes.platform["appVersion"]
        manifest.attributes = attributes.app.keys.filter { !PolicyManifest.libraryAttributes.contains($0) }.sorted()
        if let keys = plug?.keys.value {
            manifest.issuer = keys.issuer
            manifest.kids = keys.keys.keys.map(\.kid).sorted()
        }
        return Data(manifest.json.utf8)
    }

    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    /// `-policyManifestWithAppVersion:` for Objective-C; Swift code uses
    /// ``policyManifest(appVersion:)``.
    ///
    /// - Parameter appVersion: The app's version, or `nil` for the main bundle's.
    /// - Returns: The manifest, UTF-8 JSON.
    @available(swift, obsoleted: 1, message: "use policyManifest(appVersion:)")
    @MainActor
    @objc(policyManifestWithAppVersion:)
    public func objcPolicyManifest(appVersion: NSString?) -> NSData {
        ManifestBridge.nsData(policyManifest(appVersion: appVersion.map(ManifestBridge.string)))
    }
    #endif
}

#if canImport(ObjectiveC) || HNB_OBJC_HEADER
/// Conversions between Foundation's object types and Swift's, for the spelling above.
private enum ManifestBridge {
    #if HNB_OBJC_HEADER
    // The stand-in Foundation has no bridging; header generation never runs this code.
    static func string(_ string: NSString) -> String { preconditionFailure("header generation only") }
    static func nsData(_ data: Data) -> NSData { preconditionFailure("header generation only") }
    #else
    static func string(_ string: NSString) -> String { string as String }
    static func nsData(_ data: Data) -> NSData { data as NSData }
    #endif
}
#endif

// The signed remote policy (issue 28; rules 26 to 28 of the behaviour contract): the keys the
// app pins, the device's attributes and the document the app fetched from its own server. A
// product of its own (issue 39): this verifies a document (a pure function,
// PolicyDocument+Verify.swift) and reads and writes the policy file, then hands hnb's engine the
// verified document through hnb's package seam (CallMonitor+PolicySeam.swift there); every
// decision about what the document does is the engine's (MonitorEngine+RemotePolicy.swift).

import Foundation
import hnb

extension CallMonitor {
    // MARK: Types

    /// Why a document was refused: nothing changes when one is.
    public enum PolicyRejection: String, Error, CaseIterable, Sendable {
        /// Longer than 64 KiB (checked before anything is read).
        case tooLarge
        /// Not three base64url parts, or a part that is not strict base64url or not JSON.
        case malformed
        /// A JSON object names one key twice (two readers could then disagree on its meaning).
        case duplicateKey
        /// An `alg` other than `EdDSA` (or `Ed25519`) and `ES256` (`none`, `HS256`, `RS256`…).
        case unsupportedAlgorithm
        /// A `typ` other than `hnb-policy+jwt` (with or without `application/`, in any case): a
        /// token signed for something else.
        case wrongType
        /// A `kid` the app did not pin.
        case unknownKey
        /// The pinned key's type does not verify the document's `alg`.
        case keyTypeMismatch
        /// The signature does not verify.
        case badSignature
        /// `iss` is not the issuer the app set.
        case wrongIssuer
        /// A claim missing or of the wrong kind (`ver` below 1, `exp` before `nbf`…).
        case invalidClaims
        /// A header member, claim, rule or policy field this version does not know.
        case unknownField
        /// A `seconds` outside `Int32`.
        case secondsOutOfRange
        /// A policy value of the wrong form (a flow that is neither terminate nor acknowledge…).
        case invalidPolicy
        /// The document would weaken the code's policy and the app did not allow it.
        case relaxationNotAllowed
        /// `ver` below the highest accepted.
        case rollback
        /// Past `exp` (as the clock and its high-water mark read) when it arrived.
        case expired
        /// No keys were set (`setPolicyKeys`).
        case noKeys
        /// The platform's crypto could not be loaded: nothing can be verified.
        case cryptoUnavailable
        /// ``CallMonitor/applyPolicy(document:)`` was called off the main thread; nothing was
        /// read. Call it on the main thread, where its answer is the monitor's own.
        case notOnMainThread
        /// ``CallMonitor/applyPolicy(document:)`` was called from inside one of the monitor's
        /// delegate methods or callbacks; nothing was read. Call it after that returns.
        case calledFromCallback
        /// The monitor exited the app already (rule 16); nothing changes any more.
        case exited
    }

    /// What ``applyPolicy(document:)`` did with a document.
    public enum PolicyResult: Hashable, Sendable, CustomStringConvertible {
        /// The document was accepted and is the remote policy from now on (in force between its
        /// `nbf` and `exp`, on devices its rules target).
        case applied(version: Int64)
        /// The document has the version already accepted: nothing changed.
        case unchanged(version: Int64)
        /// The document was refused and nothing changed; the code's policy, or the document
        /// accepted before, still holds. `reason` is what an app switches on; `detail` says, for
        /// the person who reads a log, what the refusal points at: the header member, claim or
        /// JSON path and what was expected there (`iss: expected "com.bank.app", got
        /// "com.other"`), quoting at most a short value of the document. Its wording may change
        /// between versions; the reasons do not.
        case rejected(PolicyRejection, detail: String)

        /// `applied 3`, `unchanged 3`, `rejected badSignature: signature: does not verify with key "k1" (EdDSA)`.
        public var description: String {
            switch self {
            case .applied(let version): "applied \(version)"
            case .unchanged(let version): "unchanged \(version)"
            case .rejected(let reason, let detail): "rejected \(reason.rawValue): \(detail)"
            }
        }
    }

    /// Why ``setPolicyKeys(jwks:issuer:allowsRelaxation:storeDirectory:)`` refused a key set.
    public struct PolicyKeyError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong with the key set, for the developer who bundled it.
        public let description: String
    }

    // MARK: Keys and attributes

    /// Pins the keys that sign the app's remote policy and names its issuer, then applies the
    /// document accepted at an earlier launch (verified again with these keys) before any call
    /// is seen.
    ///
    /// Call it once at launch, before `startMonitoring…`. Without it every document is refused
    /// (``PolicyRejection/noKeys``). Several keys may be pinned so the bank can rotate: sign
    /// with a new key once every app in use carries it.
    ///
    /// > Important: Without `allowsRelaxation` a document can only make the guard stricter: one
    /// > that would weaken anything the code set (a screen off, observe, a longer terminate
    /// > countdown, detection off) is refused whole. With it, a document may switch the guard
    /// > off (`"appWide": "observe"` with every screen `"off"` is the kill switch).
    ///
    /// - Parameters:
    ///   - jwks: A JWK Set (RFC 7517) of Ed25519 (`OKP`) and P-256 (`EC`) public keys, each with
    ///     its `kid`; keys of other types in it are ignored. At most 64 KiB.
    ///   - issuer: The `iss` every document must carry.
    ///   - allowsRelaxation: Whether a document may weaken the code's policy.
    ///   - storeDirectory: Where the accepted document, the highest version and the clock's
    ///     high-water mark are kept; by default an `hnb` folder in Application Support (Apple
    ///     platforms) or `$XDG_STATE_HOME` (Linux).
    /// - Throws: ``PolicyKeyError`` when the key set is not one; the keys set before stay.
    public func setPolicyKeys(jwks: Data, issuer: String, allowsRelaxation: Bool = false, storeDirectory: URL? = nil) throws {
        let store = (storeDirectory ?? PolicyFileStore.defaultDirectory).map(PolicyFileStore.init(directory:))
        try setPolicyKeys(jwks: jwks, issuer: issuer, allowsRelaxation: allowsRelaxation, store: store, crypto: PolicyCrypto.platform)
    }

    /// The same with the file and the crypto given: no file keeps nothing between runs (the
    /// simulator); no crypto plays a platform whose crypto could not be loaded (every document
    /// is then refused, ``PolicyRejection/cryptoUnavailable``).
    package func setPolicyKeys(jwks: Data, issuer: String, allowsRelaxation: Bool, store: PolicyFileStore?, crypto: PolicyCrypto?) throws {
        let keys: PolicyKeySet
        do {
            keys = try PolicyKeySet.parse(Array(jwks))
        } catch {
            throw PolicyKeyError(description: error.narrowed(or: PolicyKeySet.Failure.unexpected).description)
        }
        let plug = policyPlug
        plug.keys.set(PolicyPlug.Keys(keys: keys, issuer: issuer, allowsRelaxation: allowsRelaxation, crypto: crypto, store: store))
        var restored: MonitorEngine.RestoredPolicy?
        if let kept = store?.load() {
            var document: PolicyDocument?
            if let text = kept.text {
                document = try? PolicyDocument.verify(text, keys: keys, issuer: issuer, crypto: crypto).get()
            }
            restored = MonitorEngine.RestoredPolicy(
                document: document, text: document == nil ? nil : kept.text, highestVersion: kept.highestVersion, clockMark: kept.clockMark
            )
        }
        sendPolicyInput(.policyAttributes(plug.attributes.value.merged))
        sendPolicyInput(.policyKeys(MonitorEngine.PolicyKeys(allowsRelaxation: allowsRelaxation, restored: restored)))
    }

    /// The app's own attributes of this device for the documents' rules (`"region": "DE"`),
    /// beside the library's `os`, `osVersion` and `appVersion` (the main bundle's short
    /// version), which these cannot replace. Replaces the attributes set before; the rule in
    /// force is chosen again at once.
    ///
    /// - Parameter attributes: Names and values; a rule's `when.attributes` lists the values it
    ///   matches.
    public func setPolicyAttributes(_ attributes: [String: String]) {
        let merged = policyPlug.attributes.withLock { state -> [String: String] in
            state.app = attributes
            return state.merged
        }
        sendPolicyInput(.policyAttributes(merged))
    }

    /// Replaces the library's own attributes (`os`, `osVersion`, `appVersion`): for the
    /// simulator, which plays other devices.
    package func setPlatformPolicyAttributes(_ attributes: [String: String]) {
        let merged = policyPlug.attributes.withLock { state -> [String: String] in
            state.platform = attributes
            return state.merged
        }
        sendPolicyInput(.policyAttributes(merged))
    }

    // MARK: The document

    /// Verifies a signed policy document the app fetched from its own server and, if it is
    /// valid, newer than the one accepted and allowed, applies it at once (the library does no
    /// networking).
    ///
    /// An applied document changes the policies as a protection does (rule 18): an event on
    /// screen ends (``CallMonitorOutcomeEnding/policyChanged``) and one under the new policy
    /// begins at once, never with a longer terminate countdown (rule 21). It is kept, with the
    /// highest version, for the next launch (``setPolicyKeys(jwks:issuer:allowsRelaxation:storeDirectory:)``).
    ///
    /// > Important: Call it on the main thread, outside the monitor's delegate methods and
    /// > callbacks: its answer is then the monitor's own. Called elsewhere it reads nothing and
    /// > answers ``PolicyRejection/notOnMainThread`` or ``PolicyRejection/calledFromCallback``.
    ///
    /// - Parameter document: The JWS compact serialization, at most 64 KiB.
    /// - Returns: What was done: applied, unchanged (the same version), or rejected and why.
    public func applyPolicy(document: Data) -> PolicyResult {
        guard CallMonitor.isOnMainQueue else { return PolicyRefusal.notOnMainThread.answer }
        return CallMonitor.assumeOnMainQueue {
            // A call from inside a callback reads nothing: no crypto runs for an answer that
            // cannot be the monitor's.
            guard !isInsideCallback else { return PolicyRefusal.calledFromCallback.answer }
            let input = PolicyDocument.input(Array(document), keys: (pluggedPolicyPort as? PolicyPlug)?.keys.value)
            guard let event = applyPolicyNow(input) else { return PolicyRefusal.exited.answer }
            return event.answer
        }
    }
}

extension PolicyDocument {
    /// What the engine is handed for `bytes`: the verified document, or the verifier's refusal
    /// (no keys pinned answers `tooLarge` or `noKeys`, decided by the verifier's first steps
    /// like any other refusal). The engine decides everything after (rules 26 to 28).
    static func input(_ bytes: [UInt8], keys: PolicyPlug.Keys?) -> MonitorEngine.Input {
        switch verifyExplained(bytes, keys: keys?.keys, issuer: keys?.issuer ?? "", crypto: keys?.crypto) {
        case .success(let verified): .applyPolicy(verified, text: bytes)
        case .failure(let refusal): .policyRejected(refusal)
        }
    }
}

extension MonitorEngine.PolicyEvent {
    /// The app's answer for the document event its own call caused: the one mapping from the
    /// engine's event to ``CallMonitor/PolicyResult`` (the facade's own refusals, the Objective-C
    /// object and the simulator's line are all made from the event or this answer).
    var answer: CallMonitor.PolicyResult {
        switch result {
        case .applied: .applied(version: version ?? 0)
        case .unchanged: .unchanged(version: version ?? 0)
        case .rejected, .expired:
            .rejected(CallMonitor.PolicyRejection(reason ?? .expired), detail: detail ?? PolicyRefusal.expiredDetail)
        }
    }
}

extension PolicyRefusal {
    // The facade's own refusals, worded beside the verifier's and the engine's.

    static let notOnMainThread = PolicyRefusal(.notOnMainThread, "applyPolicy(document:) was called off the main thread: nothing was read")
    static let calledFromCallback = PolicyRefusal(
        .calledFromCallback, "applyPolicy(document:) was called from inside one of the monitor's delegate methods or callbacks: nothing was read"
    )
    static let exited = PolicyRefusal(.exited, "the monitor has exited the app (rule 16): nothing changes any more")
    /// An accepted document that has expired since, when no finer detail is known.
    static let expiredDetail = "exp: the document has expired"

    /// The app's answer for this refusal.
    var answer: CallMonitor.PolicyResult { MonitorEngine.PolicyEvent(rejected: self, version: nil).answer }
}

extension CallMonitor.PolicyRejection {
    /// The app's reason for the engine's and the verifier's (hnb's `PolicyRejection`, the same
    /// words): spelled out case by case, so that a reason added on one side and not the other
    /// does not compile.
    init(_ reason: hnb.PolicyRejection) {
        self = switch reason {
        case .tooLarge: .tooLarge
        case .malformed: .malformed
        case .duplicateKey: .duplicateKey
        case .unsupportedAlgorithm: .unsupportedAlgorithm
        case .wrongType: .wrongType
        case .unknownKey: .unknownKey
        case .keyTypeMismatch: .keyTypeMismatch
        case .badSignature: .badSignature
        case .wrongIssuer: .wrongIssuer
        case .invalidClaims: .invalidClaims
        case .unknownField: .unknownField
        case .secondsOutOfRange: .secondsOutOfRange
        case .invalidPolicy: .invalidPolicy
        case .relaxationNotAllowed: .relaxationNotAllowed
        case .rollback: .rollback
        case .expired: .expired
        case .noKeys: .noKeys
        case .cryptoUnavailable: .cryptoUnavailable
        case .notOnMainThread: .notOnMainThread
        case .calledFromCallback: .calledFromCallback
        case .exited: .exited
        }
    }
}

/// What the policy product keeps for one monitor, plugged into its core as its policy port:
/// the keys `setPolicyKeys` pinned (read on the caller's thread to verify a document) and the
/// device's attributes. It writes the record the engine says to write (rule 27).
final class PolicyPlug: PolicyPort {
    /// What `setPolicyKeys` set.
    struct Keys: Sendable {
        let keys: PolicyKeySet
        let issuer: String
        let allowsRelaxation: Bool
        /// `nil` when the platform's crypto could not be loaded: every document is refused.
        let crypto: PolicyCrypto?
        let store: PolicyFileStore?
    }

    let keys = Locked<Keys?>(nil)
    let attributes = Locked(PolicyAttributes())

    func persist(_ record: MonitorEngine.PolicyRecord) {
        keys.value?.store?.save(record)
    }
}

extension CallMonitor {
    /// This monitor's policy state, plugged in at the first call that needs it.
    var policyPlug: PolicyPlug {
        // Only this product plugs a port in, so the one found is a PolicyPlug; were it not, a
        // plug of no monitor keeps no keys, and every document is refused (noKeys): the code's
        // policy holds, never a crash.
        (policyPort(installingIfNone: { PolicyPlug() }) as? PolicyPlug) ?? PolicyPlug()
    }
}

/// The attributes the rules' `when` reads, as set: the library's and the app's. Which wins is
/// the rules' own decision (`PolicyCondition.device(library:app:)`).
struct PolicyAttributes: Sendable {
    var platform: [String: String] = PolicyAttributes.library
    var app: [String: String] = [:]

    var merged: [String: String] { PolicyCondition.device(library: platform, app: app) }
}

/// ``CallMonitor/PolicyResult`` for Objective-C, `CallMonitorPolicyResult` there; Swift code
/// uses ``CallMonitor/PolicyResult``. Public only because Objective-C needs it (hence the
/// underscore, which keeps it out of the documentation); it cannot be nested, as the generated
/// header leaves nested types out.
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallMonitorPolicyResult)
#endif
public final class _CallMonitorPolicyResult: NSObject {
    /// Whether the document is the one accepted: applied now, or unchanged (the same version).
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(applied)
    #endif
    public let applied: Bool
    /// The document's version; 0 when it was refused before its version was read.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(version)
    #endif
    public let version: Int64
    /// Why the document was refused (``CallMonitor/PolicyRejection``'s raw value); `nil` when
    /// it was applied or unchanged.
    public let reason: String?
    /// What the refusal points at (the header member, claim or JSON path and what was
    /// expected), for a log; `nil` when the document was applied or unchanged.
    public let detail: String?

    /// The object form of `result`.
    public init(_ result: CallMonitor.PolicyResult) {
        switch result {
        case .applied(let version):
            applied = true
            self.version = version
            reason = nil
            detail = nil
        case .unchanged(let version):
            applied = true
            self.version = version
            reason = nil
            detail = nil
        case .rejected(let rejection, let detail):
            applied = false
            version = 0
            reason = rejection.rawValue
            self.detail = detail
        }
        super.init()
    }
}

#if HNB_OBJC_HEADER
// Header generation compiles against a stand-in NSObject, which the compiler does not accept as a
// Sendable superclass; the checked conformance below is the one every real build uses.
extension _CallMonitorPolicyResult: @unchecked Sendable {}
#else
// Checked: every stored property is an immutable Sendable value.
extension _CallMonitorPolicyResult: Sendable {}
#endif

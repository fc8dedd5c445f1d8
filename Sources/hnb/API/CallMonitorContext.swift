// What is at stake on the screen a protection guards (issue 30): the kind of action, which adds one
// built-in line to the dialog, and the app's own sentence about it, cleaned before anything draws
// it. Which context shows is the engine's decision (Engine/Guards.swift, rule 29).

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation

/// What the screen behind a protection is about, for the warning to say: a kind, which adds one
/// built-in line under the dialog's message, and a detail in the app's own words.
///
/// ```swift
/// let protection = monitor.protect(
///     withTerminateIn: 5,
///     context: CallMonitorContext(kind: .payment, detail: "You are sending €2,000 to M. Mustermann."))
/// ```
///
/// A warning that names what the person is doing is harder to brush aside than one that could
/// be about anything, and the outcome records exactly what was shown.
///
/// The detail is cleaned once, here, so every reader (the built-in dialog, a custom UI, the
/// outcome) sees the same text: control characters, format characters (the bidirectional
/// overrides, embeddings and isolates U+202A–U+202E and U+2066–U+2069, the marks U+200E, U+200F
/// and U+061C, and the zero-width characters U+200B–U+200D, U+2060 and U+FEFF among them) are
/// removed, every run of white space becomes one space, the ends are trimmed, and a detail longer
/// than 200 characters keeps its first 199 and ends with "…". Characters are counted as a person
/// sees them (grapheme clusters: "é" written as e and a combining accent is one). A detail that is
/// empty after cleaning is `nil`.
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallMonitorContext)
#endif
public final class CallMonitorContext: NSObject {
    /// What kind of action the screen is about. Each kind but ``general`` adds one built-in line,
    /// in the user's language, under the dialog's message.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Moving money: a transfer, a payment, a standing order.
        case payment
        /// Secrets: a PIN, a TAN, a password, a one-time code.
        case credentials
        /// A new device, an app installed, remote access granted.
        case deviceChange
        /// Contact details, limits, payees.
        case accountChange
        /// Anything else: no built-in line, only the detail.
        case general

        /// The case name, as the simulator and the outcome's JSON spell it.
        public var description: String { rawValue }

        /// The dialog string that puts this kind into words, or `nil` for ``general``.
        var lineKey: CallMonitorStrings.Key? {
            switch self {
            case .payment: .contextPayment
            case .credentials: .contextCredentials
            case .deviceChange: .contextDeviceChange
            case .accountChange: .contextAccountChange
            case .general: nil
            }
        }
    }

    /// The kind of action.
    public let kind: Kind

    /// The app's sentence as it is drawn: cleaned (see ``CallMonitorContext``), or `nil` when none
    /// was given or nothing was left after cleaning.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(detail)
    #endif
    public let detail: String?

    /// The app's id for the operation (a transfer's id, say), which a coaching question carries
    /// (rule 31; Trust Insights' `requestID`), cleaned and cut as ``detail`` is; `nil` when none
    /// was given or nothing was left after cleaning. Never drawn.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(operationID)
    #endif
    public let operationID: String?

    /// A context of `kind` with the app's `detail`, cleaned before it is stored.
    ///
    /// - Parameters:
    ///   - kind: What the screen is about.
    ///   - detail: One sentence in the user's language, such as "You are sending €2,000 to
    ///     M. Mustermann."; `nil` for none.
    ///   - operationID: The app's id for the operation, for coaching sources (rule 31); `nil` for none.
    public init(kind: Kind, detail: String? = nil, operationID: String? = nil) {
        self.kind = kind
        self.detail = detail.flatMap(ContextDetail.clean)
        self.operationID = operationID.flatMap(ContextDetail.clean)
        super.init()
    }

    /// The kind's case name (`payment`, `credentials`, `deviceChange`, `accountChange`,
    /// `general`), for Objective-C, which cannot see the nested enum.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(kindName)
    #endif
    public var kindName: String { kind.rawValue }

    /// The kind a name from Objective-C or a scenario gives: a case name, exactly; any other name
    /// is ``Kind/general``, so a typo loses the built-in line but never the warning or the detail.
    static func kind(named name: String) -> Kind {
        Kind(rawValue: name) ?? .general
    }

    /// The context Objective-C's `contextKind:detail:operationID:` give: none when all three are
    /// `nil`, else the kind named (``Kind/general`` when no kind is given) with the detail and
    /// the operation id.
    static func objc(kind: String?, detail: String?, operationID: String? = nil) -> CallMonitorContext? {
        guard kind != nil || detail != nil || operationID != nil else { return nil }
        return CallMonitorContext(kind: Self.kind(named: kind ?? Kind.general.rawValue), detail: detail, operationID: operationID)
    }

    // The header build's stand-in root class has no -isEqual:, -hash or -description to override.
    #if !HNB_OBJC_HEADER
    /// Two contexts are equal when their kinds, cleaned details and operation ids are.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CallMonitorContext else { return false }
        return kind == other.kind && detail == other.detail && operationID == other.operationID
    }

    /// A hash of the kind, the detail and the operation id, consistent with ``isEqual(_:)``.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(kind)
        hasher.combine(detail)
        hasher.combine(operationID)
        return hasher.finalize()
    }

    /// One line for logs: `payment "You are sending €2,000 to M."`, or the kind alone.
    public override var description: String {
        detail.map { "\(kind) \"\($0)\"" } ?? kind.rawValue
    }
    #endif
}

#if HNB_OBJC_HEADER
// Header generation compiles against a stand-in NSObject, which the compiler does not accept as a
// Sendable superclass and which has no -isEqual: (so no Equatable); the checked conformance below
// and NSObject's equality are the ones every real build uses.
extension CallMonitorContext: @unchecked Sendable {}
extension CallMonitorContext: Equatable {
    public static func == (lhs: CallMonitorContext, rhs: CallMonitorContext) -> Bool {
        lhs.kind == rhs.kind && lhs.detail == rhs.detail && lhs.operationID == rhs.operationID
    }
}
#else
// Checked: every stored property is a `let` of a Sendable type.
extension CallMonitorContext: Sendable {}
#endif

// The platform-independent model of the built-in dialog, and the presenter that keeps a renderer
// in step with the engine.

/// What the built-in security dialog says at one moment.
///
/// Title, message and countdown are separate fields so that a renderer can lay them out in any
/// direction and style; nothing here is concatenated.
public struct SecurityAlert: Hashable, Sendable {
    /// The flow the dialog belongs to.
    public var flow: CallMonitorFlow
    /// The dialog's title.
    public var title: String
    /// The dialog's body.
    public var message: String
    /// The countdown line, or `nil` once the acknowledge delay is over.
    public var countdown: String?
    /// The button's title, or `nil` while the button must not be shown.
    public var button: String?
    /// The seconds left on the countdown.
    public var remaining: Int32
    /// The bank's verdict as one line (rule 24), or `nil` when there is nothing to say
    /// (``CallMonitorCallVerdict/unknown``). A renderer shows it between the message and the
    /// countdown.
    public var verdict: String?

    /// A dialog with every field given.
    public init(
        flow: CallMonitorFlow, title: String, message: String, countdown: String?, button: String?, remaining: Int32,
        verdict: String? = nil
    ) {
        self.flow = flow
        self.title = title
        self.message = message
        self.countdown = countdown
        self.button = button
        self.remaining = remaining
        self.verdict = verdict
    }

    /// The dialog for `flow` with `remaining` seconds left, in the words `strings` gives.
    ///
    /// Terminate: the Close App button and the countdown are always shown. Acknowledge: the
    /// countdown is shown and the button hidden until `remaining` reaches 0, then the reverse.
    ///
    /// - Parameters:
    ///   - flow: The flow the dialog belongs to.
    ///   - remaining: The seconds left; negative values are shown as 0.
    ///   - strings: The texts.
    ///   - acknowledgementRefused: Rule 17: the acknowledgement is refused because the screen is
    ///     captured. Once the countdown is over, the button then says why
    ///     (``CallMonitorStringKey/buttonRefusedWhileCaptured``) instead of Acknowledge; tapping
    ///     it does nothing. Ignored in the terminate flow.
    ///   - verdict: Rule 24: the bank's verdict, shown as ``verdict`` in the words of
    ///     ``CallMonitorStringKey/verdictBankIsNotCalling`` or
    ///     ``CallMonitorStringKey/verdictBankIsCalling``; nothing for `unknown`. It changes no
    ///     other field: the countdown and the button are the same whatever it says.
    public init(
        flow: CallMonitorFlow, remaining: Int32, strings: CallMonitorStrings, acknowledgementRefused: Bool = false,
        verdict: CallMonitorCallVerdict = .unknown
    ) {
        let remaining = max(0, remaining)
        let verdictLine = Self.verdictLine(verdict, strings: strings)
        switch flow {
        case .terminate:
            self.init(
                flow: flow,
                title: strings.text(.alertTitle),
                message: strings.text(.alertMessage),
                countdown: strings.countdown(.closeCountdown, remaining: remaining),
                button: strings.text(.buttonClose),
                remaining: remaining,
                verdict: verdictLine
            )
        case .acknowledge:
            let waiting = remaining > 0
            self.init(
                flow: flow,
                title: strings.text(.alertTitle),
                message: strings.text(.alertMessageWarning),
                countdown: waiting ? strings.countdown(.acknowledgeCountdown, remaining: remaining) : nil,
                button: waiting ? nil : strings.text(acknowledgementRefused ? .buttonRefusedWhileCaptured : .buttonAcknowledge),
                remaining: remaining,
                verdict: verdictLine
            )
        }
    }

    /// Rule 24: the line a verdict adds to the dialog, or `nil` for `unknown`.
    static func verdictLine(_ verdict: CallMonitorCallVerdict, strings: CallMonitorStrings) -> String? {
        switch verdict {
        case .unknown: nil
        case .bankIsCalling: strings.text(.verdictBankIsCalling)
        case .bankIsNotCalling: strings.text(.verdictBankIsNotCalling)
        }
    }
}

/// The texts of the built-in dialog.
///
/// Each key is looked up in `tables` in order; a missing or empty entry falls through to the
/// next, and the English default ends the chain. Countdown lines are plural-aware: for a count in
/// CLDR category *c* (say `few` in Russian) each table is asked for `KEY.c`, then `KEY`, before
/// the next table is tried, so a table can give every form its language needs, and a table that
/// overrides only `KEY` still wins for every count.
public struct CallMonitorStrings: Sendable {
    /// Looks up one raw key (`call_monitor_alert_title`, `call_monitor_close_countdown.one`, …);
    /// returns `nil` (or an empty string) when it has no entry.
    public typealias Table = @Sendable (String) -> String?

    /// The language whose plural rules pick the countdown forms: a base code (`ru`), or `pt-PT`,
    /// the one region whose rule differs from its language's.
    public let language: String
    private let tables: [Table]

    /// Strings taken from `tables` in order, then from the English defaults.
    ///
    /// - Parameters:
    ///   - language: The language of the tables (its plural rules choose countdown forms).
    ///   - tables: Lookups tried in order for each key.
    public init(language: String = "en", tables: [Table]) {
        self.language = pluralLanguage(language)
        self.tables = tables
    }

    /// The English defaults of the reference, with "1 second" in the singular.
    public static let english = CallMonitorStrings(language: "en", tables: [])

    /// The text for `key`.
    public func text(_ key: CallMonitorStringKey) -> String {
        lookup(key.rawValue) ?? key.englishDefault
    }

    /// The countdown line for `key` with `remaining` put in place of its number placeholder, in
    /// the grammatical form the count needs.
    public func countdown(_ key: CallMonitorStringKey, remaining: Int32) -> String {
        let count = Int(remaining)
        let category = PluralRules.category(of: count, in: language)
        let formKey = "\(key.rawValue).\(category.rawValue)"
        // The chain is per key, not per form: a table that has the key at all (in any form) ends
        // the search, so an app's single plain override covers every count and a library form
        // never slips in between.
        for table in tables {
            if category != .other, let form = table(formKey), !form.isEmpty { return CountFormatter.format(form, count: count) }
            if let plain = table(key.rawValue), !plain.isEmpty { return CountFormatter.format(plain, count: count) }
        }
        return CountFormatter.format(key.englishDefault(count: count), count: count)
    }

    private func lookup(_ rawKey: String) -> String? {
        for table in tables {
            if let value = table(rawKey), !value.isEmpty { return value }
        }
        return nil
    }
}

/// The built-in security UI: turns the engine's present / tick / dismiss into ``SecurityAlert``
/// values for a renderer.
@MainActor
final class DefaultSecurityUI {
    private let renderer: any SecurityAlertRenderer
    private var strings: CallMonitorStrings
    private var flow: CallMonitorFlow = .terminate
    private var onAction: (@MainActor () -> Void)?
    /// The remaining value on screen, or nil when the dialog is not shown.
    private var shownRemaining: Int32?
    /// Rule 17: the acknowledgement is refused while the screen is captured.
    private var refused = false
    /// Rule 24: the verdict of the event shown.
    private var verdict = CallMonitorCallVerdict.unknown

    nonisolated init(renderer: any SecurityAlertRenderer, strings: CallMonitorStrings) {
        self.renderer = renderer
        self.strings = strings
    }

    func present(
        flow: CallMonitorFlow, remaining: Int32, refused: Bool = false, verdict: CallMonitorCallVerdict = .unknown,
        onAction: @escaping @MainActor () -> Void
    ) {
        self.flow = flow
        self.onAction = onAction
        self.refused = refused
        self.verdict = verdict
        render(remaining: remaining)
    }

    /// Rule 24: redraws a dialog on screen with the verdict's line, when the line changes.
    func setVerdict(_ verdict: CallMonitorCallVerdict) {
        let before = SecurityAlert.verdictLine(self.verdict, strings: strings)
        self.verdict = verdict
        guard let shownRemaining, SecurityAlert.verdictLine(verdict, strings: strings) != before else { return }
        render(remaining: shownRemaining)
    }

    /// Redraws a dialog on screen with the button the capture rule calls for.
    func setRefused(_ refused: Bool) {
        guard refused != self.refused else { return }
        self.refused = refused
        // Only the acknowledge flow's button, shown once the countdown is over, changes.
        if flow == .acknowledge, let shownRemaining, shownRemaining <= 0 { render(remaining: shownRemaining) }
    }

    func tick(remaining: Int32) {
        render(remaining: remaining)
    }

    func dismiss() {
        onAction = nil
        shownRemaining = nil
        refused = false
        verdict = .unknown
        renderer.dismiss()
    }

    /// Switches the texts; a dialog on screen is redrawn in the new language at once.
    func setStrings(_ strings: CallMonitorStrings) {
        self.strings = strings
        if let shownRemaining { render(remaining: shownRemaining) }
    }

    private func render(remaining: Int32) {
        shownRemaining = remaining
        let alert = SecurityAlert(flow: flow, remaining: remaining, strings: strings, acknowledgementRefused: refused, verdict: verdict)
        let onAction = self.onAction
        renderer.render(alert) {
            // A tap on a button that was never drawn does nothing; the engine checks the delay too.
            guard alert.button != nil else { return }
            onAction?()
        }
    }
}

/// The language whose plural rules apply to `tag`: its base code (`de-AT` → `de`), except
/// Portugal's Portuguese, whose rule differs from Brazil's (0 is "other" there), so it stays
/// `pt-PT`.
func pluralLanguage(_ tag: String) -> String {
    let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "." || $0 == "@" })
    if parts.count >= 2 && parts[0].lowercased() == "pt" && parts[1].uppercased() == "PT" { return "pt-PT" }
    return baseCode(tag)
}

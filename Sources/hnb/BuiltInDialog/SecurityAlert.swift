// The platform-independent model of the built-in dialog (what it says at one moment) and its
// texts. BuiltInDialog.swift keeps a renderer in step with the engine.

/// What the built-in security dialog says at one moment.
///
/// Title, message and countdown are separate fields so that a renderer can lay them out in any
/// direction and style; nothing here is concatenated.
package struct SecurityAlert: Hashable, Sendable {
    /// The flow the dialog belongs to.
    package var flow: CallMonitorFlow
    /// The dialog's title.
    package var title: String
    /// The dialog's body.
    package var message: String
    /// The countdown line, or `nil` once the acknowledge delay is over.
    package var countdown: String?
    /// The button's title, or `nil` while the button must not be shown.
    package var button: String?
    /// The seconds left on the countdown.
    package var remaining: Int32
    /// The bank's verdict as one line (rule 24), or `nil` when there is nothing to say
    /// (``CallMonitorCallVerdict/unknown``). A renderer shows it between the message and the
    /// countdown.
    package var verdict: String?
    /// The built-in line of the screen's context kind (issue 30), or `nil` for none
    /// (``CallMonitorContext/Kind/general``, or no context). A renderer shows it under the message.
    package var kindLine: String?
    /// The screen's own sentence (``CallMonitorContext/detail``), already cleaned, or `nil`. A
    /// renderer shows it under the kind line, as plain text in its own paragraph.
    package var detail: String?
    /// The kind of the screen's context, or `nil` when the dialog shows none (for a transcript:
    /// ``kindLine`` is `nil` for ``CallMonitorContext/Kind/general`` too).
    package var contextKind: CallMonitorContext.Kind?
    /// Rule 34: the line of the coaching level read (``CallMonitorStrings/Key/alertCoachingMedium``
    /// or ``CallMonitorStrings/Key/alertCoachingHigh``), or `nil` for none. A renderer shows it
    /// under the context's detail, before the verdict.
    package var coachingLine: String?
    /// The level ``coachingLine`` says, or `nil` when the dialog shows none (for a transcript).
    package var coachingLevel: CallMonitor.CoachingLevel?

    /// A dialog with every field given.
    package init(
        flow: CallMonitorFlow, title: String, message: String, countdown: String?, button: String?, remaining: Int32,
        verdict: String? = nil, kindLine: String? = nil, detail: String? = nil, contextKind: CallMonitorContext.Kind? = nil,
        coachingLine: String? = nil, coachingLevel: CallMonitor.CoachingLevel? = nil
    ) {
        self.coachingLine = coachingLine
        self.coachingLevel = coachingLevel
        self.flow = flow
        self.title = title
        self.message = message
        self.countdown = countdown
        self.button = button
        self.remaining = remaining
        self.verdict = verdict
        self.kindLine = kindLine
        self.detail = detail
        self.contextKind = contextKind
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
    ///     (``CallMonitorStrings/Key/buttonRefusedWhileCaptured``) instead of Acknowledge; tapping
    ///     it does nothing. Ignored in the terminate flow.
    ///   - verdict: Rule 24: the bank's verdict, shown as ``verdict`` in the words of
    ///     ``CallMonitorStrings/Key/verdictBankIsNotCalling`` or
    ///     ``CallMonitorStrings/Key/verdictBankIsCalling``; nothing for `unknown`. It changes no
    ///     other field: the countdown and the button are the same whatever it says.
    ///   - context: Rule 29: the screen's context, shown as ``kindLine`` and ``detail``; like the
    ///     verdict it changes no other field.
    ///   - coachingWarning: Rule 32: the event is a coaching warning, with no call live. The
    ///     acknowledge flow then says ``CallMonitorStrings/Key/alertMessageCoaching`` instead of
    ///     ``CallMonitorStrings/Key/alertMessageWarning`` and shows no ``kindLine`` (every kind
    ///     line speaks of a call); the detail, countdown and button are as for any warning.
    ///   - coachingLevel: Rule 34: the coaching level read, shown as ``coachingLine`` in every
    ///     flow; `nil` (and ``CallMonitor/CoachingLevel/unknown``) shows none. Like the verdict it
    ///     changes no other field.
    package init(
        flow: CallMonitorFlow, remaining: Int32, strings: CallMonitorStrings, acknowledgementRefused: Bool = false,
        verdict: CallMonitorCallVerdict = .unknown, context: CallMonitorContext? = nil, coachingWarning: Bool = false,
        coachingLevel: CallMonitor.CoachingLevel? = nil
    ) {
        let remaining = max(0, remaining)
        // The engine's decision, the same one its user-action step obeys.
        let button = MonitorEngine.Button(flow: flow, remaining: remaining, refused: acknowledgementRefused)
        self.init(
            flow: flow, remaining: remaining, button: button, strings: strings, verdict: verdict, context: context,
            coachingWarning: coachingWarning, coachingLevel: coachingLevel
        )
    }

    /// The dialog for `flow` with `remaining` seconds left and the `button` the engine decided:
    /// this only puts it into words.
    init(
        flow: CallMonitorFlow, remaining: Int32, button: MonitorEngine.Button, strings: CallMonitorStrings, verdict: CallMonitorCallVerdict,
        context: CallMonitorContext? = nil, coachingWarning: Bool = false, coachingLevel: CallMonitor.CoachingLevel? = nil
    ) {
        let remaining = max(0, remaining)
        let title: String? = switch button {
        case .hidden: nil
        case .available: strings.text(flow == .terminate ? .buttonClose : .buttonAcknowledge)
        case .refused: strings.text(.buttonRefusedWhileCaptured)
        }
        switch flow {
        case .terminate:
            self.init(
                flow: flow, title: strings.text(.alertTitle), message: strings.text(.alertMessage),
                countdown: strings.countdown(.closeCountdown, remaining: remaining), button: title, remaining: remaining,
                verdict: Self.verdictLine(verdict, strings: strings), kindLine: Self.kindLine(context, strings: strings),
                detail: context?.detail, contextKind: context?.kind
            )
        case .acknowledge:
            // The countdown line while the delay runs, then none (rule 6). A coaching warning has
            // no call live: its message says so, and the kind lines, which all speak of a call,
            // are left out rather than tell the person something false (rule 32).
            let message: CallMonitorStrings.Key = coachingWarning ? .alertMessageCoaching : .alertMessageWarning
            self.init(
                flow: flow, title: strings.text(.alertTitle), message: strings.text(message),
                countdown: remaining > 0 ? strings.countdown(.acknowledgeCountdown, remaining: remaining) : nil, button: title,
                remaining: remaining, verdict: Self.verdictLine(verdict, strings: strings),
                kindLine: coachingWarning ? nil : Self.kindLine(context, strings: strings), detail: context?.detail, contextKind: context?.kind
            )
        }
        // Rule 34: the same line in every flow, worded to be true under each (it says nothing of
        // a call or of acknowledging).
        coachingLine = Self.coachingLine(coachingLevel, strings: strings)
        if coachingLine != nil { self.coachingLevel = coachingLevel }
    }

    /// Issue 30: the line a context's kind adds, or `nil` for none or ``CallMonitorContext/Kind/general``.
    static func kindLine(_ context: CallMonitorContext?, strings: CallMonitorStrings) -> String? {
        context?.kind.lineKey.map(strings.text)
    }

    /// Rule 34: the line a coaching level adds to the dialog, or `nil` for none or `unknown`.
    static func coachingLine(_ level: CallMonitor.CoachingLevel?, strings: CallMonitorStrings) -> String? {
        switch level {
        case nil, .unknown?: nil
        case .medium?: strings.text(.alertCoachingMedium)
        case .high?: strings.text(.alertCoachingHigh)
        }
    }

    /// The dialog's body as paragraphs, in the order a renderer with one message field shows
    /// them and VoiceOver reads them when the alert appears: the message, the context's kind line
    /// and detail (rule 29), the coaching line (rule 34), the verdict (rule 24) and the countdown.
    var paragraphs: [String] {
        [message, kindLine, detail, coachingLine, verdict, countdown].compactMap { $0 }
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
    package typealias Table = @Sendable (String) -> String?

    /// The language whose plural rules pick the countdown forms: a base code (`ru`), or `pt-PT`,
    /// the one region whose rule differs from its language's.
    public let language: String
    private let tables: [Table]

    /// Strings taken from `tables` in order, then from the English defaults.
    ///
    /// - Parameters:
    ///   - language: The language of the tables (its plural rules choose countdown forms).
    ///   - tables: Lookups tried in order for each key.
    package init(language: String = "en", tables: [Table]) {
        self.language = pluralLanguage(language)
        self.tables = tables
    }

    /// The English defaults of the reference, with "1 second" in the singular.
    public static let english = CallMonitorStrings(language: "en", tables: [])

    /// The text for `key`.
    public func text(_ key: CallMonitorStrings.Key) -> String {
        lookup(key.rawValue) ?? key.englishDefault
    }

    /// The countdown line for `key` with `remaining` put in place of its number placeholder, in
    /// the grammatical form the count needs.
    public func countdown(_ key: CallMonitorStrings.Key, remaining: Int32) -> String {
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

/// The language whose plural rules apply to `tag`: its base code (`de-AT` → `de`), except
/// Portugal's Portuguese, whose rule differs from Brazil's (0 is "other" there), so it stays
/// `pt-PT`.
func pluralLanguage(_ tag: String) -> String {
    let parts = languageTagParts(tag)
    if parts.count >= 2 && parts[0].lowercased() == "pt" && parts[1].uppercased() == "PT" { return "pt-PT" }
    return baseCode(tag)
}

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

    /// A dialog with every field given.
    public init(flow: CallMonitorFlow, title: String, message: String, countdown: String?, button: String?, remaining: Int32) {
        self.flow = flow
        self.title = title
        self.message = message
        self.countdown = countdown
        self.button = button
        self.remaining = remaining
    }

    /// The dialog for `flow` with `remaining` seconds left, in the words `strings` gives.
    ///
    /// Terminate: the Close App button and the countdown are always shown. Acknowledge: the
    /// countdown is shown and the button hidden until `remaining` reaches 0, then the reverse.
    public init(flow: CallMonitorFlow, remaining: Int32, strings: CallMonitorStrings) {
        let remaining = max(0, remaining)
        switch flow {
        case .terminate:
            self.init(
                flow: flow,
                title: strings.text(.alertTitle),
                message: strings.text(.alertMessage),
                countdown: strings.countdown(.closeCountdown, remaining: remaining),
                button: strings.text(.buttonClose),
                remaining: remaining
            )
        case .acknowledge:
            let waiting = remaining > 0
            self.init(
                flow: flow,
                title: strings.text(.alertTitle),
                message: strings.text(.alertMessageWarning),
                countdown: waiting ? strings.countdown(.acknowledgeCountdown, remaining: remaining) : nil,
                button: waiting ? nil : strings.text(.buttonAcknowledge),
                remaining: remaining
            )
        }
    }
}

/// The texts of the built-in dialog.
///
/// Each key is looked up in `tables` in order; a missing or empty entry falls through to the
/// next, and the English default ends the chain.
public struct CallMonitorStrings: Sendable {
    /// Looks up one key; returns `nil` (or an empty string) when it has no entry.
    public typealias Table = @Sendable (CallMonitorStringKey) -> String?

    private let tables: [Table]

    /// Strings taken from `tables` in order, then from the English defaults.
    public init(tables: [Table]) { self.tables = tables }

    /// The English defaults of the reference.
    public static let english = CallMonitorStrings(tables: [])

    /// The text for `key`.
    public func text(_ key: CallMonitorStringKey) -> String {
        for table in tables {
            if let value = table(key), !value.isEmpty { return value }
        }
        return key.englishDefault
    }

    /// The countdown line for `key` with `remaining` put in place of its number placeholder.
    public func countdown(_ key: CallMonitorStringKey, remaining: Int32) -> String {
        CountFormatter.format(text(key), count: Int(remaining))
    }
}

/// The built-in security UI: turns the engine's present / tick / dismiss into ``SecurityAlert``
/// values for a renderer.
@MainActor
final class DefaultSecurityUI {
    private let renderer: any SecurityAlertRenderer
    private let strings: CallMonitorStrings
    private var flow: CallMonitorFlow = .terminate
    private var onAction: (@MainActor () -> Void)?

    nonisolated init(renderer: any SecurityAlertRenderer, strings: CallMonitorStrings) {
        self.renderer = renderer
        self.strings = strings
    }

    func present(flow: CallMonitorFlow, remaining: Int32, onAction: @escaping @MainActor () -> Void) {
        self.flow = flow
        self.onAction = onAction
        render(remaining: remaining)
    }

    func tick(remaining: Int32) {
        render(remaining: remaining)
    }

    func dismiss() {
        onAction = nil
        renderer.dismiss()
    }

    private func render(remaining: Int32) {
        let alert = SecurityAlert(flow: flow, remaining: remaining, strings: strings)
        let onAction = self.onAction
        renderer.render(alert) {
            // A tap on a button that was never drawn does nothing; the engine checks the delay too.
            guard alert.button != nil else { return }
            onAction?()
        }
    }
}

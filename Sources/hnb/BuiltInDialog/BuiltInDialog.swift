// The built-in dialog: what shows the security event when no delegate does. It turns the engine's
// present, tick, button, verdict and dismiss into ``SecurityAlert`` values for a renderer, and
// draws the button the engine decided, without deciding it again.

/// Keeps a ``SecurityAlertRenderer`` in step with the event the engine shows on the built-in
/// dialog.
@MainActor
final class BuiltInDialog {
    private let renderer: any SecurityAlertRenderer
    private var strings: CallMonitorStrings
    private var flow: CallMonitorFlow = .terminate
    private var onAction: (@MainActor () -> Void)?
    /// The remaining value on screen, or nil when the dialog is not shown.
    private var shownRemaining: Int32?
    /// The button on screen, as the engine decided it (rules 5, 6 and 17).
    private var button = MonitorEngine.Button.hidden
    /// Rule 24: the verdict of the event shown.
    private var verdict = CallMonitorCallVerdict.unknown
    /// Issue 30: the context of the event shown, as the engine chose it.
    private var context: CallMonitorContext?

    /// Told of every frame drawn, with the verdict in force: the evidence of what was shown
    /// (``ShownRecorder``).
    var onFrame: (@MainActor (SecurityAlert, CallMonitorCallVerdict) -> Void)?

    /// The language of the texts drawn now.
    var language: String { strings.language }

    nonisolated init(renderer: any SecurityAlertRenderer, strings: CallMonitorStrings) {
        self.renderer = renderer
        self.strings = strings
    }

    func present(
        flow: CallMonitorFlow, remaining: Int32, button: MonitorEngine.Button, verdict: CallMonitorCallVerdict = .unknown,
        context: CallMonitorContext? = nil, onAction: @escaping @MainActor () -> Void
    ) {
        self.flow = flow
        self.onAction = onAction
        self.button = button
        self.verdict = verdict
        self.context = context
        render(remaining: remaining)
    }

    /// Issue 30: redraws a dialog on screen with the context the engine now shows; the countdown
    /// and the button stay as they are.
    func setContext(_ context: CallMonitorContext?) {
        guard context != self.context else { return }
        self.context = context
        if let shownRemaining { render(remaining: shownRemaining) }
    }

    /// Rule 24: redraws a dialog on screen with the verdict's line, when the line changes.
    func setVerdict(_ verdict: CallMonitorCallVerdict) {
        let before = SecurityAlert.verdictLine(self.verdict, strings: strings)
        self.verdict = verdict
        guard let shownRemaining, SecurityAlert.verdictLine(verdict, strings: strings) != before else { return }
        render(remaining: shownRemaining)
    }

    /// Redraws a dialog on screen with the button the engine now gives it (rule 17).
    func setButton(_ button: MonitorEngine.Button) {
        guard button != self.button else { return }
        self.button = button
        if let shownRemaining { render(remaining: shownRemaining) }
    }

    func tick(remaining: Int32, button: MonitorEngine.Button) {
        self.button = button
        render(remaining: remaining)
    }

    func dismiss() {
        onAction = nil
        shownRemaining = nil
        button = .hidden
        verdict = .unknown
        context = nil
        renderer.dismiss()
    }

    /// Switches the texts; a dialog on screen is redrawn in the new language at once.
    func setStrings(_ strings: CallMonitorStrings) {
        self.strings = strings
        if let shownRemaining { render(remaining: shownRemaining) }
    }

    private func render(remaining: Int32) {
        shownRemaining = remaining
        let alert = SecurityAlert(flow: flow, remaining: remaining, button: button, strings: strings, verdict: verdict, context: context)
        onFrame?(alert, verdict)
        let onAction = self.onAction
        let button = self.button
        renderer.render(alert) {
            // A tap on a button that was never drawn does nothing; the engine decides the rest.
            guard button != .hidden else { return }
            onAction?()
        }
    }
}

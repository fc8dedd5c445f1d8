// The built-in dialog: what shows the security event when no delegate does. It turns each scene
// the engine emits into a ``SecurityAlert`` value for a renderer, and draws the button the engine
// decided, without deciding it again. It keeps nothing of the event: every scene is whole.

/// Keeps a ``SecurityAlertRenderer`` in step with the event the engine shows on the built-in
/// dialog.
@MainActor
final class BuiltInDialog {
    private let renderer: any SecurityAlertRenderer
    private var strings: CallMonitorStrings

    /// Told of every frame drawn, with the verdict in force: the evidence of what was shown
    /// (``ShownRecorder``).
    var onFrame: (@MainActor (SecurityAlert, CallMonitorCallVerdict) -> Void)?

    /// The language of the texts drawn now.
    var language: String { strings.language }

    nonisolated init(renderer: any SecurityAlertRenderer, strings: CallMonitorStrings) {
        self.renderer = renderer
        self.strings = strings
    }

    /// Draws `scene`, the event as the engine emits it, when its drawing changes: a verdict whose
    /// line is the one drawn already (rule 24: an answer that says what the budget's end said) is
    /// not drawn again; every other change is one. A tap on the drawn button calls `onAction`.
    func show(_ scene: MonitorEngine.Scene, onAction: @escaping @MainActor () -> Void) {
        if case .verdict(let previous) = scene.change,
           SecurityAlert.verdictLine(previous, strings: strings) == SecurityAlert.verdictLine(scene.verdict, strings: strings) {
            return
        }
        let alert = SecurityAlert(
            flow: scene.flow, remaining: scene.remaining, button: scene.button, strings: strings, verdict: scene.verdict,
            context: scene.context, coachingWarning: scene.isCoachingWarning, coachingLevel: scene.coachingLevel
        )
        onFrame?(alert, scene.verdict)
        let button = scene.button
        renderer.render(alert) {
            // A tap on a button that was never drawn does nothing; the engine decides the rest.
            guard button != .hidden else { return }
            onAction()
        }
    }

    func dismiss() {
        renderer.dismiss()
    }

    /// Switches the texts; the engine has a dialog on screen drawn again in them (``MonitorEngine/Scene/Change/texts``).
    func setStrings(_ strings: CallMonitorStrings) {
        self.strings = strings
    }
}

// The surface driver: draws each scene the engine emits where it says (the app's delegate or the
// built-in dialog) and ends the event on the surface it was drawn on. Every scene is whole, so
// the driver keeps nothing of the event: only which delegate object it told (an app object).

/// Carries out the engine's UI actions on the delegate or the built-in dialog.
@MainActor
final class SurfaceDriver {
    private let dialog: BuiltInDialog
    /// Tells the core that the delegate turned out released while an action was carried out.
    private let reportRelease: @MainActor () -> Void
    private weak var delegate: (any CallMonitorDelegate)?
    /// Whether an object was set as the delegate and its release not yet reported: the weak
    /// reference turning `nil` while this is true is a release, which the engine hears of.
    private var holdsDelegate = false
    /// The delegate the event on screen was drawn on, which a hand-over may since have replaced
    /// (the engine says when the event is on a delegate; only this knows which object).
    private var drawnOn = WeakDelegate(nil)

    /// What the person saw of the event on screen (issue 30), for its outcome.
    private var record = ShownRecorder()
    /// The monitor's clock, for the instants of the record.
    private let now: @MainActor () -> Int64

    nonisolated init(dialog: BuiltInDialog, now: @escaping @MainActor () -> Int64, reportRelease: @escaping @MainActor () -> Void) {
        self.dialog = dialog
        self.now = now
        self.reportRelease = reportRelease
    }

    /// Starts recording what the built-in dialog draws (at the first presentation: the driver is
    /// made off the main actor, where the dialog cannot be touched).
    private func attachRecorder() {
        guard dialog.onFrame == nil else { return }
        dialog.onFrame = { [weak self] alert, verdict in
            guard let self else { return }
            self.record.drew(alert, verdict: verdict, at: self.now())
        }
    }

    /// The record of the event that just ended, with the language of its texts; the next event
    /// starts afresh.
    func takeShown() -> (language: String, shown: [CallMonitorOutcome.Shown]) {
        (dialog.language, record.take())
    }

    /// Takes the app's delegate (whether it is another one is the engine's to say, rule 13).
    /// `identity` is the one the engine read from the same box: a delegate that was there then
    /// and is gone now counts as held, so its release is reported.
    func setDelegate(_ box: WeakDelegate, identity: ObjectIdentifier?) {
        delegate = box.object
        holdsDelegate = identity != nil
    }

    /// Whether the delegate set was released since; `true` once per release.
    func takeRelease() -> Bool {
        guard holdsDelegate, delegate == nil else { return false }
        holdsDelegate = false
        return true
    }

    /// Whether `input` still has work to do. The reminder this driver sends when it finds the
    /// delegate released (`delegateReleased`) has done its work once the core asked
    /// ``takeRelease()`` before it, as it does before every input: a second release it is not.
    func accept(_ input: MonitorEngine.Input) -> Bool {
        if case .delegateReleased = input { false } else { true }
    }

    func setStrings(_ strings: CallMonitorStrings) {
        dialog.setStrings(strings)
    }

    /// Shows `scene` where it is shown; a tap on it calls `onUserAction`.
    func show(_ scene: MonitorEngine.Scene, onUserAction: @escaping @Sendable () -> Void) {
        if case .present = scene.change {
            attachRecorder()
            record.begin(scene.surface)
        }
        switch scene.surface {
        case .delegate: tell(scene, onUserAction: onUserAction)
        case .builtInDialog:
            if case .present = scene.change { drawnOn = WeakDelegate(nil) }
            dialog.show(scene, onAction: onUserAction)
        }
    }

    /// A delegate is told one change at a time, through its methods; what it was told is
    /// recorded as a frame of the whole scene (issue 30).
    private func tell(_ scene: MonitorEngine.Scene, onUserAction: @escaping @Sendable () -> Void) {
        // A delegate has no button to redraw (its own UI asks the monitor), nor the dialog's texts;
        // it reads the coaching level from the event (``CallMonitorSecurityEvent/coachingLevel``).
        switch scene.change {
        case .button, .texts, .coachingLevel: return
        case .present, .tick, .verdict, .context: break
        }
        record.told(CallMonitorOutcome.Frame(
            at: now(), remaining: scene.remaining, detail: scene.context?.detail, contextKind: scene.context?.kind, verdict: scene.verdict
        ))
        switch scene.change {
        case .present(let tellsVerdict):
            if let delegate {
                drawnOn = WeakDelegate(delegate)
                delegate.callMonitorDidDetectCall(flow: scene.flow, initialRemaining: scene.remaining, onUserAction: onUserAction)
                // Rule 24 (the engine's `tellsVerdict`), to a delegate that listens for verdicts.
                if tellsVerdict, let told = delegate as? any CallMonitorVerdictDelegate {
                    told.callMonitorDidReceiveVerdict(scene.verdict)
                }
                // Rule 29: a delegate that listens for contexts hears the event's, when it has one.
                if let context = scene.context, let told = delegate as? any CallMonitorContextDelegate {
                    told.callMonitorDidChangeContext(context)
                }
            } else {
                // Released by app code earlier in this step (a callback): the engine hears
                // of it as soon as this step's actions are done, and hands the event over.
                drawnOn = WeakDelegate(nil)
                reportRelease()
            }
        case .tick: drawnOn.object?.callMonitorCountdownTick(scene.remaining)
        case .verdict: (drawnOn.object as? any CallMonitorVerdictDelegate)?.callMonitorDidReceiveVerdict(scene.verdict)
        case .context: (drawnOn.object as? any CallMonitorContextDelegate)?.callMonitorDidChangeContext(scene.context)
        case .button, .texts, .coachingLevel: break
        }
    }

    func dismiss(on target: MonitorEngine.Surface) {
        let shownOn = drawnOn
        drawnOn = WeakDelegate(nil)
        switch target {
        case .delegate: shownOn.object?.callMonitorDidEndCall()
        case .builtInDialog: dialog.dismiss()
        }
    }
}

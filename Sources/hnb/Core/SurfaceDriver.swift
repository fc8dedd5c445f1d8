// The surface driver: draws the security event where the engine says (the app's delegate or the
// built-in dialog) and sends the countdown, the verdict and the end to the surface it was drawn on.

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

    func present(
        _ flow: CallMonitorFlow, remaining: Int32, button: MonitorEngine.Button, verdict: CallMonitorCallVerdict, tellsVerdict: Bool,
        context: CallMonitorContext? = nil, on target: MonitorEngine.Surface, onUserAction: @escaping @Sendable () -> Void
    ) {
        attachRecorder()
        record.begin(target)
        switch target {
        case .delegate:
            let at = now()
            record.told(at: at) {
                $0 = CallMonitorOutcome.Frame(at: at, remaining: remaining, detail: context?.detail, contextKind: context?.kind, verdict: verdict)
            }
            if let delegate {
                drawnOn = WeakDelegate(delegate)
                delegate.callMonitorDidDetectCall(flow: flow, initialRemaining: remaining, onUserAction: onUserAction)
                // Rule 24 (the engine's `tellsVerdict`), to a delegate that listens for verdicts.
                if tellsVerdict, let told = delegate as? any CallMonitorVerdictDelegate {
                    told.callMonitorDidReceiveVerdict(verdict)
                }
                // Rule 29: a delegate that listens for contexts hears the event's, when it has one.
                if let context, let told = delegate as? any CallMonitorContextDelegate {
                    told.callMonitorDidChangeContext(context)
                }
            } else {
                // Released by app code earlier in this step (a callback): the engine hears
                // of it as soon as this step's actions are done, and hands the event over.
                drawnOn = WeakDelegate(nil)
                reportRelease()
            }
        case .builtInDialog:
            drawnOn = WeakDelegate(nil)
            dialog.present(flow: flow, remaining: remaining, button: button, verdict: verdict, context: context, onAction: onUserAction)
        }
    }

    func tick(remaining: Int32, button: MonitorEngine.Button, on target: MonitorEngine.Surface) {
        switch target {
        case .delegate:
            record.told(at: now()) { $0.remaining = remaining }
            drawnOn.object?.callMonitorCountdownTick(remaining)
        case .builtInDialog: dialog.tick(remaining: remaining, button: button)
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

    /// A delegate has no button to redraw (its own UI asks the monitor); the dialog has.
    func setButton(_ button: MonitorEngine.Button, on target: MonitorEngine.Surface) {
        guard target == .builtInDialog else { return }
        dialog.setButton(button)
    }

    func show(_ context: CallMonitorContext?, on target: MonitorEngine.Surface) {
        switch target {
        case .delegate:
            record.told(at: now()) {
                $0.detail = context?.detail
                $0.contextKind = context?.kind
            }
            (drawnOn.object as? any CallMonitorContextDelegate)?.callMonitorDidChangeContext(context)
        case .builtInDialog: dialog.setContext(context)
        }
    }

    func show(_ verdict: CallMonitorCallVerdict, on target: MonitorEngine.Surface) {
        switch target {
        case .delegate:
            record.told(at: now()) { $0.verdict = verdict }
            (drawnOn.object as? any CallMonitorVerdictDelegate)?.callMonitorDidReceiveVerdict(verdict)
        case .builtInDialog: dialog.setVerdict(verdict)
        }
    }
}

// The source runner: starts and stops the app-state, screen-capture and call sources when the
// engine says so, and stamps what they deliver with the run that sent it, so a delivery from a
// run that is over is dropped.

/// Runs the three sources, and holds the monitor that owns the core while they run (so that
/// dropping it cannot stop the policy). The call source also starts and stops alone (rule 22), so
/// it has a run counter of its own.
@MainActor
final class SourceRunner {
    private let callSource: any CallSource
    private let appState: any AppStateSource
    private let screenCapture: any ScreenCaptureSource
    /// Hands a delivery to the core, from whatever thread the source calls on.
    private let deliver: @Sendable (MonitorEngine.Input) -> Void
    /// Bumped whenever the sources stop or restart, so a delivery from an earlier run is dropped.
    private var sourceGeneration: UInt64 = 0
    /// The same for the call source.
    private var callGeneration: UInt64 = 0
    /// The monitor that owns the core, from the engine's `startSources` to its `stopSources`.
    private(set) var owner: MonitorOwner?

    nonisolated init(
        callSource: any CallSource, appState: any AppStateSource, screenCapture: any ScreenCaptureSource,
        deliver: @escaping @Sendable (MonitorEngine.Input) -> Void
    ) {
        self.callSource = callSource
        self.appState = appState
        self.screenCapture = screenCapture
        self.deliver = deliver
    }

    /// The app and capture state now, read when the engine handles a command that starts
    /// monitoring.
    var sensors: MonitorEngine.Sensors {
        MonitorEngine.Sensors(isForeground: appState.isForeground, isCaptured: screenCapture.isCaptured)
    }

    /// Whether `input` comes from the run in progress (inputs that are no source's report always do).
    func isCurrent(_ input: MonitorEngine.Input) -> Bool {
        switch input {
        case .screenCapture(_, let run), .appState(_, let run): run == sourceGeneration
        case .calls(_, let run): run == callGeneration
        default: true
        }
    }

    /// Starts the app-state and capture sources, the call source too when `callDetection`, and
    /// holds `owner` until ``stopSources(callSource:)``.
    func startSources(callDetection: Bool, owner: MonitorOwner?) {
        self.owner = owner
        sourceGeneration &+= 1
        let generation = sourceGeneration
        let deliver = self.deliver
        appState.start { isForeground in
            deliver(.appState(isForeground: isForeground, run: generation))
        }
        screenCapture.start { isCaptured in
            deliver(.screenCapture(isCaptured: isCaptured, run: generation))
        }
        if callDetection { startCallSource() }
    }

    /// Stops the sources, the call source too when it runs (`callSource`, as the engine says), and
    /// lets the owner go.
    func stopSources(callSource: Bool) {
        owner = nil
        sourceGeneration &+= 1
        if callSource { stopCallSource() }
        appState.stop()
        screenCapture.stop()
    }

    func startCallSource() {
        callGeneration &+= 1
        let generation = callGeneration
        let deliver = self.deliver
        callSource.start { batch in
            deliver(.calls(batch, run: generation))
        }
    }

    /// Asks the call source to read its list again (issue 37); what it delivers carries the run
    /// in progress, like every delivery.
    func refreshCallSource() {
        callSource.refresh()
    }

    /// Stops the call source; a delivery it sent before is dropped.
    func stopCallSource() {
        callGeneration &+= 1
        callSource.stop()
    }
}

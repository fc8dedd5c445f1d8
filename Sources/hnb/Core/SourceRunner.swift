// The source runner: starts and stops the app-state, screen-capture and call sources when the
// engine says so, and stamps what they deliver with the run that sent it, so a delivery from a
// run that is over is dropped.

/// Runs the three sources. The call source also starts and stops alone (rule 22), so it has a
/// run counter of its own.
@MainActor
final class SourceRunner {
    private let callSource: any CallSource
    private let appState: any AppStateSource
    private let screenCapture: any ScreenCaptureSource
    /// Hands a delivery to the core, from whatever thread the source calls on.
    private let deliver: @Sendable (MonitorCore.Delivery) -> Void
    /// Bumped whenever the sources stop or restart, so a delivery from an earlier run is dropped.
    private var sourceGeneration: UInt64 = 0
    /// The same for the call source.
    private var callGeneration: UInt64 = 0

    nonisolated init(
        callSource: any CallSource, appState: any AppStateSource, screenCapture: any ScreenCaptureSource,
        deliver: @escaping @Sendable (MonitorCore.Delivery) -> Void
    ) {
        self.callSource = callSource
        self.appState = appState
        self.screenCapture = screenCapture
        self.deliver = deliver
    }

    /// The app state now, read as a start reads it.
    var isForeground: Bool { appState.isForeground }
    /// The capture state now, read before a start so that an event that begins at once is drawn
    /// under the right capture rule.
    var isCaptured: Bool { screenCapture.isCaptured }

    /// Whether `delivery` comes from the run in progress (deliveries of other kinds always do).
    func isCurrent(_ delivery: MonitorCore.Delivery) -> Bool {
        switch delivery {
        case .capture(let generation, _), .appState(let generation, _): generation == sourceGeneration
        case .calls(let generation, _): generation == callGeneration
        case .wake, .verdict, .verdictBudget, .delegateReleased: true
        }
    }

    func startSources(callDetection: Bool) {
        sourceGeneration &+= 1
        let generation = sourceGeneration
        let deliver = self.deliver
        appState.start { isForeground in
            deliver(.appState(generation: generation, isForeground: isForeground))
        }
        screenCapture.start { isCaptured in
            deliver(.capture(generation: generation, isCaptured: isCaptured))
        }
        if callDetection { startCallSource() }
    }

    /// Stops the sources, the call source too when it runs (`callSource`, as the engine says).
    func stopSources(callSource: Bool) {
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
            deliver(.calls(generation: generation, batch))
        }
    }

    /// Stops the call source; a delivery it sent before is dropped.
    func stopCallSource() {
        callGeneration &+= 1
        callSource.stop()
    }
}

// The screen-capture port: whether what the app shows is being recorded, mirrored or shared
// (a scammer's favourite request). Same shape as AppStateSource.

/// Tells whether the screen is being captured: recorded, mirrored, AirPlayed or shared.
///
/// A source may deliver from any thread; ``CallMonitor`` applies every delivery on the main
/// thread and ignores deliveries made after ``stop()``. The monitor reads ``isCaptured`` when
/// monitoring starts and runs the source only while monitoring.
@MainActor
public protocol ScreenCaptureSource: AnyObject, Sendable {
    /// Whether the screen is captured right now.
    var isCaptured: Bool { get }

    /// Begins observing; `deliver` receives each change and may be called from any thread.
    func start(_ deliver: @escaping @Sendable (_ isCaptured: Bool) -> Void)

    /// Stops observing.
    func stop()
}

/// The capture source of a platform where the library cannot tell: never captured. The default
/// of ``CallMonitor/init(callSource:appState:scheduler:alertRenderer:terminator:strings:screenCapture:wallClock:)``,
/// so monitors built without a capture source behave exactly as the reference describes.
public final class NoScreenCapture: ScreenCaptureSource {
    /// A source that never reports a capture.
    public nonisolated init() {}
    /// Always `false`.
    public var isCaptured: Bool { false }
    /// Does nothing: there is nothing to report.
    public func start(_ deliver: @escaping @Sendable (Bool) -> Void) {}
    /// Does nothing.
    public func stop() {}
}

/// A capture source you switch by hand: for tests, previews, the iOS Simulator and
/// `callmonitor simulate` (`capture on`, `capture off`).
public final class SimulatedScreenCapture: ScreenCaptureSource {
    private var deliver: (@Sendable (Bool) -> Void)?

    /// Whether the simulated screen is captured.
    public private(set) var isCaptured: Bool

    /// A source that starts uncaptured unless told otherwise.
    public nonisolated init(isCaptured: Bool = false) {
        self.isCaptured = isCaptured
    }

    /// Keeps `deliver` for ``setCaptured(_:)``.
    public func start(_ deliver: @escaping @Sendable (Bool) -> Void) {
        self.deliver = deliver
    }

    /// Forgets the listener; later changes are not reported.
    public func stop() {
        deliver = nil
    }

    /// Starts (`true`) or stops (`false`) the capture and reports it.
    public func setCaptured(_ captured: Bool) {
        isCaptured = captured
        deliver?(captured)
    }
}

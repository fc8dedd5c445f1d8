// The screen-capture port: whether what the app shows is being recorded, mirrored or shared
// (a scammer's favourite request). Same shape as AppStateSource.

/// Tells whether the screen is being captured: recorded, mirrored, AirPlayed or shared.
///
/// A source may deliver from any thread; ``CallMonitor`` applies every delivery on the main
/// thread and ignores deliveries made after ``stop()``. The monitor reads ``isCaptured`` when
/// monitoring starts and runs the source only while monitoring.
@MainActor
package protocol ScreenCaptureSource: AnyObject, Sendable {
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
package final class NoScreenCapture: ScreenCaptureSource {
    /// A source that never reports a capture.
    package nonisolated init() {}
    /// Always `false`.
    package var isCaptured: Bool { false }
    /// Does nothing: there is nothing to report.
    package func start(_ deliver: @escaping @Sendable (Bool) -> Void) {}
    /// Does nothing.
    package func stop() {}
}

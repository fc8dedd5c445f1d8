// A screen-capture source switched by hand.

import Foundation
import hnb

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
    package func start(_ deliver: @escaping @Sendable (Bool) -> Void) {
        self.deliver = deliver
    }

    /// Forgets the listener; later changes are not reported.
    package func stop() {
        deliver = nil
    }

    /// Starts (`true`) or stops (`false`) the capture and reports it.
    public func setCaptured(_ captured: Bool) {
        isCaptured = captured
        deliver?(captured)
    }
}

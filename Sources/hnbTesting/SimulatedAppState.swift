// An app-state source switched by hand, for the same tests, previews and simulators as the
// scripted call source.

import hnb

/// An app-state source you switch by hand.
public final class SimulatedAppState: AppStateSource {
    private var deliver: (@Sendable (Bool) -> Void)?

    /// Whether the simulated app is in the foreground.
    public private(set) var isForeground: Bool

    /// A source that starts in the foreground unless told otherwise.
    public nonisolated init(isForeground: Bool = true) {
        self.isForeground = isForeground
    }

    /// Delivers each later change of ``isForeground``.
    package func start(_ deliver: @escaping @Sendable (Bool) -> Void) {
        self.deliver = deliver
    }

    /// Stops delivering changes.
    package func stop() {
        deliver = nil
    }

    /// Moves the app to the foreground (`true`) or background (`false`) and reports it.
    public func setForeground(_ foreground: Bool) {
        isForeground = foreground
        deliver?(foreground)
    }
}

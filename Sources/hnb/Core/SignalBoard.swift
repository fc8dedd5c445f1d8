// Where a fraud check reads the monitor at any moment, from any thread: the main-actor core
// publishes the engine's RiskSnapshot (Engine/RiskSnapshot.swift) after every step; readers take
// it under a lock and never wait for the main thread.

/// The latest ``RiskSnapshot``, shared between the main thread (which writes it) and any reader.
///
/// Sendable: the snapshot is a ``Locked`` value and `clock` is immutable.
final class SignalBoard: Sendable {
    private let snapshot = Locked(RiskSnapshot())
    /// Reads the scheduler's clock from any thread, when the scheduler allows it.
    private let clock: (@Sendable () -> Int64)?

    init(clock: (@Sendable () -> Int64)?) { self.clock = clock }

    /// Whether readers measure time on the scheduler's own clock (else on `publishedAt`).
    var hasClock: Bool { clock != nil }

    var current: RiskSnapshot { snapshot.value }

    func publish(_ next: RiskSnapshot) { snapshot.set(next) }

    /// Whether a call was live at some instant of the last `window` nanoseconds (the rule is the
    /// snapshot's; this only supplies "now", from the scheduler's clock when readers may use it).
    func wasCallLive(withinNanoseconds window: Int64) -> Bool {
        let taken = current
        return taken.wasCallLive(withinNanoseconds: window, now: clock?() ?? taken.publishedAt)
    }
}

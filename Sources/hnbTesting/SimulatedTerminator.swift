// The exit recorded instead of made, so a test or a simulation goes on after the monitor ends
// the app.

import hnb

/// A terminator that records the exit instead of ending the process: for tests, previews and
/// simulators.
public final class SimulatedTerminator: AppTerminator {
    private let watchdogExits = Locked<[Int32]>([])

    /// The exit codes asked for on the main thread, in order (the monitor asks at most once).
    public private(set) var exitCodes: [Int32] = []

    /// The exit codes the before-exit watchdog asked for from its own thread (a hook that did not
    /// return in time). Readable from any thread.
    public nonisolated var watchdogExitCodes: [Int32] { watchdogExits.value }

    /// Told of each exit asked for on the main thread, as it is asked for.
    public var onTerminate: (@MainActor (Int32) -> Void)?

    /// A terminator that has recorded nothing.
    public nonisolated init() {}

    /// Records `code` in ``exitCodes`` and tells ``onTerminate``; the process goes on.
    package func terminate(code: Int32) {
        exitCodes.append(code)
        onTerminate?(code)
    }

    /// Records `code` in ``watchdogExitCodes``, from any thread; the process goes on.
    package nonisolated func terminateFromAnyThread(code: Int32) {
        watchdogExits.withLock { $0.append(code) }
    }
}

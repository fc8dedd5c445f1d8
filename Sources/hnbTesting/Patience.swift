// How long a test waits for something that must happen. A figure a loaded machine can miss makes
// a suite go red for no fault of the code (issue 37, item 13: a 10-second wait for a real daemon
// was missed while two cores built Swift), so every such wait in the package's tests is this one
// generous bound, which only a hang reaches: the waits return as soon as what they wait for
// happens, and a passing run never sleeps through it. Figures about speed belong to
// `callmonitor bench`.

import Foundation

/// The one bound on a test's wait for something that must happen.
package enum Patience {
    /// Seconds a test waits for an event that must come before it calls it missing: two minutes,
    /// far beyond any scheduling delay, short enough that a real hang fails the run.
    package static let seconds: Double = 120

    /// Polls `condition` every `interval` seconds (at least 1 ms) until it holds or `bound`
    /// seconds pass. It runs in the caller's isolation (`nonisolated(nonsending)`, not an
    /// `isolated` parameter defaulting to `#isolation`: older SDKs' standard libraries have no such
    /// macro), so the condition may read the caller's state; an error it throws ends the wait at
    /// once.
    ///
    /// - Parameter bound: ``seconds`` unless a test of the wait itself needs a short one.
    /// - Returns: Whether `condition` held; `false` only after the whole bound.
    @discardableResult
    nonisolated(nonsending) package static func wait(
        within bound: Double = seconds,
        every interval: Double = 0.01,
        until condition: () async throws -> Bool
    ) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(bound)
        while true {
            if try await condition() { return true }
            if Date() >= deadline { return false }
            try? await Task.sleep(nanoseconds: UInt64(max(interval, 0.001) * 1e9))
        }
    }
}

// What a command that starts monitoring reads of the app-state and capture sources, and when: the
// engine asks for the reading itself (the core only hands it the means), so no part of the core
// decides which commands read the sources.

import Foundation

extension MonitorEngine {
    /// Reads the sources for a command that starts monitoring; returns the app state read, or
    /// `nil` when the capture step ended in the exit (then the command does nothing). The capture
    /// state is a step of its own (rules 17 and 25), run as if the source had just reported it
    /// and ending as every step does (``endStep(now:into:)``), before the command's step: an
    /// event that begins at once is then drawn under the right capture rule, and the app state is
    /// the one read here. It calls the capture step itself rather than handling an input, so no
    /// step runs inside another.
    mutating func sense(_ sensors: () -> Sensors, now: Int64, into actions: inout [Action]) -> Bool? {
        let sensed = sensors()
        screenCaptureChanged(isCaptured: sensed.isCaptured, now: now, into: &actions)
        endStep(now: now, into: &actions)
        return hasExited ? nil : sensed.isForeground
    }

    /// ``handle(_:now:wallClock:sensors:)`` with no sources to read (the engine's own tests): a
    /// command that starts monitoring finds the app and capture state the engine last heard of.
    mutating func handle(_ input: Input, now: Int64, wallClock: Date) -> [Action] {
        let known = Sensors(isForeground: isForeground, isCaptured: isCaptured)
        return handle(input, now: now, wallClock: wallClock) { known }
    }
}

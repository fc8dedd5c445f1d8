// What a command that starts monitoring reads of the app-state and capture sources, and when: the
// engine asks for the reading itself (the core only hands it the means), so no part of the core
// decides which commands read the sources.

import Foundation

extension MonitorEngine {
    /// Reads the sources for a command that starts monitoring. The capture state is a step of its
    /// own (rules 17 and 25), handled as if the source had just reported it and ending as every
    /// step does (rule 23's verdict), before the command's step: an event that begins at once is
    /// then drawn under the right capture rule, and the app state is the one read here.
    mutating func sense(_ sensors: () -> Sensors, now: Int64, wallClock: Date, into actions: inout [Action]) -> Sensors {
        let sensed = sensors()
        actions += handle(.screenCapture(isCaptured: sensed.isCaptured), now: now, wallClock: wallClock, sensors: sensors)
        return sensed
    }

    /// ``handle(_:now:wallClock:sensors:)`` with no sources to read (the engine's own tests): a
    /// command that starts monitoring finds the app and capture state the engine last heard of.
    mutating func handle(_ input: Input, now: Int64, wallClock: Date) -> [Action] {
        let known = Sensors(isForeground: isForeground, isCaptured: isCaptured)
        return handle(input, now: now, wallClock: wallClock) { known }
    }
}

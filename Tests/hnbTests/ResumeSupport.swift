// Issue 37 (rules 5 and 8): an exit never acts on a view of the calls older than the last resume.
// The race: CallKit tells a suspended app nothing; at the resume the countdown's overdue wake-up may
// run before the queued call deliveries and before the foreground's re-read. Both orders, both
// flows, in the engine (exact actions and instants) and through the facade (exact outputs).

import Foundation
import Testing
@testable import hnb
@testable import hnbTesting

let s = MonitorEngine.second

/// The outcome of the event that began at 1 with 10 seconds, ending `ending` at `endedAt`.
func outcome(_ ending: CallMonitorOutcomeEnding, endedAt: Int64, lowest: Int32, flow: CallMonitorFlow = .terminate) -> MonitorEngine.Action {
    .outcome(.engine(
        ending: ending, flow: flow, total: 10, startedAt: 1 * s, endedAt: endedAt, lowestRemaining: lowest, wasScreenCaptured: false,
        presentations: [.init(surface: .builtInDialog, at: 1 * s, remaining: 10)]
    ))
}

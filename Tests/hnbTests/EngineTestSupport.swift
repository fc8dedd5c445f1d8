// What engine tests share: a step with a wall clock that follows the monotonic one, and the
// outcome such a step returns, so that every engine test stays deterministic.

import Foundation
@testable import hnb

extension MonitorEngine {
    /// One step at `now`, with the wall clock at ``TestWallClock/date(_:)`` of the same instant.
    mutating func handle(_ input: Input, now: Int64) -> [Action] {
        handle(input, now: now, wallClock: TestWallClock.date(Double(now) / 1e9))
    }

    /// The same, reading the app and capture state from `sensors`.
    mutating func handle(_ input: Input, now: Int64, sensors: () -> Sensors) -> [Action] {
        handle(input, now: now, wallClock: TestWallClock.date(Double(now) / 1e9), sensors: sensors)
    }
}

extension CallMonitorOutcome {
    /// The outcome an engine test's step returns: the wall-clock dates are those of
    /// ``MonitorEngine/handle(_:now:)`` at the monotonic instants.
    static func engine(
        ending: Ending, flow: CallMonitorFlow, total: Int32, startedAt: Int64, endedAt: Int64, lowestRemaining: Int32,
        wasScreenCaptured: Bool, presentations: [Presentation], verdict: CallMonitorCallVerdict = .unknown, verdictAt: Int64? = nil
    ) -> CallMonitorOutcome {
        CallMonitorOutcome(
            ending: ending, flow: flow, seconds: total, startedAt: startedAt, endedAt: endedAt,
            startedDate: TestWallClock.date(Double(startedAt) / 1e9), endedDate: TestWallClock.date(Double(endedAt) / 1e9),
            lowestRemaining: lowestRemaining, presentations: presentations, wasScreenCaptured: wasScreenCaptured,
            verdict: verdict, verdictArrivedAt: verdictAt
        )
    }
}

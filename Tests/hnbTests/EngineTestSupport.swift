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
        wasScreenCaptured: Bool, presentations: [Presentation], verdict: CallMonitorCallVerdict = .unknown, verdictAt: Int64? = nil,
        id: UInt64 = 1
    ) -> CallMonitorOutcome {
        var outcome = CallMonitorOutcome(
            ending: ending, flow: flow, seconds: total, startedAt: startedAt, endedAt: endedAt,
            startedDate: TestWallClock.date(Double(startedAt) / 1e9), endedDate: TestWallClock.date(Double(endedAt) / 1e9),
            lowestRemaining: lowestRemaining, presentations: presentations, wasScreenCaptured: wasScreenCaptured,
            verdict: verdict, verdictArrivedAt: verdictAt
        )
        // Issue 40: the event's number, the token of its first presentation (1 for a test's first event).
        outcome.id = id
        return outcome
    }
}

extension MonitorEngine.Action {
    /// The scene of a presentation (its first, or a hand-over), every field of it given: the
    /// engine's present action as the tests spelled it before the scene replaced it (issue 39).
    static func present(
        _ flow: CallMonitorFlow, remaining: Int32, token: UInt64, button: MonitorEngine.Button, verdict: CallMonitorCallVerdict,
        tellsVerdict: Bool, context: CallMonitorContext? = nil, on surface: MonitorEngine.Surface
    ) -> Self {
        .scene(MonitorEngine.Scene(
            .present(tellsVerdict: tellsVerdict), flow: flow, remaining: remaining, token: token, button: button, verdict: verdict,
            context: context, on: surface
        ))
    }

    /// The scene after a tick, every field of it given (`verdict` and `context` as the event has them).
    static func tick(
        _ flow: CallMonitorFlow, remaining: Int32, token: UInt64, button: MonitorEngine.Button, verdict: CallMonitorCallVerdict = .unknown,
        context: CallMonitorContext? = nil, on surface: MonitorEngine.Surface
    ) -> Self {
        .scene(MonitorEngine.Scene(
            .tick, flow: flow, remaining: remaining, token: token, button: button, verdict: verdict, context: context, on: surface
        ))
    }

    /// The scene after a change of button (rule 17), every field of it given.
    static func button(
        _ flow: CallMonitorFlow, remaining: Int32, token: UInt64, button: MonitorEngine.Button, verdict: CallMonitorCallVerdict = .unknown,
        context: CallMonitorContext? = nil, on surface: MonitorEngine.Surface
    ) -> Self {
        .scene(MonitorEngine.Scene(
            .button, flow: flow, remaining: remaining, token: token, button: button, verdict: verdict, context: context, on: surface
        ))
    }

    /// The scene after a verdict was recorded (rule 24) over `previous`, every field of it given.
    static func verdict(
        _ verdict: CallMonitorCallVerdict, previous: CallMonitorCallVerdict, flow: CallMonitorFlow, remaining: Int32, token: UInt64,
        button: MonitorEngine.Button, context: CallMonitorContext? = nil, on surface: MonitorEngine.Surface
    ) -> Self {
        .scene(MonitorEngine.Scene(
            .verdict(previous: previous), flow: flow, remaining: remaining, token: token, button: button, verdict: verdict,
            context: context, on: surface
        ))
    }

    /// The scene after a change of context (rule 29), every field of it given.
    static func context(
        _ context: CallMonitorContext?, flow: CallMonitorFlow, remaining: Int32, token: UInt64, button: MonitorEngine.Button,
        verdict: CallMonitorCallVerdict = .unknown, on surface: MonitorEngine.Surface
    ) -> Self {
        .scene(MonitorEngine.Scene(
            .context, flow: flow, remaining: remaining, token: token, button: button, verdict: verdict, context: context, on: surface
        ))
    }

    /// Whether this is a scene that presents the event (a first presentation or a hand-over).
    var isPresentation: Bool {
        if case .scene(let scene) = self, case .present = scene.change { true } else { false }
    }
}

// The engine on its own, at the edges of its inputs: ended calls never seen, one batch as one
// change, early wake-ups, saturating deadlines, nothing after the exit, the reference's clamping.

import Testing
@testable import hnb

@Suite("Engine edges", .nothingLeftScheduled)
struct EngineEdgeTests {
    @Test("An ended snapshot of a call never seen changes nothing")
    func endedUnknownCall() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 5)), now: 0)
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("Z"), hasEnded: true)])), now: 0) == [])
        #expect(engine.callState == .idle)
    }

    @Test("A batch is one change: a connected call and a ringing one at start give started only")
    func batchIsOneChange() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .acknowledge, requestedSeconds: 0)), now: 7)
        let actions = engine.handle(.calls(.changes([
            CallSnapshot(id: CallID("A")),
            CallSnapshot(id: CallID("B"), hasConnected: true),
        ])), now: 7)
        #expect(actions == [.emit(.started), .present(.acknowledge, remaining: 0, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog), .schedule(at: 1_000_000_007)])
    }

    @Test("A held snapshot counts as connected even if the source left hasConnected false")
    func heldCountsAsConnected() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .acknowledge, requestedSeconds: 0)), now: 0) { .init(isForeground: false, isCaptured: false) }
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), isOnHold: true)])), now: 0) == [.emit(.started)])
    }

    @Test("An early wake-up reschedules for the same deadline and reports nothing")
    func earlyWakeUp() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 3)), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0)
        #expect(engine.handle(.wake(), now: 999_999_999) == [.schedule(at: 1_000_000_000)])
    }

    @Test("Deadlines saturate instead of overflowing")
    func deadlineSaturates() {
        #expect(MonitorEngine.deadline(0, plusSeconds: Int64(Int32.max)) == Int64(Int32.max) * 1_000_000_000)
        #expect(MonitorEngine.deadline(.max - 5, plusSeconds: 1) == .max)
        #expect(MonitorEngine.deadline(0, plusSeconds: .max) == .max)
    }

    @Test("After the exit every input is ignored")
    func nothingAfterExit() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 1)), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0)
        // Rule 16: the force exit's outcome comes right before the exit.
        #expect(engine.handle(.userAction(token: 1), now: 0) == [
            .cancelWakeUp, .stopSources(callSource: true),
            .outcome(.engine(ending: .forceExit, flow: .terminate, total: 1, startedAt: 0, endedAt: 0, lowestRemaining: 1, wasScreenCaptured: false,
                           presentations: [.init(surface: .builtInDialog, at: 0, remaining: 1)])),
            .exit(code: 0),
        ])
        #expect(engine.hasExited)
        let inputs: [MonitorEngine.Input] = [
            .start(MonitorPolicy(flow: .acknowledge, requestedSeconds: 0)), .stop, .wake(),
            .userAction(token: 1), .delegateReleased, .appState(isForeground: true), .calls(.changes([CallSnapshot(id: CallID("B"))])),
            .screenCapture(isCaptured: true), .refusesAcknowledgementWhileScreenCaptured(true),
            .screenCaptureEscalation(MonitorPolicy(flow: .terminate, requestedSeconds: 1)), .screenCaptureEscalation(nil),
        ]
        for input in inputs { #expect(engine.handle(input, now: 5) == []) }
        // A setting's object is still handed to its part (nothing reads it any more); the rule
        // it would feed is not run.
        #expect(engine.handle(.setDelegate(WeakDelegate(nil)), now: 5) == [.install(.delegate(WeakDelegate(nil), identity: nil))])
    }

    @Test("Clamping follows the reference", arguments: [
        (CallMonitorFlow.terminate, Int32.min, Int32(1)), (.terminate, 0, 1), (.terminate, 1, 1), (.terminate, .max, .max),
        (.acknowledge, .min, 0), (.acknowledge, -1, 0), (.acknowledge, 0, 0), (.acknowledge, 30, 30), (.acknowledge, .max, .max),
    ])
    func clamping(flow: CallMonitorFlow, requested: Int32, expected: Int32) {
        #expect(MonitorPolicy(flow: flow, requestedSeconds: requested).seconds == expected)
    }
}

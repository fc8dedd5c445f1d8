// The engine's fold (Engine/MonitorEngine+Fold.swift): which waiting commands a storm may be folded
// into, and that the fold never leaves the monitor less strict than the commands it stands for.

import Dispatch
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Fold: a storm of commands folded (rules 11, 12, 18, 19, 21)", .nothingLeftScheduled)
struct FoldTests {
    let owner = CallMonitor(callSource: SimulatedCallSource(), appState: SimulatedAppState(), scheduler: ManualScheduler(),
                            alertRenderer: SimulatedAlertRenderer(), terminator: SimulatedTerminator()).owner

    func start(_ seconds: Int32, _ flow: CallMonitorFlow = .terminate) -> MonitorEngine.Input {
        .start(MonitorPolicy(flow: flow, requestedSeconds: seconds), owner: owner)
    }

    @Test("Folding keeps taps in place (each token once), each setting in the stretch it was made in, and a segment's first and strictest terminate start")
    func folding() {
        let calls: [MonitorEngine.Input] = [
            .callDetection(false), start(5), .callDetection(true), .setDelegate(WeakDelegate(nil)),
            .stop, start(5), .callDetection(false),
            .userAction(token: 1),
            .stop, .userAction(token: 1), start(3, .acknowledge), .setCallback(nil),
            .userAction(token: 2),
        ]
        #expect(MonitorEngine.fold(calls).map(\.label) == [
            // The first terminate start, with the settings made before it and after it; the stop
            // between the two starts is left out, and the last start is the second.
            "detection false", "start terminate 5", "detection true", "delegate nil", "start terminate 5", "detection false",
            "tap 1",
            "start acknowledge 3", "callback nil",
            "tap 2",
        ])
    }

    @Test("Rules 18 and 19: protections and exemptions are never folded away or moved past another call")
    func protectionsKeepTheirPlace() {
        let policy = MonitorPolicy(flow: .terminate, requestedSeconds: 3)
        let calls: [MonitorEngine.Input] = [
            .callDetection(false), start(5), .beginProtection(id: 2, policy, owner: owner), .callDetection(true),
            .stop, .endProtection(id: 2), start(4), .exempt(CallID("B")), .stop, .removeExemption(CallID("B")), .setCallback(nil),
            .observe(owner: owner), .beginProtection(id: 3, policy, owner: owner),
        ]
        #expect(MonitorEngine.fold(calls).map(\.label) == [
            "detection false", "start terminate 5", "protect 2 terminate 3", "detection true", "stop", "unprotect 2",
            "start terminate 4", "exempt B", "stop", "unexempt B", "callback nil", "start observe", "protect 3 terminate 3",
        ])
    }

    @Test("Rule 25: a fold keeps the escalation, a setting, on the side of the start it was made on")
    func escalationIsASetting() {
        let terminate = MonitorPolicy(flow: .terminate, requestedSeconds: 3)
        let acknowledge = MonitorPolicy(flow: .acknowledge, requestedSeconds: 9)
        let calls: [MonitorEngine.Input] = [
            .screenCaptureEscalation(terminate, owner: owner), .screenCaptureEscalation(acknowledge, owner: owner), start(5),
            .screenCaptureEscalation(nil, owner: owner),
            .beginProtection(id: 2, terminate, owner: owner), .screenCaptureEscalation(terminate, owner: owner), .stop,
        ]
        #expect(MonitorEngine.fold(calls).map(\.label) == [
            "capture escalate acknowledge 9", "start terminate 5", "capture escalate off",
            "protect 2 terminate 3", "capture escalate terminate 3", "stop",
        ])
    }

    @Test("Rule 21: of many starts and stops a segment keeps its first terminate start, its strictest (the first of equals) and its last start or stop, with each stretch's settings")
    func rule21_keepsFirstAndStrictestTerminateStart() {
        let calls: [MonitorEngine.Input] = [
            start(3, .acknowledge), .callDetection(false), start(9), .stop, .setCallback(nil), start(4), .callDetection(true), start(6),
            start(2), .stop, .observe(owner: owner), start(2), .setDelegate(WeakDelegate(nil)), .stop, start(7, .acknowledge),
        ]
        #expect(MonitorEngine.fold(calls).map(\.label) == [
            "detection false", "start terminate 9", "detection true", "callback nil", "start terminate 2", "delegate nil",
            "start acknowledge 7",
        ])
        // However long the storm, a segment stays three commands and the settings' slots.
        var storm: [MonitorEngine.Input] = []
        for seconds in stride(from: Int32(400), to: 0, by: -1) { storm += [start(seconds), .stop, .setCallback(nil), .observe(owner: owner)] }
        #expect(MonitorEngine.fold(storm).map(\.label) == [
            "start terminate 400", "callback nil", "start terminate 1", "callback nil", "start observe",
        ])
    }

    /// The engine in a followed session (rule 10) whose terminate deadline (rule 21) has passed:
    /// a terminate start now ends the app at once.
    private func followedPastDeadline() -> MonitorEngine {
        var engine = MonitorEngine()
        _ = engine.handle(start(5), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasConnected: true)])), now: 0)
        _ = engine.handle(.stop, now: MonitorEngine.second)
        #expect(engine.isFollowing)
        return engine
    }

    @Test("Rule 21: a start and stop folded away would have ended the app; the fold keeps the start, so the folded storm exits as the commands do")
    func rule21_foldKeepsTheExit() {
        var storm: [MonitorEngine.Input] = [start(5), .stop]
        for _ in 0..<150 { storm += [.setCallback(nil), .setDelegate(WeakDelegate(nil))] }
        for inputs in [storm, MonitorEngine.fold(storm)] {
            var engine = followedPastDeadline()
            var actions: [MonitorEngine.Action] = []
            for input in inputs { actions += engine.handle(input, now: 10 * MonitorEngine.second) }
            #expect(actions.contains(.exit(code: 0)))
            #expect(engine.hasExited)
        }
    }

    @Test("Rule 21 through the mailbox: more than 256 calls from another thread with a start and stop among them still end the app whose followed session is past its deadline")
    func rule21_stormThroughTheMailboxExits() async throws {
        let h = Harness()
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(1)
        // Rule 10: stopped with the call live, the session is followed; its deadline (5 s) stays.
        h.monitor.stopMonitoring()
        h.advance(9)
        #expect(h.terminator.exitCodes == [])
        let monitor = h.monitor
        // All of it waits in the mailbox together (the main queue is busy with this test), so it
        // is folded: a start, its stop, and settings enough to pass the limit.
        DispatchQueue.global().sync {
            monitor.startMonitoring(withTerminateIn: 5)
            monitor.stopMonitoring()
            for _ in 0..<150 {
                monitor.setCallback(nil)
                monitor.setDelegate(nil)
            }
        }
        await drainMainQueue()
        #expect(h.terminator.exitCodes == [0])
    }
}

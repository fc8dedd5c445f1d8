// The engine's fold (Engine/MonitorEngine+Fold.swift): which waiting commands a storm may be folded
// into.

import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Fold: a storm of commands folded (rules 11, 12, 18, 19)", .nothingLeftScheduled)
struct FoldTests {
    let owner = CallMonitor(callSource: SimulatedCallSource(), appState: SimulatedAppState(), scheduler: ManualScheduler(),
                            alertRenderer: SimulatedAlertRenderer(), terminator: SimulatedTerminator()).owner

    func start(_ seconds: Int32, _ flow: CallMonitorFlow = .terminate) -> MonitorEngine.Input {
        .start(MonitorPolicy(flow: flow, requestedSeconds: seconds), owner: owner)
    }

    @Test("Folding keeps taps in place (each token once) and each setting on the side of the start it was made on")
    func folding() {
        let calls: [MonitorEngine.Input] = [
            .callDetection(false), start(5), .callDetection(true), .setDelegate(WeakDelegate(nil)),
            .stop, start(5), .callDetection(false),
            .userAction(token: 1),
            .stop, .userAction(token: 1), start(3, .acknowledge), .setCallback(nil),
            .userAction(token: 2),
        ]
        #expect(MonitorEngine.fold(calls).map(\.label) == [
            "detection true", "delegate nil", "start terminate 5", "detection false",
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
}

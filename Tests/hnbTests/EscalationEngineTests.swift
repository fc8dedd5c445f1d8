// Split out of EscalationTests.swift so that each file holds one suite, named as the file (issue 39).

import Testing
@testable import hnb
import hnbTesting

@Suite("Rule 25 in the engine", .nothingLeftScheduled)
struct EscalationEngineTests {
    @Test("Rule 25 with rule 17: the capture that escalates returns exactly the policy change, and no refusal action for the event it replaced; the capture that only refuses returns only the refusal")
    func captureStepActions() {
        var engine = MonitorEngine()
        let second = MonitorEngine.second
        _ = engine.handle(.refusesAcknowledgementWhileScreenCaptured(true), now: 0)
        _ = engine.handle(.start(MonitorPolicy(flow: .acknowledge, requestedSeconds: 0)), now: 0)
        _ = engine.handle(.screenCaptureEscalation(MonitorPolicy(flow: .acknowledge, requestedSeconds: 1)), now: 0)
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0) == [
            .emit(.ringing), .present(.acknowledge, remaining: 0, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog), .schedule(at: second),
        ])
        #expect(engine.handle(.screenCapture(isCaptured: true), now: second / 2) == [
            .dismiss(on: .builtInDialog), .cancelWakeUp,
            .outcome(.engine(ending: .policyChanged, flow: .acknowledge, total: 0, startedAt: 0, endedAt: second / 2, lowestRemaining: 0,
                           wasScreenCaptured: true, presentations: [.init(surface: .builtInDialog, at: 0, remaining: 0)])),
            .present(.acknowledge, remaining: 1, token: 2, button: .hidden, verdict: .unknown, tellsVerdict: false, on: .builtInDialog), .schedule(at: second / 2 + second),
        ])
        // Without an escalation the same capture only refuses the acknowledgement on screen.
        var plain = MonitorEngine()
        _ = plain.handle(.refusesAcknowledgementWhileScreenCaptured(true), now: 0)
        _ = plain.handle(.start(MonitorPolicy(flow: .acknowledge, requestedSeconds: 0)), now: 0)
        _ = plain.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0)
        #expect(plain.handle(.screenCapture(isCaptured: true), now: second / 2) == [.button(.acknowledge, remaining: 0, token: 1, button: .refused, on: .builtInDialog)])
        #expect(plain.handle(.screenCapture(isCaptured: false), now: second) == [.button(.acknowledge, remaining: 0, token: 1, button: .available, on: .builtInDialog)])
    }
}

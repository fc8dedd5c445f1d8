// Split out of RiskTests.swift so that each file holds one suite, named as the file (issue 39).

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting

#if canImport(Observation)
import Observation

#endif
@MainActor
@Suite("Screen capture", .nothingLeftScheduled)
struct ScreenCaptureTests {
    @Test("Rule 17 is off by default: a captured screen changes nothing but the records")
    func offByDefault() throws {
        let h = Harness(captured: true, logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        #expect(h.monitor.isScreenCaptured == true)
        try h.calls.incoming("A")
        #expect(h.monitor.currentSecurityEvent?.isActionAvailable == true)
        #expect(h.renderer.tapButton())
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 0 button=Acknowledge", "0 dismiss", "0 outcome acknowledged"])
        #expect(h.outcomes.map(\.wasScreenCaptured) == [true])
    }

    @Test("Rule 17: refused while captured (the button says why), accepted once the capture stops")
    func refusedWhileCaptured() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.setRefusesAcknowledgementWhileScreenCaptured(true)
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        try h.calls.incoming("A")
        h.at(0.5)
        h.capture.setCaptured(true)
        #expect(h.monitor.isScreenCaptured == true)
        h.at(1)
        #expect(h.monitor.currentSecurityEvent == CallMonitorSecurityEvent(
            flow: .acknowledge, remaining: 0, seconds: 1, startedAt: 0,
            isActionAvailable: false, isAcknowledgementRefused: true, wasScreenCaptured: true
        ))
        #expect(h.renderer.tapButton())  // the button is there, with the reason
        h.at(2)
        h.capture.setCaptured(false)
        #expect(h.monitor.currentSecurityEvent?.isActionAvailable == true)
        h.at(3)
        #expect(h.renderer.tapButton())
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 1 button=-",
            "1 alert acknowledge 0 button=Stop screen sharing to acknowledge",
            "2 alert acknowledge 0 button=Acknowledge",
            "3 dismiss", "3 outcome acknowledged",
        ])
        #expect(h.outcomes.map(\.wasScreenCaptured) == [true])
    }

    @Test("Rule 17 after a hand-over (rule 13): the built-in dialog that took the event over from a released delegate is redrawn when a capture refuses its button, and again when it stops")
    func refusedAfterHandOver() throws {
        let h = Harness()
        h.monitor.setRefusesAcknowledgementWhileScreenCaptured(true)
        var d: RecordingDelegate? = RecordingDelegate(log: h.log)
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        try h.calls.incoming("A")
        h.advance(1.5)
        d = nil
        h.advance(1)
        // The event stays, now on its second presentation: a capture changes only its button.
        h.capture.setCaptured(true)
        h.advance(0.5)
        h.capture.setCaptured(false)
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect acknowledge 1", "1 delegate tick 0",
            "2 alert acknowledge 0 button=Acknowledge",
            "2.5 alert acknowledge 0 button=Stop screen sharing to acknowledge",
            "3 alert acknowledge 0 button=Acknowledge",
        ])
    }

    @Test("Rule 17: a capture already running at start refuses from the first frame")
    func capturedAtStart() throws {
        let h = Harness(captured: true, logsOutcomes: true)
        h.monitor.setRefusesAcknowledgementWhileScreenCaptured(true)
        try h.calls.incoming("A")
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 0 button=Stop screen sharing to acknowledge"])
        // Switching the rule off while the warning is up gives the button back at once.
        h.monitor.setRefusesAcknowledgementWhileScreenCaptured(false)
        #expect(h.take() == ["0 alert acknowledge 0 button=Acknowledge"])
    }

    @Test("Rule 17: the terminate flow is unchanged; Close App still exits while captured")
    func terminateUnchanged() throws {
        let h = Harness(captured: true, logsOutcomes: true)
        h.monitor.setRefusesAcknowledgementWhileScreenCaptured(true)
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        #expect(h.monitor.currentSecurityEvent?.isAcknowledgementRefused == false)
        #expect(h.renderer.tapButton())
        #expect(h.take() == ["0 event ringing", "0 alert terminate 5 button=Close App", "0 outcome forceExit", "0 exit 0"])
    }

    @Test("Capture is observed only while monitoring; deliveries after a stop are ignored")
    func observedWhileMonitoring() throws {
        let h = Harness(logsOutcomes: true)
        h.capture.setCaptured(true)
        #expect(h.monitor.isScreenCaptured == false)
        h.monitor.startMonitoring(withTerminateIn: 5)
        #expect(h.monitor.isScreenCaptured == true)
        h.capture.setCaptured(false)
        #expect(h.monitor.isScreenCaptured == false)
        h.monitor.stopMonitoring()
        h.capture.setCaptured(true)
        #expect(h.monitor.isScreenCaptured == false)
    }
}

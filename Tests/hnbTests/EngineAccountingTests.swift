// What the engine keeps count of across inputs that leave things out: the connected count when a
// complete list drops a call (ringing or connected), and the capture signal across a stop.

import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Engine accounting: complete lists and the capture signal", .nothingLeftScheduled)
struct EngineAccountingTests {
    @Test("A complete list that leaves out a ringing call keeps the connected count: no event, still started")
    func completeListDropsRingingCall() throws {
        // In the background, so that only the call events are logged (no warning is shown).
        let h = Harness(foreground: false)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        try h.calls.incoming("B")
        #expect(h.take() == ["0 event ringing", "0 event started"])
        // B's end is lost; the next complete list names only A.
        try h.calls.withoutNotifying { try h.calls.end("B") }
        h.calls.deliverCompleteList()
        #expect(h.take() == [])
        #expect(h.monitor.callState == .started)
        // A's end now ends the session: the count did not go below zero on the way.
        try h.calls.end("A")
        #expect(h.take() == ["0 event ended"])
        #expect(h.monitor.callState == .idle)
    }

    @Test("A ringing call's end learnt from a complete list leaves the count at zero: the next call that connects is started")
    func ringingEndFromCompleteListThenConnect() throws {
        let h = Harness(foreground: false)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        try h.calls.withoutNotifying { try h.calls.end("A") }
        h.calls.deliverCompleteList()
        #expect(h.take() == ["0 event ringing", "0 event ended"])
        try h.calls.incoming("B")
        try h.calls.connect("B")
        #expect(h.take() == ["0 event ringing", "0 event started"])
        #expect(h.monitor.callState == .started)
    }

    @Test("The capture signal is gated by monitoring: a capture still on when monitoring stops reads false")
    func captureReadsFalseAfterStop() {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withTerminateIn: 5)
        h.capture.setCaptured(true)
        #expect(h.monitor.isScreenCaptured == true)
        h.monitor.stopMonitoring()
        #expect(h.monitor.isScreenCaptured == false)
        // A restart reads the capture that is still on.
        h.monitor.startMonitoring(withTerminateIn: 5)
        #expect(h.monitor.isScreenCaptured == true)
    }
}

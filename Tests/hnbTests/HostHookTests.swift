// What the host app hooks into besides the delegate: the before-exit hook and the call-detection
// switch.

import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Host hooks", .nothingLeftScheduled)
struct HostHookTests {
    @Test("The before-exit hook runs on the main thread just before the force exit, and never in the acknowledge flow")
    func beforeForceExit() throws {
        let h = Harness()
        let log = h.log
        h.monitor.setBeforeForceExit {
            expectOnMainQueue()
            log.add("wipe session")
        }
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        try h.calls.incoming("A")
        h.advance(5)
        h.monitor.startMonitoring(withTerminateIn: 2)
        h.advance(2)
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 1 button=-", "1 alert acknowledge 0 button=Acknowledge",
            // Issue 19: a change of policy does not report the call in progress again.
            "5 dismiss", "5 alert terminate 2 button=Close App",
            "6 alert terminate 1 button=Close App", "7 alert terminate 0 button=Close App", "7 wipe session", "7 exit 0",
        ])
    }

    @Test("With call detection off the call source is never started and nothing is shown; back on, the next start sees calls")
    func callDetectionOff() throws {
        let h = Harness()
        h.monitor.setCallDetectionEnabled(false)
        h.monitor.startMonitoring(withTerminateIn: 1)
        try h.calls.incoming("A")
        h.advance(5)
        h.monitor.stopMonitoring()
        #expect(h.source.starts == 0)
        #expect(h.source.stops == 0)
        #expect(h.take() == [])
        h.monitor.setCallDetectionEnabled(true)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        #expect(h.source.starts == 1)
        #expect(h.take() == ["5 event ringing", "5 alert acknowledge 0 button=Acknowledge"])
    }
}

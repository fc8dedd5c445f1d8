// Split out of ContractTests.swift so that each file holds one suite, named as the file (issue 39).

import Dispatch
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Calls and events", .nothingLeftScheduled)
struct CallsAndEventsTests {
    @Test("Rule 1: a held call still counts as connected; a second ringing call does not undo started")
    func rule1_aggregateOfLiveCalls() throws {
        let h = Harness()
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        h.monitor.setDelegate(h.delegate())
        try h.calls.incoming("A")
        try h.calls.connect("A")
        try h.calls.hold("A")
        try h.calls.incoming("B")
        try h.calls.resume("A")
        #expect(h.take() == ["0 event ringing", "0 delegate detect acknowledge 0", "0 event started"])
        try h.calls.end("A")
        #expect(h.take() == ["0 event ringing"])
        try h.calls.connect("B")
        try h.calls.hold("B")
        try h.calls.end("B")
        #expect(h.take() == ["0 event started", "0 event ended", "0 delegate end"])
    }

    @Test("Rule 1: an outgoing call that is dialing is ringing")
    func rule1_outgoingDialingIsRinging() throws {
        let h = Harness()
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.outgoing("A")
        h.advance(2)
        try h.calls.connect("A")
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 0 button=Acknowledge", "2 event started"])
    }

    @Test("Rule 2: one event per change of the aggregate, never the same twice, started→ringing when the connected call leaves")
    func rule2_eventPerChange() throws {
        let h = Harness()
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        h.monitor.setDelegate(h.delegate())
        try h.calls.incoming("A")
        try h.calls.incoming("B")
        h.advance(1)
        try h.calls.connect("A")
        try h.calls.connect("B")
        h.advance(1)
        try h.calls.end("B")
        try h.calls.incoming("C")
        try h.calls.end("A")
        h.advance(1)
        try h.calls.end("C")
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect acknowledge 0",
            "1 event started",
            "2 event ringing",
            "3 event ended", "3 delegate end",
        ])
    }

    @Test("Rule 2: after ended, the next call starts afresh")
    func rule2_nextCallStartsAfresh() throws {
        let h = Harness(callback: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        h.monitor.setDelegate(h.delegate())
        try h.calls.incoming("A")
        try h.calls.end("A")
        try h.calls.incoming("B")
        try h.calls.connect("B")
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect acknowledge 0", "0 event ended", "0 delegate end",
            "0 event ringing", "0 delegate detect acknowledge 0", "0 event started",
        ])
    }

    @Test("Rule 2: a call already connected at start gives started straight away")
    func rule2_callInProgressAtStart() throws {
        let h = Harness()
        try h.calls.incoming("A")
        try h.calls.connect("A")
        try h.calls.incoming("B")
        #expect(h.take() == [])
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: 2)
        #expect(h.take() == ["0 event started", "0 delegate detect terminate 2"])
    }

    @Test("Rule 2: nothing is reported while monitoring is off; ended never comes without a call")
    func rule2_silentWhenOff() throws {
        let h = Harness()
        try h.calls.incoming("A")
        try h.calls.end("A")
        h.monitor.startMonitoring(withTerminateIn: 5)
        h.advance(10)
        #expect(h.take() == [])
        #expect(h.scheduler.pendingCount == 0)
    }
}

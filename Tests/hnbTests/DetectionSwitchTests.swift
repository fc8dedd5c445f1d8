// Split out of GuardContractTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Detection switch", .nothingLeftScheduled)
struct DetectionSwitchTests {
    @Test("Rule 22: detection off while monitoring stops the call source at once and ends the event as if its calls had ended; on again, the complete list begins one")
    func rule22_offAndOnAtOnce() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("A")
        h.advance(1)
        h.monitor.setCallDetectionEnabled(false)
        #expect(h.source.stops == 1)
        #expect(h.monitor.isMonitoring)
        try h.calls.connect("A")
        h.advance(10)
        h.monitor.setCallDetectionEnabled(true)
        #expect(h.source.starts == 2)
        h.advance(1)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 3 button=Close App", "1 alert terminate 2 button=Close App",
            "1 event ended", "1 dismiss", "1 outcome callDetectionDisabled",
            "11 event started", "11 alert terminate 3 button=Close App", "12 alert terminate 2 button=Close App",
        ])
        #expect(h.terminator.exitCodes == [])
    }

    @Test("Rule 22: the same setting again changes nothing; a late delivery from the stopped source is dropped")
    func rule22_sameSettingAndLateDelivery() throws {
        let h = Harness()
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        h.monitor.setCallDetectionEnabled(true)
        #expect(h.source.starts == 1)
        let stale = try #require(h.source.lastDeliver)
        h.monitor.setCallDetectionEnabled(false)
        h.monitor.setCallDetectionEnabled(false)
        #expect(h.source.stops == 1)
        stale(.changes([CallSnapshot(id: CallID("A"))]))
        #expect(h.take() == [])
    }
}

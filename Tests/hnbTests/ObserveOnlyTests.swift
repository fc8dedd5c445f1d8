// Split out of GuardContractTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Observe only", .nothingLeftScheduled)
struct ObserveOnlyTests {
    @Test("Rule 20: startMonitoring() reports calls and signals and never shows a UI or exits")
    func rule20_observeOnly() throws {
        let h = Harness()
        h.logOutcomes()
        let d = h.delegate()
        h.monitor.startMonitoring()
        h.monitor.startMonitoring()
        try h.calls.incoming("A")
        try h.calls.connect("A")
        #expect(h.monitor.isMonitoring)
        #expect(h.monitor.callState == .started)
        #expect(h.monitor.currentSecurityEvent == nil)
        h.monitor.setDelegate(d)
        h.app.setForeground(false)
        h.app.setForeground(true)
        h.advance(3600)
        try h.calls.end("A")
        #expect(h.take() == ["0 event ringing", "0 event started", "3600 event ended"])
        #expect(h.terminator.exitCodes == [])
        #expect(h.scheduler.pendingCount == 0)
    }

    @Test("Rule 20: a policy over observe starts an event at once during a call; back to observe ends it with policyChanged and nothing new")
    func rule20_policyOverObserve() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring()
        try h.calls.incoming("A")
        h.advance(1)
        let p = h.monitor.protect(withTerminateIn: 5)
        h.advance(1)
        p.end()
        h.advance(1)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        h.monitor.startMonitoring()
        h.advance(10)
        #expect(h.take() == [
            "0 event ringing",
            "1 alert terminate 5 button=Close App", "2 alert terminate 4 button=Close App",
            "2 dismiss", "2 outcome policyChanged",
            "3 alert acknowledge 0 button=Acknowledge", "3 dismiss", "3 outcome policyChanged",
        ])
        #expect(h.terminator.exitCodes == [])
        #expect(h.source.starts == 1)
    }
}

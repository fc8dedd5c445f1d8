// Split out of GuardContractTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Acknowledgement per call", .nothingLeftScheduled)
struct AcknowledgementCoverageTests {
    @Test("Rules 4 and 6: after an acknowledgement a new call that joins the session warns again at once (the issue's transcript)")
    func rule4_newCallAfterAcknowledgement() throws {
        let h = Harness()
        h.logOutcomes()
        let d = h.delegate()
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("MOM")
        h.advance(2)
        try h.calls.connect("MOM")
        h.advance(1)
        d.lastAction?()
        h.advance(2)
        try h.calls.incoming("SCAM")
        h.advance(1)
        try h.calls.connect("SCAM")
        h.advance(1)
        try h.calls.end("MOM")
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect acknowledge 0", "2 event started",
            "3 delegate end", "3 outcome acknowledged",
            "5 delegate detect acknowledge 0",
        ])
    }

    @Test("Rule 4: a call that ends takes its acknowledgement with it, also while another acknowledged call stays live: the same identifier again is warned about")
    func rule4_reusedIdentifierWhileAnotherCallStays() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        try h.calls.incoming("B")
        h.advance(1)
        h.renderer.tapButton()
        h.advance(1)
        try h.calls.end("A")
        h.advance(1)
        // The count of live calls is the acknowledged count again, but "A" is a new call (a
        // source that reuses identifiers, as a modem's call index does; the simulated source
        // refuses reuse, so the batch goes straight in).
        let deliver = try #require(h.source.lastDeliver)
        deliver(.changes([CallSnapshot(id: CallID("A"))]))
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 0 button=Acknowledge",
            "1 dismiss", "1 outcome acknowledged",
            "3 alert acknowledge 0 button=Acknowledge",
        ])
    }

    @Test("Rule 4: a call that joins in the background after an acknowledgement warns when the app returns")
    func rule4_joinInBackground() throws {
        let h = Harness()
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        h.renderer.tapButton()
        h.app.setForeground(false)
        h.advance(1)
        try h.calls.incoming("B")
        h.advance(1)
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 0 button=Acknowledge", "0 dismiss"])
        h.app.setForeground(true)
        #expect(h.take() == ["2 alert acknowledge 0 button=Acknowledge"])
    }

    @Test("Rule 4: an acknowledgement covers its policy and any no stricter, not a stricter one")
    func rule4_coverageByStrictness() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        try h.calls.incoming("A")
        h.advance(2)
        h.renderer.tapButton()
        // Less strict: covered.
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        h.advance(1)
        // Stricter: warned again.
        h.monitor.startMonitoring(withAcknowledgeIn: 3)
        h.advance(1)
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 2 button=-", "1 alert acknowledge 1 button=-",
            "2 alert acknowledge 0 button=Acknowledge", "2 dismiss", "2 outcome acknowledged",
            "3 alert acknowledge 3 button=-", "4 alert acknowledge 2 button=-",
        ])
    }

    @Test("Rule 4: a later acknowledgement under a weaker policy keeps the stricter one: back on the stricter screen, a call acknowledged under it is not warned about again")
    func rule4_weakerAcknowledgementKeepsStricter() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        let transfer = h.monitor.protect(withAcknowledgeIn: 3)
        try h.calls.incoming("A")
        h.advance(3)
        // A is acknowledged under the screen's acknowledge 3; leaving the screen, the app-wide
        // acknowledge 1 is covered by it.
        h.renderer.tapButton()
        transfer.end()
        h.advance(1)
        // B is new: warned under acknowledge 1, and that acknowledgement covers A and B.
        try h.calls.incoming("B")
        h.advance(1)
        h.renderer.tapButton()
        try h.calls.end("B")
        h.advance(1)
        // The stricter screen again, with only A live: A's first acknowledgement covers it.
        let again = h.monitor.protect(withAcknowledgeIn: 3)
        h.advance(5)
        again.end()
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 3 button=-", "1 alert acknowledge 2 button=-", "2 alert acknowledge 1 button=-",
            "3 alert acknowledge 0 button=Acknowledge", "3 dismiss", "3 outcome acknowledged",
            "4 alert acknowledge 1 button=-", "5 alert acknowledge 0 button=Acknowledge", "5 dismiss", "5 outcome acknowledged",
        ])
        #expect(h.monitor.currentSecurityEvent == nil)
    }
}

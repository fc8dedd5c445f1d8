// Rule 25 of the behaviour contract (issue 22): a stricter policy while the screen is captured
// during a call. The contract, then what a caller who shares the user's screen could try against
// it. Every test asserts the exact outputs with their times.

import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Stricter while the screen is captured", .nothingLeftScheduled)
struct EscalationTests {
    @Test("Rule 25: an acknowledge warning becomes a terminate countdown the moment capture starts in a call, falls back when it stops, and flapping keeps the deadline (rule 21)")
    func rule25_terminateWhileCaptured() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 5)
        h.monitor.startMonitoring(withAcknowledgeIn: 3)
        try h.calls.incoming("A")
        h.capture(true, at: 1)
        h.capture(false, at: 3)
        h.capture(true, at: 4.5)
        h.at(10)
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 3 button=-", "1 alert acknowledge 2 button=-",
            "1 dismiss", "1 outcome policyChanged", "1 alert terminate 5 button=Close App",
            "2 alert terminate 4 button=Close App", "3 alert terminate 3 button=Close App",
            "3 dismiss", "3 outcome policyChanged", "3 alert acknowledge 3 button=-",
            "4 alert acknowledge 2 button=-",
            // The session's terminate deadline is 6 (rule 21): 1.5 s are left, shown as 2.
            "4.5 dismiss", "4.5 outcome policyChanged", "4.5 alert terminate 2 button=Close App",
            "5 alert terminate 1 button=Close App", "6 alert terminate 0 button=Close App",
            "6 outcome forceExit", "6 exit 0",
        ])
        #expect(h.outcomes.map(\.flow) == [.acknowledge, .terminate, .acknowledge, .terminate])
        #expect(h.outcomes.map(\.wasScreenCaptured) == [true, true, true, true])
        #expect(h.outcomes.map(\.startedAt) == [0, ns(1), ns(3), ns(4.5)])
    }

    @Test("Rule 25: a call that begins while the screen is captured begins escalated; after the session, a call without capture gets the app-wide policy")
    func rule25_callBeginsWhileCaptured() throws {
        let h = Harness(captured: true, logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 4)
        #expect(h.take() == [])
        try h.calls.incoming("A")
        h.at(1)
        try h.calls.end("A")
        h.capture(false, at: 2)
        try h.calls.incoming("B")
        h.at(3)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 4 button=Close App", "1 alert terminate 3 button=Close App",
            "1 event ended", "1 dismiss", "1 outcome callEnded",
            "2 event ringing", "2 alert acknowledge 2 button=-", "3 alert acknowledge 1 button=-",
        ])
    }

    @Test("Rule 25: a new session starts afresh; its own terminate countdown is not pulled in by the last session's deadline")
    func rule25_newSessionAfresh() throws {
        let h = Harness(captured: true, logsOutcomes: true)
        h.monitor.startMonitoring()
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 3)
        try h.calls.incoming("A")
        h.at(2)
        try h.calls.end("A")
        try h.calls.incoming("B")
        h.at(4)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 3 button=Close App", "1 alert terminate 2 button=Close App",
            "2 alert terminate 1 button=Close App",
            "2 event ended", "2 dismiss", "2 outcome callEnded",
            "2 event ringing", "2 alert terminate 3 button=Close App", "3 alert terminate 2 button=Close App",
            "4 alert terminate 1 button=Close App",
        ])
    }

    @Test("Rule 25 (issue 26): the escalation alone monitors, like a protection: a call while the screen is captured gets its countdown and exit")
    func rule25_aloneMonitors() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 2)
        #expect(h.monitor.isMonitoring)
        #expect(h.source.starts == 1)
        h.capture.setCaptured(true)
        h.at(1)
        try h.calls.incoming("X")
        h.at(4)
        #expect(h.take() == [
            "1 event ringing", "1 alert terminate 2 button=Close App", "2 alert terminate 1 button=Close App",
            "3 alert terminate 0 button=Close App", "3 outcome forceExit", "3 exit 0",
        ])
        #expect(h.outcomes.map(\.wasScreenCaptured) == [true])
    }

    @Test("Rule 25 with rules 10, 19 and 21: stopMonitoring leaves the escalation guarding, as it leaves protections open; removed with nothing else set it is the stop, which follows the live session; the next session starts afresh; an exempt call never opens it")
    func rule25_monitorsWhileSet() throws {
        let h = Harness(captured: true, logsOutcomes: true)
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 3)
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        try h.calls.incoming("A")
        h.capture(false, at: 0.5)
        h.at(1.5)
        h.monitor.stopMonitoring()
        // Only the app-wide policy ended: the escalation still monitors, with no policy in force
        // while the screen is not captured.
        #expect(h.monitor.isMonitoring)
        h.capture(true, at: 2)
        h.capture(false, at: 2.5)
        h.monitor.stopProtectingWhileScreenCaptured()
        #expect(!h.monitor.isMonitoring)
        #expect(h.source.stops == 0)
        h.at(2.75)
        try h.calls.end("A")
        #expect(h.source.stops == 1)
        h.at(4)
        h.monitor.exemptCall(CallID("OWN"))
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 1)
        h.capture.setCaptured(true)
        try h.calls.outgoing("OWN")
        try h.calls.connect("OWN")
        h.at(5)
        try h.calls.incoming("B")
        h.at(7)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 3 button=Close App",
            "0.5 dismiss", "0.5 outcome policyChanged", "0.5 alert acknowledge 1 button=-",
            "1.5 alert acknowledge 0 button=Acknowledge",
            // The app-wide policy ends; nothing is in force until the screen is shared again.
            "1.5 dismiss", "1.5 outcome policyChanged",
            // Shared again: the countdown goes on from the session's deadline (3, rule 21).
            "2 alert terminate 1 button=Close App",
            "2.5 dismiss", "2.5 outcome policyChanged",
            // The escalation's removal is the stop: A's end at 2.75 is followed silently (rule 10).
            // The next session is fresh; OWN never opened the escalation.
            "5 event ringing", "5 alert terminate 1 button=Close App",
            "6 alert terminate 0 button=Close App", "6 outcome forceExit", "6 exit 0",
        ])
        #expect(h.source.starts == 2)
    }

    @Test("Rule 25: off, and setting it again, apply at once while captured in a call; the policy left in force begins an event")
    func rule25_offAndReplace() throws {
        let h = Harness(captured: true, logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 3)
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 5)
        try h.calls.incoming("A")
        h.at(1)
        h.monitor.protectWhileScreenCaptured(withAcknowledgeIn: 10)
        h.at(2)
        h.monitor.protectWhileScreenCaptured(withAcknowledgeIn: 10)
        h.monitor.stopProtectingWhileScreenCaptured()
        h.at(3)
        h.monitor.stopProtectingWhileScreenCaptured()
        h.monitor.protectWhileScreenCaptured(withAcknowledgeIn: 1)
        h.at(4)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 5 button=Close App",
            "1 alert terminate 4 button=Close App",
            "1 dismiss", "1 outcome policyChanged", "1 alert acknowledge 10 button=-",
            "2 alert acknowledge 9 button=-",
            "2 dismiss", "2 outcome policyChanged", "2 alert acknowledge 3 button=-",
            // Acknowledge 1 is weaker than the app-wide acknowledge 3: nothing changes.
            "3 alert acknowledge 2 button=-", "4 alert acknowledge 1 button=-",
        ])
    }

    @Test("Rule 25 with rule 19: an exempt call neither opens the escalation nor keeps it open")
    func rule25_exemptCallDoesNotCount() throws {
        let h = Harness(captured: true, logsOutcomes: true)
        h.monitor.exemptCall(CallID("OWN"))
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 3)
        try h.calls.outgoing("OWN")
        try h.calls.connect("OWN")
        h.at(1)
        try h.calls.incoming("B")
        h.at(2)
        try h.calls.end("B")
        h.at(5)
        #expect(h.take() == [
            "1 event ringing", "1 alert terminate 3 button=Close App", "2 alert terminate 2 button=Close App",
            "2 event ended", "2 dismiss", "2 outcome callEnded",
        ])
        #expect(h.terminator.exitCodes == [])
    }

    @Test("Rule 25 with rule 4: after an acknowledgement under the app-wide policy, the escalation warns again, and falling back starts no new event")
    func rule25_acknowledgementDecidesFallback() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        h.monitor.protectWhileScreenCaptured(withAcknowledgeIn: 2)
        try h.calls.incoming("A")
        #expect(h.renderer.tapButton())
        h.capture(true, at: 1)
        h.at(3)
        h.capture(false, at: 3.5)
        h.capture(true, at: 4)
        h.at(6)
        #expect(h.renderer.tapButton())
        h.capture(false, at: 7)
        h.capture(true, at: 8)
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 0 button=Acknowledge", "0 dismiss", "0 outcome acknowledged",
            "1 alert acknowledge 2 button=-", "2 alert acknowledge 1 button=-", "3 alert acknowledge 0 button=Acknowledge",
            // Acknowledge 0 covers the call under acknowledge 0: falling back shows nothing.
            "3.5 dismiss", "3.5 outcome policyChanged",
            // Not acknowledged under acknowledge 2 yet: the escalated warning starts again in full.
            "4 alert acknowledge 2 button=-", "5 alert acknowledge 1 button=-", "6 alert acknowledge 0 button=Acknowledge",
            "6 dismiss", "6 outcome acknowledged",
            // Acknowledged under acknowledge 2 now: it covers both policies.
        ])
        #expect(h.renderer.current == nil)
    }

    @Test("Rule 25 with rule 17: escalated to terminate, Close App works while captured and no refusal frame flashes; falling back, the refusal applies again")
    func rule25_withRule17Terminate() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.setRefusesAcknowledgementWhileScreenCaptured(true)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 5)
        try h.calls.incoming("A")
        h.capture(true, at: 1)
        #expect(h.monitor.currentSecurityEvent?.isAcknowledgementRefused == false)
        #expect(h.monitor.currentSecurityEvent?.isActionAvailable == true)
        h.capture(false, at: 2)
        #expect(h.monitor.currentSecurityEvent?.isActionAvailable == true)
        h.capture(true, at: 3)
        #expect(h.renderer.tapButton())
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 0 button=Acknowledge",
            "1 dismiss", "1 outcome policyChanged", "1 alert terminate 5 button=Close App",
            "2 alert terminate 4 button=Close App",
            "2 dismiss", "2 outcome policyChanged", "2 alert acknowledge 0 button=Acknowledge",
            "3 dismiss", "3 outcome policyChanged", "3 alert terminate 3 button=Close App",
            "3 outcome forceExit", "3 exit 0",
        ])
    }

    @Test("Rule 25 with rule 17: escalated to a longer acknowledge, the new warning is refused from its first frame while captured; Acknowledge comes back with the fallback")
    func rule25_withRule17Acknowledge() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.setRefusesAcknowledgementWhileScreenCaptured(true)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        h.monitor.protectWhileScreenCaptured(withAcknowledgeIn: 1)
        try h.calls.incoming("A")
        h.capture(true, at: 1)
        #expect(h.monitor.currentSecurityEvent?.isAcknowledgementRefused == true)
        h.at(2)
        #expect(h.renderer.tapButton())  // the button says why; the tap does nothing
        #expect(h.monitor.currentSecurityEvent?.isActionAvailable == false)
        h.capture(false, at: 3)
        #expect(h.renderer.tapButton())
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 0 button=Acknowledge",
            "1 dismiss", "1 outcome policyChanged", "1 alert acknowledge 1 button=-",
            "2 alert acknowledge 0 button=Stop screen sharing to acknowledge",
            "3 dismiss", "3 outcome policyChanged", "3 alert acknowledge 0 button=Acknowledge",
            "3 dismiss", "3 outcome acknowledged",
        ])
    }

    @Test("Rule 25 with rules 1 and 8: a held call keeps the session live, so the escalation stays; in the background the fallback waits for the foreground")
    func rule25_holdAndBackground() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 10)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.capture(true, at: 1)
        h.at(2)
        try h.calls.hold("A")
        h.at(3)
        h.app.setForeground(false)
        h.capture(false, at: 4)
        h.at(5)
        h.capture(true, at: 5.5)
        h.app.setForeground(true)
        h.at(6)
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 2 button=-", "0 event started", "1 alert acknowledge 1 button=-",
            "1 dismiss", "1 outcome policyChanged", "1 alert terminate 10 button=Close App",
            "2 alert terminate 9 button=Close App", "3 alert terminate 8 button=Close App", "4 alert terminate 7 button=Close App",
            // Background: the terminate countdown ends with the escalation; acknowledge waits
            // for the foreground (rule 4), and so does the escalated countdown, which keeps the
            // session's deadline (11) when it comes back.
            "4 dismiss", "4 outcome policyChanged",
            "5.5 alert terminate 6 button=Close App", "6 alert terminate 5 button=Close App",
        ])
    }
}

extension Harness {
    /// Starts (`true`) or stops the capture at the instant `seconds`.
    func capture(_ captured: Bool, at seconds: Double) {
        at(seconds)
        capture.setCaptured(captured)
    }
}

// Split out of ContractTests.swift so that each file holds one suite, named as the file (issue 39).

import Dispatch
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Security event", .nothingLeftScheduled)
struct SecurityEventTests {
    @Test("Rule 4: a call that begins in the background starts the event when the app returns")
    func rule4_backgroundCallStartsEventOnForeground() throws {
        let h = Harness(foreground: false)
        h.monitor.startMonitoring(withTerminateIn: 3)
        h.monitor.setDelegate(h.delegate())
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(5)
        #expect(h.take() == ["0 event ringing", "0 event started"])
        h.app.setForeground(true)
        h.advance(3)
        #expect(h.take() == [
            "5 delegate detect terminate 3", "6 delegate tick 2", "7 delegate tick 1", "8 delegate tick 0", "8 exit 0",
        ])
    }

    @Test("Rule 4: a session spent wholly in the background shows nothing")
    func rule4_backgroundSessionShowsNothing() throws {
        let h = Harness(foreground: false)
        h.monitor.startMonitoring(withTerminateIn: 1)
        h.monitor.setDelegate(h.delegate())
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(60)
        try h.calls.end("A")
        h.app.setForeground(true)
        h.advance(5)
        #expect(h.take() == ["0 event ringing", "0 event started", "60 event ended"])
        #expect(h.terminator.exitCodes.count == 0)
        #expect(h.scheduler.pendingCount == 0)
    }

    @Test("Rule 4: an acknowledgement covers the calls it saw: a call that joins later warns again at once; the next session starts afresh")
    func rule4_acknowledgedOncePerSession() throws {
        let h = Harness()
        let d = h.delegate()
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        try h.calls.incoming("A")
        h.advance(1)
        d.lastAction?()
        h.app.setForeground(false)
        h.app.setForeground(true)
        try h.calls.incoming("B")
        try h.calls.end("A")
        h.advance(1)
        // Issue 19: B joined after the acknowledgement, which covered only A.
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect acknowledge 1", "1 delegate tick 0", "1 delegate end",
            "1 delegate detect acknowledge 1", "2 delegate tick 0",
        ])
        try h.calls.end("B")
        try h.calls.incoming("C")
        #expect(h.take() == ["2 event ended", "2 delegate end", "2 event ringing", "2 delegate detect acknowledge 1"])
    }

    @Test("Rule 5: terminate shows N with the button, ticks N-1…0 once a second, then exits")
    func rule5_terminateCountdownEndsInExit() throws {
        let h = Harness()
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("A")
        h.advance(10)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 3 button=Close App",
            "1 alert terminate 2 button=Close App",
            "2 alert terminate 1 button=Close App",
            "3 alert terminate 0 button=Close App",
            "3 exit 0",
        ])
        #expect(h.terminator.exitCodes.count == 1)
        #expect(h.scheduler.pendingCount == 0)
    }

    @Test("Rule 5: seconds below 1 are clamped to 1", arguments: [Int32(0), -1, -30, Int32.min])
    func rule5_terminateClampsToOne(seconds: Int32) throws {
        let h = Harness()
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: seconds)
        try h.calls.incoming("A")
        h.advance(2)
        #expect(h.take() == ["0 event ringing", "0 delegate detect terminate 1", "1 delegate tick 0", "1 exit 0"])
    }

    @Test("Rule 5: Close App exits at once")
    func rule5_closeAppExitsAtOnce() throws {
        let h = Harness()
        h.monitor.startMonitoring(withTerminateIn: 10)
        try h.calls.incoming("A")
        h.advance(2.5)
        h.renderer.tapButton()
        h.advance(20)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 10 button=Close App",
            "1 alert terminate 9 button=Close App", "2 alert terminate 8 button=Close App",
            "2.5 exit 0",
        ])
        #expect(h.scheduler.pendingCount == 0)
    }

    @Test("Rule 5: no exit once the session is over, even from a kept closure")
    func rule5_noExitAfterSessionEnds() throws {
        let h = Harness()
        let d = h.delegate()
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withTerminateIn: 2)
        try h.calls.incoming("A")
        try h.calls.end("A")
        d.lastAction?()
        h.advance(5)
        #expect(h.take() == ["0 event ringing", "0 delegate detect terminate 2", "0 event ended", "0 delegate end"])
        #expect(h.terminator.exitCodes.count == 0)
    }

    @Test("Rule 6: acknowledge shows N without a button, ticks to 0, then the button appears")
    func rule6_acknowledgeDelayThenButton() throws {
        let h = Harness()
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        try h.calls.incoming("A")
        h.advance(1.5)
        #expect(!h.renderer.tapButton(), "no button is drawn during the delay")
        h.advance(1)
        h.renderer.tapButton()
        h.advance(60)
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 2 button=-",
            "1 alert acknowledge 1 button=-",
            "2 alert acknowledge 0 button=Acknowledge",
            "2.5 dismiss",
        ])
        #expect(h.terminator.exitCodes.count == 0)
        #expect(h.scheduler.pendingCount == 0)
    }

    @Test("Rule 6: the engine refuses an early acknowledgement from a delegate's own button")
    func rule6_earlyAcknowledgeIgnored() throws {
        let h = Harness()
        let d = h.delegate()
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withAcknowledgeIn: 3)
        try h.calls.incoming("A")
        d.lastAction?()
        h.advance(2)
        d.lastAction?()
        h.advance(1)
        d.lastAction?()
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect acknowledge 3",
            "1 delegate tick 2", "2 delegate tick 1", "3 delegate tick 0", "3 delegate end",
        ])
    }

    @Test("Rule 6: 0 seconds (or less) shows the button at once and sends no tick", arguments: [Int32(0), -1, Int32.min])
    func rule6_zeroDelay(seconds: Int32) throws {
        let h = Harness()
        let d = h.delegate()
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withAcknowledgeIn: seconds)
        try h.calls.incoming("A")
        h.advance(5)
        d.lastAction?()
        #expect(h.take() == ["0 event ringing", "0 delegate detect acknowledge 0", "5 delegate end"])
    }

    @Test("Rule 6: the acknowledge flow never exits, however long the call lasts")
    func rule6_neverExits() throws {
        let h = Harness()
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(3600)
        #expect(h.terminator.exitCodes.count == 0)
        #expect(h.renderer.current?.button == "Acknowledge")
    }

    @Test("Rule 7: the call ending dismisses the UI, stops the timer, and the next call starts from N")
    func rule7_sessionEndDismisses() throws {
        let h = Harness()
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(2)
        try h.calls.end("A")
        #expect(h.scheduler.pendingCount == 0)
        h.advance(10)
        try h.calls.incoming("B")
        h.advance(1)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 5 button=Close App", "0 event started",
            "1 alert terminate 4 button=Close App", "2 alert terminate 3 button=Close App",
            "2 event ended", "2 dismiss",
            "12 event ringing", "12 alert terminate 5 button=Close App",
            "13 alert terminate 4 button=Close App",
        ])
        #expect(h.terminator.exitCodes.count == 0)
    }

    @Test("Rule 8: background and foreground during a countdown neither pause nor restart it")
    func rule8_backgroundDoesNotPause() throws {
        let h = Harness()
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: 4)
        try h.calls.incoming("A")
        h.advance(1.5)
        h.app.setForeground(false)
        h.advance(1)
        h.app.setForeground(true)
        h.app.setForeground(false)
        h.app.setForeground(true)
        h.advance(2)
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect terminate 4",
            "1 delegate tick 3", "2 delegate tick 2", "3 delegate tick 1", "4 delegate tick 0", "4 exit 0",
        ])
    }

    @Test("Rule 8: after a suspension the next tick reports the current value, then the ticks continue on time")
    func rule8_suspensionSkipsToCurrentValue() throws {
        let h = Harness()
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: 10)
        try h.calls.incoming("A")
        h.advance(2.2)
        h.scheduler.suspend(forSeconds: 4.5)
        h.advance(10)
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect terminate 10",
            "1 delegate tick 9", "2 delegate tick 8",
            "6.7 delegate tick 4",
            "7 delegate tick 3", "8 delegate tick 2", "9 delegate tick 1", "10 delegate tick 0", "10 exit 0",
        ])
    }

    @Test("Rule 8: a suspension past the deadline delivers tick 0 and exits on wake-up")
    func rule8_suspensionPastDeadline() throws {
        let h = Harness()
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        h.scheduler.suspend(forSeconds: 300)
        #expect(h.take() == ["0 event ringing", "0 delegate detect terminate 5", "300 delegate tick 0", "300 exit 0"])
    }

    @Test("Rule 8 (issue 26): a change of the policy in the background keeps the session's terminate deadline running: the terminate event under the new policy begins there at once; an acknowledge one, and a session's first terminate one, wait for the foreground")
    func rule8_policyChangeInBackground() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        try h.calls.incoming("A")
        h.at(0.5)
        h.app.setForeground(false)
        // No terminate countdown ran in this session yet: the first waits for the return (rule 4).
        let transfer = h.monitor.protect(withTerminateIn: 4)
        h.at(1)
        h.app.setForeground(true)
        h.at(2)
        h.app.setForeground(false)
        // Back to acknowledge: its event waits for the foreground, with its whole delay.
        transfer.end()
        h.at(3)
        // Terminate again: the session's deadline (5) runs on in the background.
        let again = h.monitor.protect(withTerminateIn: 4)
        h.at(6)
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 2 button=-",
            "0.5 dismiss", "0.5 outcome policyChanged",
            "1 alert terminate 4 button=Close App", "2 alert terminate 3 button=Close App",
            "2 dismiss", "2 outcome policyChanged",
            "3 alert terminate 2 button=Close App", "4 alert terminate 1 button=Close App",
            "5 alert terminate 0 button=Close App", "5 outcome forceExit", "5 exit 0",
        ])
        withExtendedLifetime(again) {}
    }

    @Test("Rule 9: at one instant the callback comes first, then the UI, then the exit")
    func rule9_orderAtOneInstant() throws {
        let h = Harness()
        let d = h.delegate()
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withTerminateIn: 1)
        try h.calls.incoming("A")
        #expect(h.take() == ["0 event ringing", "0 delegate detect terminate 1"])
        h.advance(0.5)
        try h.calls.end("A")
        #expect(h.take() == ["0.5 event ended", "0.5 delegate end"])
        try h.calls.incoming("B")
        try h.calls.connect("B")
        h.advance(1)
        #expect(h.take() == ["0.5 event ringing", "0.5 delegate detect terminate 1", "0.5 event started", "1.5 delegate tick 0", "1.5 exit 0"])
    }
}

// Split out of GuardContractTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Terminate deadline", .nothingLeftScheduled)
struct TerminateDeadlineTests {
    @Test("Rule 21: a stricter terminate protection cannot end later than the countdown already running; ending it does not restart the countdown")
    func rule21_deadlineNeverMovesLater() throws {
        let h = Harness()
        h.logOutcomes()
        let account = h.monitor.protect(withTerminateIn: 10)
        try h.calls.incoming("A")
        h.advance(7)
        let transfer = h.monitor.protect(withTerminateIn: 5)
        h.advance(0.5)
        transfer.end()
        h.advance(3)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 10 button=Close App",
            "1 alert terminate 9 button=Close App", "2 alert terminate 8 button=Close App", "3 alert terminate 7 button=Close App",
            "4 alert terminate 6 button=Close App", "5 alert terminate 5 button=Close App", "6 alert terminate 4 button=Close App",
            "7 alert terminate 3 button=Close App",
            "7 dismiss", "7 outcome policyChanged", "7 alert terminate 3 button=Close App",
            "7.5 dismiss", "7.5 outcome policyChanged", "7.5 alert terminate 3 button=Close App",
            "8 alert terminate 2 button=Close App", "9 alert terminate 1 button=Close App", "10 alert terminate 0 button=Close App",
            "10 outcome forceExit", "10 exit 0",
        ])
        withExtendedLifetime(account) {}
    }

    @Test("Rule 21: the earliest deadline of any terminate countdown in the session caps every later one, not the first countdown's: a stricter screen after a laxer app-wide policy holds the app-wide countdown to the screen's deadline")
    func rule21_earliestDeadlineNotFirst() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withTerminateIn: 34)
        try h.calls.incoming("A")
        h.at(1)
        let screen = h.monitor.protect(withTerminateIn: 6)
        h.at(2)
        screen.end()
        h.at(8)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 34 button=Close App", "1 alert terminate 33 button=Close App",
            "1 dismiss", "1 outcome policyChanged", "1 alert terminate 6 button=Close App",
            "2 alert terminate 5 button=Close App",
            // Back under terminate 34: the first countdown's deadline is 34, the session's earliest 7.
            "2 dismiss", "2 outcome policyChanged", "2 alert terminate 5 button=Close App",
            "3 alert terminate 4 button=Close App", "4 alert terminate 3 button=Close App", "5 alert terminate 2 button=Close App",
            "6 alert terminate 1 button=Close App", "7 alert terminate 0 button=Close App", "7 outcome forceExit", "7 exit 0",
        ])
        #expect(h.outcomes.map(\.seconds) == [34, 6, 34])
    }

    @Test("Rule 21: leaving the guarded screen and coming back in the same session continues the first deadline; past it, the exit is at once")
    func rule21_reenteringContinues() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        let first = h.monitor.protect(withTerminateIn: 3)
        h.advance(1)
        first.end()
        h.renderer.tapButton()
        h.advance(1)
        let second = h.monitor.protect(withTerminateIn: 3)
        h.advance(0.5)
        second.end()
        h.advance(10)
        let third = h.monitor.protect(withTerminateIn: 3)
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 0 button=Acknowledge",
            "0 dismiss", "0 outcome policyChanged", "0 alert terminate 3 button=Close App",
            "1 alert terminate 2 button=Close App",
            "1 dismiss", "1 outcome policyChanged", "1 alert acknowledge 0 button=Acknowledge",
            "1 dismiss", "1 outcome acknowledged",
            "2 alert terminate 1 button=Close App",
            "2.5 dismiss", "2.5 outcome policyChanged",
            "12.5 alert terminate 0 button=Close App", "12.5 outcome forceExit", "12.5 exit 0",
        ])
        withExtendedLifetime(third) {}
    }

    @Test("Rule 21: the next session starts afresh")
    func rule21_nextSessionAfresh() throws {
        let h = Harness()
        let p = h.monitor.protect(withTerminateIn: 3)
        try h.calls.incoming("A")
        h.advance(2)
        try h.calls.end("A")
        h.advance(1)
        try h.calls.incoming("B")
        h.advance(1)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 3 button=Close App", "1 alert terminate 2 button=Close App",
            "2 alert terminate 1 button=Close App", "2 event ended", "2 dismiss",
            "3 event ringing", "3 alert terminate 3 button=Close App", "4 alert terminate 2 button=Close App",
        ])
        p.end()
    }
}

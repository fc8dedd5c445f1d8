// What a scammer on the phone could try against protections, exemptions and observe-only
// monitoring (issue 19), one test each, with the exact outcome.

import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Bypass attempts on guarded screens", .nothingLeftScheduled)
struct GuardBypassTests {
    /// Which of two overlapping protections ends first.
    enum EndOrder: String, CaseIterable, Sendable { case firstBegunEndsFirst, secondBegunEndsFirst }

    @Test("Two overlapping protections, in either order, never leave a guarded screen unguarded", arguments: [
        (CallMonitorFlow.terminate, Int32(10), CallMonitorFlow.terminate, Int32(10)),
        (.terminate, 10, .terminate, 4),
        (.terminate, 10, .acknowledge, 5),
        (.acknowledge, 5, .terminate, 10),
        (.acknowledge, 5, .acknowledge, 30),
    ], EndOrder.allCases)
    func overlappingProtections(first: (CallMonitorFlow, Int32, CallMonitorFlow, Int32), order: EndOrder) throws {
        let h = Harness()
        func protect(_ flow: CallMonitorFlow, _ seconds: Int32) -> CallMonitorProtection {
            flow == .terminate ? h.monitor.protect(withTerminateIn: seconds) : h.monitor.protect(withAcknowledgeIn: seconds)
        }
        try h.calls.incoming("A")
        try h.calls.connect("A")
        // Screen one appears; the user goes to screen two: its onAppear runs before screen one's
        // onDisappear (or the other way round when screen two is dismissed first).
        let one = protect(first.0, first.1)
        #expect(h.renderer.current != nil)
        h.advance(0.5)
        let two = protect(first.2, first.3)
        #expect(h.renderer.current != nil)
        h.advance(0.25)
        switch order {
        case .firstBegunEndsFirst: one.end()
        case .secondBegunEndsFirst: two.end()
        }
        // The remaining protection's policy (or a stricter one) is on screen.
        let remaining = order == .firstBegunEndsFirst ? first.2 : first.0
        #expect(h.renderer.current?.flow == remaining)
        #expect(h.monitor.isMonitoring)
        h.advance(0.1)
        #expect(h.renderer.current != nil)
        one.end()
        two.end()
        #expect(h.renderer.current == nil)
        #expect(!h.monitor.isMonitoring)
    }

    @Test("The SwiftUI order: the next screen's onAppear before the previous screen's onDisappear keeps the countdown's deadline")
    func nextScreenAppearsFirst() throws {
        let h = Harness()
        h.logOutcomes()
        try h.calls.incoming("A")
        var screen = h.monitor.protect(withTerminateIn: 3)
        for _ in 0..<6 {
            h.advance(0.4)
            let next = h.monitor.protect(withTerminateIn: 3)
            screen.end()
            screen = next
        }
        h.advance(1)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 3 button=Close App",
            "1 alert terminate 2 button=Close App", "2 alert terminate 1 button=Close App",
            "3 alert terminate 0 button=Close App", "3 outcome forceExit", "3 exit 0",
        ])
        withExtendedLifetime(screen) {}
    }

    @Test("Leaving a terminate-protected screen cannot reset the countdown that still guards another open protection")
    func leavingCannotResetCountdown() throws {
        let h = Harness()
        h.logOutcomes()
        let account = h.monitor.protect(withTerminateIn: 5)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        // "Open the transfer screen and go back, again and again": each visit begins and ends
        // a protection.
        for _ in 0..<8 {
            h.advance(0.5)
            let transfer = h.monitor.protect(withTerminateIn: pick(h.scheduler.now))
            h.advance(0.1)
            transfer.end()
        }
        h.advance(1)
        // The same and laxer visits change nothing; the stricter one (2 s at 1.7) pulls the
        // deadline in to 3.7, and leaving it keeps that deadline: nothing ever moves it later.
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 5 button=Close App", "0 event started", "1 alert terminate 4 button=Close App",
            "1.7 dismiss", "1.7 outcome policyChanged", "1.7 alert terminate 2 button=Close App",
            "1.8 dismiss", "1.8 outcome policyChanged", "1.8 alert terminate 2 button=Close App",
            "2.7 alert terminate 1 button=Close App", "3.7 alert terminate 0 button=Close App", "3.7 outcome forceExit", "3.7 exit 0",
        ])
        withExtendedLifetime(account) {}
    }

    @Test("Issue 26: backing out of the only guarded screen and opening it again cannot reset the countdown: the session outlives the protections and the exit is at the first deadline")
    func backingOutOfTheOnlyGuardedScreen() throws {
        let h = Harness(logsOutcomes: true)
        var screen = h.monitor.protect(withTerminateIn: 5)
        h.at(1)
        try h.calls.incoming("X")
        h.at(3)
        screen.end()
        h.at(3.5)
        screen = h.monitor.protect(withTerminateIn: 5)
        h.at(5)
        screen.end()
        h.at(5.5)
        screen = h.monitor.protect(withTerminateIn: 5)
        h.at(12)
        #expect(h.take() == [
            "1 event ringing", "1 alert terminate 5 button=Close App", "2 alert terminate 4 button=Close App",
            "3 alert terminate 3 button=Close App", "3 dismiss", "3 outcome monitoringStopped",
            // Each return resumes the session: its calls are reported again, the deadline is 6.
            "3.5 event ringing", "3.5 alert terminate 3 button=Close App", "4 alert terminate 2 button=Close App",
            "5 alert terminate 1 button=Close App", "5 dismiss", "5 outcome monitoringStopped",
            "5.5 event ringing", "5.5 alert terminate 1 button=Close App",
            "6 alert terminate 0 button=Close App", "6 outcome forceExit", "6 exit 0",
        ])
        #expect(h.outcomes.map(\.startedAt) == [ns(1), ns(3.5), ns(5.5)])
        withExtendedLifetime(screen) {}
    }

    @Test("Issue 26: backing out of the only guarded screen at any rhythm, for a minute, exits at the first deadline", arguments: [4.0, 1.0, 0.5])
    func backingOutAtAnyRhythm(period: Double) throws {
        let h = Harness(logsOutcomes: true)
        var screen: CallMonitorProtection? = h.monitor.protect(withTerminateIn: 5)
        try h.calls.incoming("X")
        try h.calls.connect("X")
        // Out 0.1 s before each multiple of the period, back in at it.
        for visit in 1...Int(60 / period) {
            h.at(Double(visit) * period - 0.1)
            screen?.end()
            h.at(Double(visit) * period)
            screen = h.monitor.protect(withTerminateIn: 5)
        }
        #expect(h.terminator.exitCodes == [0])
        #expect(h.take().suffix(3) == ["5 alert terminate 0 button=Close App", "5 outcome forceExit", "5 exit 0"])
        #expect(h.outcomes.last?.endedAt == ns(5))
        withExtendedLifetime(screen) {}
    }

    @Test("Issue 26: backing out with the app in the background in between keeps the deadline: the screen opened again in the background counts down there, and the exit is at the deadline")
    func backingOutWithBackgroundInBetween() throws {
        let h = Harness(logsOutcomes: true)
        var screen = h.monitor.protect(withTerminateIn: 5)
        h.at(1)
        try h.calls.incoming("X")
        h.at(2)
        h.app.setForeground(false)
        h.at(3)
        screen.end()
        h.at(3.5)
        screen = h.monitor.protect(withTerminateIn: 5)
        h.at(4)
        h.app.setForeground(true)
        h.at(5)
        screen.end()
        h.at(5.5)
        screen = h.monitor.protect(withTerminateIn: 5)
        h.at(12)
        #expect(h.take() == [
            "1 event ringing", "1 alert terminate 5 button=Close App", "2 alert terminate 4 button=Close App",
            "3 alert terminate 3 button=Close App", "3 dismiss", "3 outcome monitoringStopped",
            // Resumed in the background: the calls are reported, and the countdown goes on there
            // (rule 8: the session's deadline runs in the background).
            "3.5 event ringing", "3.5 alert terminate 3 button=Close App",
            "4 alert terminate 2 button=Close App", "5 alert terminate 1 button=Close App",
            "5 dismiss", "5 outcome monitoringStopped",
            "5.5 event ringing", "5.5 alert terminate 1 button=Close App",
            "6 alert terminate 0 button=Close App", "6 outcome forceExit", "6 exit 0",
        ])
        withExtendedLifetime(screen) {}
    }

    @Test("Issue 26: backing out and in while the app stays in the background past the deadline exits there, at the deadline; the call that ends later changes nothing")
    func backingOutInTheBackgroundPastTheDeadline() throws {
        let h = Harness(logsOutcomes: true)
        var screen = h.monitor.protect(withTerminateIn: 5)
        h.at(1)
        try h.calls.incoming("X")
        h.at(2)
        h.app.setForeground(false)
        h.at(3)
        screen.end()
        h.at(3.5)
        screen = h.monitor.protect(withTerminateIn: 5)
        h.at(5)
        screen.end()
        h.at(5.5)
        screen = h.monitor.protect(withTerminateIn: 5)
        h.at(8)
        try h.calls.end("X")
        h.at(10)
        h.app.setForeground(true)
        #expect(h.take() == [
            "1 event ringing", "1 alert terminate 5 button=Close App", "2 alert terminate 4 button=Close App",
            "3 alert terminate 3 button=Close App", "3 dismiss", "3 outcome monitoringStopped",
            "3.5 event ringing", "3.5 alert terminate 3 button=Close App",
            "4 alert terminate 2 button=Close App", "5 alert terminate 1 button=Close App",
            "5 dismiss", "5 outcome monitoringStopped",
            "5.5 event ringing", "5.5 alert terminate 1 button=Close App",
            "6 alert terminate 0 button=Close App", "6 outcome forceExit", "6 exit 0",
        ])
        withExtendedLifetime(screen) {}
    }

    /// One way a policy can change while the app is in the background (issue 26, 3.3).
    enum BackgroundChange: String, CaseIterable, Sendable {
        /// The case: a stricter protection (terminate 2 at 3).
        case stricterProtection
        /// A laxer app-wide policy (terminate 30 at 3).
        case laxerAppWide
        /// Observe only at 3, the terminate policy again at 4.
        case observeThenBack
        /// Acknowledge at 3 (its event waits for the foreground), terminate again at 4.
        case acknowledgeThenBack
        /// stopMonitoring at 3 (the session is followed), the start again at 4.
        case stopThenStart
        /// A stricter protection at 3 that ends at 3.5.
        case stricterProtectionEnded
    }

    @Test("Issue 26: no change of policy in the background postpones or drops the exit: it comes at the earliest deadline, while the call is live, as rule 8 has it", arguments: BackgroundChange.allCases)
    func backgroundPolicyChangeKeepsTheExit(change: BackgroundChange) throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withTerminateIn: 5)
        h.at(1)
        try h.calls.incoming("X")
        h.at(2)
        h.app.setForeground(false)
        h.at(3)
        var protection: CallMonitorProtection?
        switch change {
        case .stricterProtection: protection = h.monitor.protect(withTerminateIn: 2)
        case .laxerAppWide: h.monitor.startMonitoring(withTerminateIn: 30)
        case .observeThenBack, .acknowledgeThenBack, .stopThenStart:
            switch change {
            case .observeThenBack: h.monitor.startMonitoring()
            case .acknowledgeThenBack: h.monitor.startMonitoring(withAcknowledgeIn: 0)
            default: h.monitor.stopMonitoring()
            }
            h.at(4)
            h.monitor.startMonitoring(withTerminateIn: 5)
        case .stricterProtectionEnded:
            protection = h.monitor.protect(withTerminateIn: 2)
            h.at(3.5)
            protection?.end()
        }
        h.at(8)
        try h.calls.end("X")
        h.at(10)
        h.app.setForeground(true)
        // The stricter protection pulls the deadline in to 5; nothing moves it later than 6.
        let exitAt = change == .laxerAppWide || change == .observeThenBack || change == .acknowledgeThenBack || change == .stopThenStart ? 6 : 5
        let log = h.take()
        #expect(log.suffix(3) == ["\(exitAt) alert terminate 0 button=Close App", "\(exitAt) outcome forceExit", "\(exitAt) exit 0"])
        #expect(h.terminator.exitCodes == [0])
        #expect(h.outcomes.last?.ending == .forceExit)
        #expect(h.outcomes.last?.endedAt == ns(Double(exitAt)))
        if change == .stricterProtection {
            #expect(log == [
                "1 event ringing", "1 alert terminate 5 button=Close App", "2 alert terminate 4 button=Close App",
                "3 alert terminate 3 button=Close App", "3 dismiss", "3 outcome policyChanged", "3 alert terminate 2 button=Close App",
                "4 alert terminate 1 button=Close App", "5 alert terminate 0 button=Close App", "5 outcome forceExit", "5 exit 0",
            ])
        }
        withExtendedLifetime(protection) {}
    }

    /// Seconds for the repeated transfer screen: stricter, the same and laxer than the account's.
    private func pick(_ now: Int64) -> CInt { [2, 5, 30][Int(now / 500_000_000) % 3] }

    @Test("Leaving the acknowledge-only screen for the terminate one and back cannot restart its countdown")
    func bouncingBetweenPolicies() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        for _ in 0..<10 {
            let transfer = h.monitor.protect(withTerminateIn: 3)
            h.advance(0.4)
            transfer.end()
            h.renderer.tapButton()
            h.advance(0.1)
        }
        #expect(h.terminator.exitCodes == [0])
        #expect(h.take().suffix(3) == ["3 alert terminate 0 button=Close App", "3 outcome forceExit", "3 exit 0"])
    }

    @Test("An exemption can never hide a second call: not a later one, not one in the same list, not one with a reused identifier, not a forgotten one")
    func exemptionCannotHideSecondCall() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.exemptCall(CallID("BANK"))
        h.monitor.startMonitoring(withTerminateIn: 2)
        try h.calls.outgoing("BANK")
        try h.calls.connect("BANK")
        h.advance(1)
        // The scammer calls while the bank's agent is on the line.
        try h.calls.incoming("SCAM")
        h.advance(0.5)
        // Exempting the same call again, or removing an exemption of another, changes nothing.
        h.monitor.exemptCall(CallID("BANK"))
        h.monitor.removeExemption(CallID("OTHER"))
        try h.calls.end("BANK")
        h.advance(1.5)
        #expect(h.take() == [
            "1 event ringing", "1 alert terminate 2 button=Close App", "2 alert terminate 1 button=Close App",
            "3 alert terminate 0 button=Close App", "3 outcome forceExit", "3 exit 0",
        ])
    }

    @Test("An exempt call live in the background cannot keep the next call's warning away")
    func exemptCallDoesNotKeepSession() throws {
        let h = Harness()
        h.monitor.exemptCall(CallID("SUPPORT"))
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("SUPPORT")
        try h.calls.connect("SUPPORT")
        try h.calls.incoming("A")
        h.renderer.tapButton()
        try h.calls.end("A")
        try h.calls.incoming("B")
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 0 button=Acknowledge", "0 dismiss",
            "0 event ended", "0 event ringing", "0 alert acknowledge 0 button=Acknowledge",
        ])
    }

    @Test("Observe-only never shows a UI or exits: calls, taps, foreground cycles, delegates, hours of time")
    func observeOnlyNeverActs() async throws {
        let h = Harness()
        h.logOutcomes()
        let d = h.delegate()
        h.monitor.startMonitoring()
        for n in 0..<20 {
            try h.calls.incoming("C\(n)")
            if n % 2 == 0 { try h.calls.connect("C\(n)") }
            h.monitor.setDelegate(n % 3 == 0 ? d : nil)
            h.renderer.tapButton()
            #expect(h.monitor.sendableUserAction() == nil)
            h.app.setForeground(n % 2 == 0)
            h.monitor.startMonitoring()
            h.scheduler.suspend(forSeconds: 600)
        }
        h.monitor.setCallDetectionEnabled(false)
        h.monitor.setCallDetectionEnabled(true)
        h.advance(36_000)
        #expect(h.take().allSatisfy { $0.contains(" event ") })
        #expect(h.renderer.current == nil)
        #expect(h.terminator.exitCodes == [])
        #expect(h.monitor.currentSecurityEvent == nil)
        #expect(h.scheduler.pendingCount == 0)
    }

    @Test("Switching detection off and on during a call brings the policy back at once: a new session, as if the calls had ended and come back")
    func detectionToggleIsAnEnd() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withTerminateIn: 2)
        try h.calls.incoming("A")
        h.advance(1.5)
        // Off: the calls are no longer seen, the event ends with its own outcome, nothing exits.
        h.monitor.setCallDetectionEnabled(false)
        #expect(h.renderer.current == nil)
        // On: the call is still live, so the policy is back at once.
        h.monitor.setCallDetectionEnabled(true)
        #expect(h.renderer.current?.remaining == 2)
        h.advance(2)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 2 button=Close App", "1 alert terminate 1 button=Close App",
            "1.5 event ended", "1.5 dismiss", "1.5 outcome callDetectionDisabled",
            "1.5 event ringing", "1.5 alert terminate 2 button=Close App",
            "2.5 alert terminate 1 button=Close App", "3.5 alert terminate 0 button=Close App", "3.5 outcome forceExit", "3.5 exit 0",
        ])
    }
}

// Split out of EscalationTests.swift so that each file holds one suite, named as the file (issue 39).

import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Bypass attempts on the capture escalation", .nothingLeftScheduled)
struct EscalationBypassTests {
    /// One run: the policy in force, a call, and capture flapping on and off twice a second;
    /// the escalation set (or not) before it all. Returns everything observed.
    func run(appWide: MonitorPolicy, protection: MonitorPolicy?, escalation: MonitorPolicy?) throws -> [String] {
        let h = Harness(logsOutcomes: true)
        switch escalation?.flow {
        case .terminate?: h.monitor.protectWhileScreenCaptured(withTerminateIn: escalation!.seconds)
        case .acknowledge?: h.monitor.protectWhileScreenCaptured(withAcknowledgeIn: escalation!.seconds)
        case nil: break
        }
        if appWide.flow == .terminate {
            h.monitor.startMonitoring(withTerminateIn: appWide.seconds)
        } else {
            h.monitor.startMonitoring(withAcknowledgeIn: appWide.seconds)
        }
        let kept = protection.map {
            $0.flow == .terminate ? h.monitor.protect(withTerminateIn: $0.seconds) : h.monitor.protect(withAcknowledgeIn: $0.seconds)
        }
        try h.calls.incoming("A")
        for step in 1...24 {
            h.capture(step % 2 == 1, at: Double(step) * 0.5)
        }
        h.at(40)
        withExtendedLifetime(kept) {}
        return h.take()
    }

    nonisolated static let weaker: [(MonitorPolicy, MonitorPolicy?, MonitorPolicy)] = [
        // Acknowledge under terminate, in either place.
        (MonitorPolicy(flow: .terminate, requestedSeconds: 5), nil, MonitorPolicy(flow: .acknowledge, requestedSeconds: 5)),
        (MonitorPolicy(flow: .acknowledge, requestedSeconds: 0), MonitorPolicy(flow: .terminate, requestedSeconds: 5), MonitorPolicy(flow: .acknowledge, requestedSeconds: 3600)),
        // A longer terminate countdown under a shorter one.
        (MonitorPolicy(flow: .terminate, requestedSeconds: 5), nil, MonitorPolicy(flow: .terminate, requestedSeconds: 30)),
        (MonitorPolicy(flow: .acknowledge, requestedSeconds: 2), MonitorPolicy(flow: .terminate, requestedSeconds: 5), MonitorPolicy(flow: .terminate, requestedSeconds: 6)),
        // The same terminate policy.
        (MonitorPolicy(flow: .terminate, requestedSeconds: 5), nil, MonitorPolicy(flow: .terminate, requestedSeconds: 5)),
        // A shorter acknowledge delay under a longer one.
        (MonitorPolicy(flow: .acknowledge, requestedSeconds: 5), nil, MonitorPolicy(flow: .acknowledge, requestedSeconds: 3)),
    ]

    @Test("An escalation no stricter than the policy in force changes nothing, however the capture flaps: the run is the run without it", arguments: weaker)
    func escalationNeverLowers(appWide: MonitorPolicy, protection: MonitorPolicy?, escalation: MonitorPolicy) throws {
        let with = try run(appWide: appWide, protection: protection, escalation: escalation)
        let without = try run(appWide: appWide, protection: protection, escalation: nil)
        #expect(with == without)
        // And the run without it is the plain policy in force: a terminate 5 exits at 5.
        let strictest = MonitorPolicy.strictest(appWide, protection)!
        if strictest.flow == .terminate {
            #expect(with.suffix(2) == ["5 outcome forceExit", "5 exit 0"])
            #expect(with.filter { $0.hasSuffix("dismiss") }.isEmpty)
        } else {
            #expect(with == ["0 event ringing", "0 alert acknowledge 5 button=-"]
                + (1...5).map { "\($0) alert acknowledge \(5 - $0) button=\($0 == 5 ? "Acknowledge" : "-")" })
        }
    }

    @Test("Capture flapping cannot push back a countdown another protection holds: a stricter escalation pulls the deadline in and it never moves out again")
    func flappingCannotResetAProtectionsCountdown() throws {
        let h = Harness(logsOutcomes: true)
        let transfer = h.monitor.protect(withTerminateIn: 10)
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 4)
        try h.calls.incoming("A")
        h.capture(true, at: 1)
        h.capture(false, at: 2)
        h.capture(true, at: 2.5)
        h.capture(false, at: 3)
        h.at(6)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 10 button=Close App", "1 alert terminate 9 button=Close App",
            // Terminate 4 from 1 ends at 5, sooner than 10: the session's deadline is 5 now.
            "1 dismiss", "1 outcome policyChanged", "1 alert terminate 4 button=Close App",
            "2 alert terminate 3 button=Close App",
            "2 dismiss", "2 outcome policyChanged", "2 alert terminate 3 button=Close App",
            "2.5 dismiss", "2.5 outcome policyChanged", "2.5 alert terminate 3 button=Close App",
            "3 alert terminate 2 button=Close App",
            "3 dismiss", "3 outcome policyChanged", "3 alert terminate 2 button=Close App",
            "4 alert terminate 1 button=Close App", "5 alert terminate 0 button=Close App",
            "5 outcome forceExit", "5 exit 0",
        ])
        withExtendedLifetime(transfer) {}
    }

    @Test("A capture storm during an escalated countdown exits at the first deadline: many flaps within one second reset nothing")
    func captureStormKeepsDeadline() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 30)
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 3)
        try h.calls.incoming("A")
        h.capture(true, at: 1)
        for flap in 0..<200 {
            h.capture(flap % 2 == 1, at: 1.5 + Double(flap) * 0.01)
        }
        // The last flap (at 3.49) leaves the screen captured.
        #expect(h.take().suffix(3) == ["3.49 dismiss", "3.49 outcome policyChanged", "3.49 alert terminate 1 button=Close App"])
        #expect(h.monitor.currentSecurityEvent?.flow == .terminate)
        h.at(10)
        #expect(h.take() == ["4 alert terminate 0 button=Close App", "4 outcome forceExit", "4 exit 0"])
        // One outcome per event: the first acknowledge one, then two per flap (the storm's 200
        // and the capture at 1), the last one the exit.
        #expect(h.outcomes.count == 202)
        #expect(h.outcomes.last?.ending == .forceExit)
    }

    @Test("Issue 26: a bank that sets only the escalation is guarded in the remote-access scam it set it for: the shared screen in a call exits at the first deadline, whatever the capture and the app state do")
    func escalationAloneGuardsTheSharedScreen() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 2)
        h.capture.setCaptured(true)
        h.at(1)
        try h.calls.incoming("X")
        try h.calls.connect("X")
        // "Stop sharing for a moment", "switch to the other app and back".
        h.capture(false, at: 1.5)
        h.app.setForeground(false)
        h.capture(true, at: 2)
        h.app.setForeground(true)
        h.at(10)
        #expect(h.take() == [
            "1 event ringing", "1 alert terminate 2 button=Close App", "1 event started",
            "1.5 dismiss", "1.5 outcome policyChanged",
            "2 alert terminate 1 button=Close App",
            "3 alert terminate 0 button=Close App", "3 outcome forceExit", "3 exit 0",
        ])
    }

    @Test("Capture that starts and stops while no call is live changes nothing and leaves nothing scheduled")
    func captureWithoutCall() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 1)
        for step in 1...6 { h.capture(step % 2 == 1, at: Double(step)) }
        #expect(h.take() == [])
        #expect(h.scheduler.pendingCount == 0)
        #expect(h.outcomes.isEmpty)
    }

    @Test("The escalation set from other threads applies in order with the protections: the last setting wins")
    func fromOtherThreads() async throws {
        let h = Harness(captured: true, logsOutcomes: true)
        let monitor = h.monitor
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        await Task.detached {
            for seconds in (1...300).reversed() {
                monitor.protectWhileScreenCaptured(withTerminateIn: CInt(seconds))
                monitor.stopProtectingWhileScreenCaptured()
            }
            monitor.protectWhileScreenCaptured(withTerminateIn: 7)
        }.value
        await drainMainQueue()
        try h.calls.incoming("A")
        #expect(h.take() == ["0 event ringing", "0 alert terminate 7 button=Close App"])
    }
}

// What a scammer on the phone tells the victim to try, one test each, with the exact outcome.

import Dispatch
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Bypass attempts", .nothingLeftScheduled)
struct BypassTests {
    @Test("Cycling background and foreground during the countdown neither pauses nor restarts it")
    func backgroundCycling() throws {
        let h = Harness()
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        for _ in 0..<12 {
            h.advance(0.2)
            h.app.setForeground(false)
            h.advance(0.05)
            h.app.setForeground(true)
        }
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect terminate 3", "0 event started",
            "1 delegate tick 2", "2 delegate tick 1", "3 delegate tick 0", "3 exit 0",
        ])
    }

    @Test("An app that calls startMonitoring on every didBecomeActive cannot reset the countdown by switching apps")
    func sameStartOnEveryActivationKeepsDeadline() throws {
        let h = Harness()
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        for _ in 0..<10 {
            h.advance(0.25)
            h.app.setForeground(false)
            h.advance(0.05)
            h.app.setForeground(true)
            // What sceneDidBecomeActive does in many apps.
            h.monitor.startMonitoring(withTerminateIn: 3)
        }
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect terminate 3", "0 event started",
            "1 delegate tick 2", "2 delegate tick 1", "3 delegate tick 0", "3 exit 0",
        ])
        #expect(h.source.starts == 1)
    }

    @Test("Putting the call on hold keeps it live: the countdown still ends in an exit")
    func holdAndResume() throws {
        let h = Harness()
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(0.5)
        try h.calls.hold("A")
        h.advance(1)
        try h.calls.resume("A")
        h.advance(1)
        try h.calls.hold("A")
        h.advance(1)
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect terminate 3", "0 event started",
            "1 delegate tick 2", "2 delegate tick 1", "3 delegate tick 0", "3 exit 0",
        ])
    }

    @Test("A second call keeps the session live when the first ends")
    func secondCallKeepsSession() throws {
        let h = Harness()
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: 2)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(0.5)
        try h.calls.incoming("B")
        try h.calls.end("A")
        try h.calls.connect("B")
        h.advance(2)
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect terminate 2", "0 event started",
            "0.5 event ringing", "0.5 event started",
            "1 delegate tick 1", "2 delegate tick 0", "2 exit 0",
        ])
    }

    @Test("A call already in progress when the app opens is caught at start")
    func callInProgressAtStart() throws {
        let h = Harness()
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(600)
        h.monitor.startMonitoring(withTerminateIn: 1)
        h.advance(1)
        #expect(h.take() == ["600 event started", "600 alert terminate 1 button=Close App", "601 alert terminate 0 button=Close App", "601 exit 0"])
    }

    @Test("Reopening the app after the force exit, with the call still live, shows the policy again at once")
    func reopenAfterExit() throws {
        let h = Harness()
        h.monitor.startMonitoring(withTerminateIn: 1)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(1)
        #expect(h.terminator.exitCodes == [0])
        _ = h.take()
        // The app's next launch: a new monitor, the same phone call.
        let renderer = SimulatedAlertRenderer()
        let relaunched = CallMonitor(callSource: h.source, appState: h.app, scheduler: h.scheduler,
                                     alertRenderer: renderer, terminator: SimulatedTerminator())
        h.sharesScheduler(with: relaunched)
        relaunched.startMonitoring(withAcknowledgeIn: 10)
        #expect(renderer.current?.countdown == "Acknowledge in 10 seconds.")
        #expect(renderer.current?.button == nil)
    }

    @Test("A delegate released mid-countdown: the built-in dialog takes over and the exit still comes")
    func delegateReleased() throws {
        let h = Harness()
        var handler: RecordingDelegate? = RecordingDelegate(log: h.log)
        h.monitor.setDelegate(handler)
        h.monitor.startMonitoring(withTerminateIn: 2)
        try h.calls.incoming("A")
        handler = nil
        h.advance(2)
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect terminate 2",
            "1 alert terminate 2 button=Close App", "1 alert terminate 1 button=Close App",
            "2 alert terminate 0 button=Close App", "2 exit 0",
        ])
    }

    @Test("Rapid taps during the acknowledge delay are all refused; after it, fifty taps end the event once")
    func rapidTaps() throws {
        let h = Harness()
        let d = h.delegate()
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        try h.calls.incoming("A")
        let action = try #require(d.lastAction)
        for _ in 0..<50 { action() }
        h.advance(1)
        for _ in 0..<50 { action() }
        h.advance(1)
        for _ in 0..<50 { action() }
        h.advance(5)
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect acknowledge 2", "1 delegate tick 1", "2 delegate tick 0", "2 delegate end",
        ])
    }

    @Test("The closure kept from an earlier call cannot dismiss the warning of the next one")
    func staleClosureAgainstNewEvent() throws {
        let h = Harness()
        let d = h.delegate()
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        let kept = try #require(d.lastAction)
        try h.calls.end("A")
        try h.calls.incoming("B")
        for _ in 0..<5 { kept() }
        h.advance(3)
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect acknowledge 0", "0 event ended", "0 delegate end",
            "0 event ringing", "0 delegate detect acknowledge 0",
        ])
    }

    @Test("Taps from background threads before the delay is over are refused too")
    func backgroundTapsBeforeDelay() async throws {
        let h = Harness()
        let d = h.delegate()
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withAcknowledgeIn: 30)
        try h.calls.incoming("A")
        let carried = UncheckedAction(try #require(d.lastAction))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { for _ in 0..<20 { carried.run() } } }
        }
        await drainMainQueue()
        #expect(h.take() == ["0 event ringing", "0 delegate detect acknowledge 30"])
    }

    @Test("startMonitoring during an event replaces the policy but never leaves the call unguarded")
    func restartDuringEvent() throws {
        let h = Harness()
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        h.advance(4)
        // Rule 11 (issue 11): the policy in force again leaves the countdown where it is.
        h.monitor.startMonitoring(withTerminateIn: 5)
        #expect(h.renderer.current?.remaining == 1)
        h.monitor.startMonitoring(withAcknowledgeIn: 3)
        #expect(h.renderer.current?.flow == .acknowledge)
        #expect(h.renderer.current?.button == nil)
    }

    @Test("setDelegate during an event moves the UI; clearing the delegate brings the built-in dialog back at once")
    func setDelegateDuringEvent() throws {
        let h = Harness()
        let d = h.delegate()
        h.monitor.startMonitoring(withAcknowledgeIn: 5)
        try h.calls.incoming("A")
        h.advance(2)
        h.monitor.setDelegate(d)
        h.monitor.setDelegate(nil)
        #expect(h.renderer.current?.remaining == 3)
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 5 button=-", "1 alert acknowledge 4 button=-", "2 alert acknowledge 3 button=-",
            "2 dismiss", "2 delegate detect acknowledge 3", "2 delegate end", "2 alert acknowledge 3 button=-",
        ])
    }
}

extension BypassTests {
    @Test("Rule 17: acknowledging while the screen is shared is refused on every path: the button, rapid taps, the delegate's closure, the Sendable action from another thread, a hand-over, the same start again")
    func acknowledgeWhileSharing() async throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.setRefusesAcknowledgementWhileScreenCaptured(true)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        // "Share your screen so I can help you."
        h.capture.setCaptured(true)
        #expect(h.renderer.current?.button == "Stop screen sharing to acknowledge")
        for _ in 0..<10 { h.renderer.tapButton() }
        // A delegate takes over; its closure and the Sendable one are refused too.
        let d = h.delegate()
        h.monitor.setDelegate(d)
        for _ in 0..<3 { d.lastAction?() }
        let action = try #require(h.monitor.sendableUserAction())
        await Task.detached { action() }.value
        await drainMainQueue()
        // The policy in force again, and a trip to the background and back, change nothing.
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        h.app.setForeground(false)
        h.app.setForeground(true)
        h.at(30)
        d.lastAction?()
        #expect(h.monitor.currentSecurityEvent?.isAcknowledgementRefused == true)
        #expect(h.outcomes == [])
        // Capture stops: the normal rules resume, and the same closure now acknowledges.
        h.capture.setCaptured(false)
        d.lastAction?()
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 0 button=Acknowledge", "0 event started",
            "0 alert acknowledge 0 button=Stop screen sharing to acknowledge",
            "0 dismiss", "0 delegate detect acknowledge 0",
            "30 delegate end", "30 outcome acknowledged",
        ])
        #expect(h.outcomes.map(\.wasScreenCaptured) == [true])
        #expect(h.outcomes.map(\.surfaces) == [[.builtInDialog, .delegate]])
    }

    @Test("Rule 17: a capture that stops and starts again between taps never lets a stale refusal through, and the call ending still dismisses")
    func sharingToggledAroundTaps() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.setRefusesAcknowledgementWhileScreenCaptured(true)
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        try h.calls.incoming("A")
        h.capture.setCaptured(true)
        h.at(2)
        h.capture.setCaptured(false)
        h.capture.setCaptured(true)
        h.renderer.tapButton()
        #expect(h.monitor.currentSecurityEvent?.isActionAvailable == false)
        try h.calls.end("A")
        #expect(h.renderer.current == nil)
        #expect(h.outcomes.map(\.ending) == [.callEnded])
        #expect(h.outcomes.map(\.wasScreenCaptured) == [true])
    }
}

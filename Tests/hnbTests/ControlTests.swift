// Split out of ContractTests.swift so that each file holds one suite, named as the file (issue 39).

import Dispatch
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Control", .nothingLeftScheduled)
struct ControlTests {
    @Test("Rule 10: stopMonitoring dismisses the UI, cancels timers and reports nothing more; the source stops when the session it follows ends")
    func rule10_stopDismissesSilently() throws {
        let h = Harness()
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        h.advance(1)
        h.monitor.stopMonitoring()
        #expect(h.scheduler.pendingCount == 0)
        // Issue 26: the session outlives the policy, so the source runs until it ends.
        #expect(h.source.stops == 0)
        try h.calls.connect("A")
        try h.calls.end("A")
        #expect(h.source.stops == 1)
        try h.calls.incoming("B")
        h.advance(30)
        h.monitor.stopMonitoring()
        #expect(h.take() == ["0 event ringing", "0 delegate detect terminate 5", "1 delegate tick 4", "1 delegate end"])
        #expect(h.terminator.exitCodes.count == 0)
        #expect(h.source.stops == 1)
    }

    @Test("Rule 10: after the stop a live session is followed silently: no callback, no event stream, no outcome, no UI, no wake-up, the risk signals read as stopped; its end stops the source and the next session starts afresh")
    func rule10_followingIsSilent() async throws {
        let h = Harness(logsOutcomes: true)
        let stream = h.monitor.events
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        h.at(1)
        h.monitor.stopMonitoring()
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 5 button=Close App", "1 alert terminate 4 button=Close App",
            "1 dismiss", "1 outcome monitoringStopped",
        ])
        try h.calls.connect("A")
        h.at(2)
        try h.calls.incoming("B")
        h.app.setForeground(false)
        h.app.setForeground(true)
        h.capture.setCaptured(true)
        h.renderer.tapButton()
        h.at(3)
        #expect(h.monitor.isMonitoring == false)
        #expect(h.monitor.callState == .idle)
        #expect(h.monitor.isScreenCaptured == false)
        #expect(h.monitor.currentSecurityEvent == nil)
        #expect(h.monitor.wasCallLive(withinLast: 2) == true)
        #expect(h.monitor.wasCallLive(withinLast: 1.9) == false)
        #expect(h.scheduler.pendingCount == 0)
        #expect(h.source.stops == 0)
        try h.calls.end("A")
        try h.calls.end("B")
        #expect(h.source.stops == 1)
        h.capture.setCaptured(false)
        // The session is over: the next one, under a new start, is fresh.
        h.at(4)
        try h.calls.incoming("C")
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.end("C")
        #expect(h.take() == [
            "4 event ringing", "4 alert terminate 5 button=Close App", "4 event ended", "4 dismiss", "4 outcome callEnded",
        ])
        #expect(h.source.starts == 2)
        var seen: [CallEvent] = []
        for await event in stream {
            seen.append(event)
            if seen.count == 3 { break }
        }
        #expect(seen == [.ringing, .ringing, .ended])
        #expect(h.outcomes.map(\.ending) == [.monitoringStopped, .callEnded])
    }

    @Test("Rule 10 with rules 2, 4 and 21: a start during the followed session resumes it: the calls in progress are reported, the acknowledgement stands, the terminate deadline is kept")
    func rule10_startResumesFollowedSession() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        #expect(h.renderer.tapButton())
        h.monitor.stopMonitoring()
        try h.calls.connect("A")
        // The same policy again: A was acknowledged under it, so nothing shows.
        h.at(1)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        h.at(2)
        h.monitor.startMonitoring(withTerminateIn: 4)
        h.at(3)
        h.monitor.stopMonitoring()
        h.at(5)
        h.monitor.startMonitoring(withTerminateIn: 4)
        h.at(7)
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 0 button=Acknowledge", "0 dismiss", "0 outcome acknowledged",
            "1 event started",
            "2 alert terminate 4 button=Close App", "3 alert terminate 3 button=Close App",
            "3 dismiss", "3 outcome monitoringStopped",
            // The deadline of the countdown from 2 is 6: 1 s is left, not 4.
            "5 event started", "5 alert terminate 1 button=Close App",
            "6 alert terminate 0 button=Close App", "6 outcome forceExit", "6 exit 0",
        ])
    }

    @Test("Rule 10 with rule 22: detection switched off ends the followed session at once; the source stops and nothing is reported")
    func rule10_detectionOffEndsFollowing() throws {
        let h = Harness(logsOutcomes: true)
        let p = h.monitor.protect(withTerminateIn: 5)
        try h.calls.incoming("A")
        p.end()
        _ = h.take()
        h.monitor.setCallDetectionEnabled(false)
        #expect(h.source.stops == 1)
        h.monitor.setCallDetectionEnabled(true)
        #expect(h.source.starts == 1)
        // The session was forgotten: a new protection starts a fresh one (detection on again).
        h.at(1)
        let q = h.monitor.protect(withTerminateIn: 5)
        #expect(h.take() == ["1 event ringing", "1 alert terminate 5 button=Close App"])
        #expect(h.source.starts == 2)
        withExtendedLifetime(q) {}
    }

    @Test("Rule 10 with rule 25: a policy set again while following a call on a shared screen resumes it escalated at once")
    func rule10_resumeOnSharedScreenEscalates() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 30)
        try h.calls.incoming("A")
        h.capture.setCaptured(true)
        h.monitor.stopMonitoring()
        _ = h.take()
        h.at(1)
        // Only the escalation is set again: the screen is still shared, so it is in force at once.
        h.monitor.protectWhileScreenCaptured(withTerminateIn: 3)
        h.at(4)
        #expect(h.take() == [
            "1 event ringing", "1 alert terminate 3 button=Close App",
            "2 alert terminate 2 button=Close App", "3 alert terminate 1 button=Close App",
            "4 alert terminate 0 button=Close App", "4 outcome forceExit", "4 exit 0",
        ])
    }

    @Test("Rule 10 with rule 19: an exemption taken back while following makes the call join the followed session, which keeps its deadline")
    func rule10_exemptionTakenBackWhileFollowing() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.exemptCall(CallID("A"))
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        try h.calls.incoming("B")
        h.monitor.stopMonitoring()
        h.monitor.removeExemption(CallID("A"))
        // B ends; A counts now, so the session goes on and is still followed.
        try h.calls.end("B")
        #expect(h.source.stops == 0)
        _ = h.take()
        h.at(2)
        h.monitor.startMonitoring(withTerminateIn: 5)
        h.at(5)
        // The session's deadline from B's countdown at 0 is 5: 3 s are left at 2, not 5.
        #expect(h.take() == [
            "2 event ringing", "2 alert terminate 3 button=Close App",
            "3 alert terminate 2 button=Close App", "4 alert terminate 1 button=Close App",
            "5 alert terminate 0 button=Close App", "5 outcome forceExit", "5 exit 0",
        ])
    }

    @Test("Rule 22 with rule 19: an exemption taken back while detection is off brings no call back; with detection on the call counts")
    func rule22_exemptionTakenBackWhileDetectionOff() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.exemptCall(CallID("A"))
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        h.monitor.setCallDetectionEnabled(false)
        h.monitor.removeExemption(CallID("A"))
        h.at(10)
        // Detection is off: no call is seen, so nothing warns and nothing exits.
        #expect(h.take() == [])
        h.monitor.setCallDetectionEnabled(true)
        #expect(h.take() == ["10 event ringing", "10 alert terminate 5 button=Close App"])
        h.monitor.stopMonitoring()
        try h.calls.end("A")
    }

    @Test("Rule 10: stop with the built-in dialog on screen removes it")
    func rule10_stopRemovesDefaultDialog() throws {
        let h = Harness()
        h.monitor.startMonitoring(withAcknowledgeIn: 5)
        try h.calls.incoming("A")
        h.monitor.stopMonitoring()
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 5 button=-", "0 dismiss"])
        #expect(h.renderer.current == nil)
    }

    @Test("Rule 11: start with another policy during an event ends it and starts one under the new policy at once; the calls are not reported again")
    func rule11_restartSwitchesPolicy() throws {
        let h = Harness()
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(2)
        h.monitor.startMonitoring(withAcknowledgeIn: 3)
        h.advance(3)
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect terminate 5", "0 event started",
            "1 delegate tick 4", "2 delegate tick 3",
            "2 delegate end", "2 delegate detect acknowledge 3",
            "3 delegate tick 2", "4 delegate tick 1", "5 delegate tick 0",
        ])
        // Issue 19: the call source keeps running through a change of policy.
        #expect(h.source.starts == 1)
        #expect(h.source.stops == 0)
        #expect(h.terminator.exitCodes.count == 0)
    }

    @Test("Rule 11: the policy in force again (after clamping) changes nothing: no event, no UI change, the deadline stands")
    func rule11_samePolicyChangesNothing() throws {
        let h = Harness()
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: 1)
        try h.calls.incoming("A")
        h.advance(0.5)
        h.monitor.startMonitoring(withTerminateIn: 0)
        h.monitor.startMonitoring(withTerminateIn: -7)
        #expect(h.source.starts == 1)
        #expect(h.source.stops == 0)
        h.advance(0.5)
        #expect(h.take() == ["0 event ringing", "0 delegate detect terminate 1", "1 delegate tick 0", "1 exit 0"])
    }

    @Test("Rule 11: the same acknowledge policy again keeps the delay running and the acknowledgement standing")
    func rule11_samePolicyAcknowledge() throws {
        let h = Harness()
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(1)
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        h.advance(1)
        #expect(h.renderer.tapButton())
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        h.advance(5)
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 2 button=-", "0 event started",
            "1 alert acknowledge 1 button=-", "2 alert acknowledge 0 button=Acknowledge", "2 dismiss",
        ])
    }

    @Test("Rule 11: start with no call live only changes the policy for the next call")
    func rule11_restartWithoutCall() throws {
        let h = Harness()
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: 5)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        #expect(h.take() == ["0 event ringing", "0 delegate detect acknowledge 0"])
    }

    @Test("Rule 12: onUserAction acts once however often it is called")
    func rule12_actsOnce() throws {
        let h = Harness()
        let d = h.delegate()
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        for _ in 0..<5 { d.lastAction?() }
        h.advance(10)
        #expect(h.take() == ["0 event ringing", "0 delegate detect terminate 5", "0 exit 0"])
        #expect(h.terminator.exitCodes.count == 1)
    }

    @Test("Rule 12: a closure from an ended event does nothing to the next one")
    func rule12_staleClosureIgnored() throws {
        let h = Harness()
        let d = h.delegate()
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        let stale = try #require(d.lastAction)
        try h.calls.end("A")
        try h.calls.incoming("B")
        stale()
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect acknowledge 0", "0 event ended", "0 delegate end",
            "0 event ringing", "0 delegate detect acknowledge 0",
        ])
        d.lastAction?()
        #expect(h.take() == ["0 delegate end"])
    }

    @Test("Rule 12: onUserAction called from background threads is applied once, on the main thread")
    func rule12_fromBackgroundThreads() async throws {
        let h = Harness()
        let d = h.delegate()
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        let action = try #require(d.lastAction)
        let sendable = UncheckedAction(action)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { sendable.run() } }
        }
        await drainMainQueue()
        #expect(h.take() == ["0 event ringing", "0 delegate detect terminate 5", "0 exit 0"])
        #expect(h.terminator.exitCodes.count == 1)
    }

    @Test("Rule 13: setting a delegate during an event hands the UI over with the current value")
    func rule13_handOverToDelegate() throws {
        let h = Harness()
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        h.advance(2)
        let a = h.delegate("A")
        let b = h.delegate("B")
        h.monitor.setDelegate(a)
        h.advance(1)
        h.monitor.setDelegate(b)
        h.monitor.setDelegate(b)
        h.advance(1)
        h.monitor.setDelegate(nil)
        h.monitor.setDelegate(nil)
        h.advance(1)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 5 button=Close App",
            "1 alert terminate 4 button=Close App", "2 alert terminate 3 button=Close App",
            "2 dismiss", "2 A detect terminate 3",
            "3 A tick 2",
            "3 A end", "3 B detect terminate 2",
            "4 B tick 1",
            "4 B end", "4 alert terminate 1 button=Close App",
            "5 alert terminate 0 button=Close App", "5 exit 0",
        ])
        _ = (a, b)
    }

    @Test("Rule 13: a closure handed to a replaced delegate is stale")
    func rule13_replacedDelegateClosureIsStale() throws {
        let h = Harness()
        let a = h.delegate("A")
        let b = h.delegate("B")
        h.monitor.setDelegate(a)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        h.monitor.setDelegate(b)
        a.lastAction?()
        #expect(h.take() == ["0 event ringing", "0 A detect acknowledge 0", "0 A end", "0 B detect acknowledge 0"])
        b.lastAction?()
        #expect(h.take() == ["0 B end"])
    }

    @Test("Rule 13: a delegate released mid-countdown is replaced by the built-in dialog by the next tick; the exit still happens")
    func rule13_releasedDelegateFallsBack() throws {
        let h = Harness()
        var d: RecordingDelegate? = RecordingDelegate(log: h.log)
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("A")
        h.advance(1.5)
        d = nil
        h.advance(2)
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect terminate 3", "1 delegate tick 2",
            "2 alert terminate 2 button=Close App", "2 alert terminate 1 button=Close App",
            "3 alert terminate 0 button=Close App", "3 exit 0",
        ])
    }

    @Test("Rule 13: a delegate released after the acknowledge delay is replaced within a second")
    func rule13_releasedAfterAcknowledgeDelay() throws {
        let h = Harness()
        var d: RecordingDelegate? = RecordingDelegate(log: h.log)
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        try h.calls.incoming("A")
        h.advance(10.5)
        d = nil
        h.advance(1)
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect acknowledge 1", "1 delegate tick 0",
            "11 alert acknowledge 0 button=Acknowledge",
        ])
        h.renderer.tapButton()
        #expect(h.take() == ["11.5 dismiss"])
    }

    @Test("Rule 14: Int32.max seconds neither overflows nor ends early")
    func rule14_int32Max() throws {
        let h = Harness()
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: .max)
        try h.calls.incoming("A")
        h.advance(1)
        h.scheduler.suspend(forSeconds: Double(Int32.max) - 2)
        h.advance(1)
        h.advance(1)
        let max = Int32.max
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect terminate \(max)",
            "1 delegate tick \(max - 1)",
            "\(max - 1) delegate tick 1",
            "\(max) delegate tick 0", "\(max) exit 0",
        ])
    }
}

/// Carries a non-Sendable closure to other threads on purpose, to test rule 12.
/// `@unchecked Sendable`: the monitor documents the closure as callable from any thread.
struct UncheckedAction: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
    func run() { body() }
}

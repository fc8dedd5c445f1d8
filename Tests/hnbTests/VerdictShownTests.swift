// Split out of VerdictTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Verdict: what it shows (rule 24)", .nothingLeftScheduled)
struct VerdictShownTests {
    @Test("Rule 24: the built-in dialog gains the line when the answer comes, keeps countdown and button, and the outcome records it")
    func rule24_dialogLine() throws {
        let v = VerdictHarness(script: [.init(.bankIsNotCalling, afterSeconds: 1.5)], withVerdicts: true)
        v.h.monitor.startMonitoring(withTerminateIn: 3)
        try v.h.calls.incoming("A")
        #expect(v.h.monitor.currentSecurityEvent?.verdict == .unknown)
        v.h.advance(2)
        #expect(v.h.monitor.currentSecurityEvent?.verdict == .bankIsNotCalling)
        v.h.advance(1)
        #expect(v.h.take() == [
            "0 event ringing", "0 alert terminate 3 button=Close App verdict=-",
            "1 alert terminate 2 button=Close App verdict=-",
            "1.5 alert terminate 2 button=Close App verdict=Your bank is not calling you. Hang up now.",
            "2 alert terminate 1 button=Close App verdict=Your bank is not calling you. Hang up now.",
            "3 alert terminate 0 button=Close App verdict=Your bank is not calling you. Hang up now.",
            "3 outcome forceExit lowest=0 verdict=bankIsNotCalling at=1.5", "3 exit 0",
        ])
        #expect(v.verifier.asks == 1)
    }

    @Test("Rule 24: bankIsCalling has its own line, unknown none; the app's strings override both")
    func rule24_linesAndOverride() {
        let english = CallMonitorStrings.english
        #expect(SecurityAlert(flow: .acknowledge, remaining: 0, strings: english, verdict: .bankIsCalling).verdict == "Your bank is on a call with you right now.")
        #expect(SecurityAlert(flow: .acknowledge, remaining: 0, strings: english, verdict: .unknown).verdict == nil)
        let app = CallMonitorStrings(tables: [{ $0 == "call_monitor_verdict_bank_not_calling" ? "Not us. Hang up." : nil }])
        let alert = SecurityAlert(flow: .terminate, remaining: 4, strings: app, verdict: .bankIsNotCalling)
        #expect(alert.verdict == "Not us. Hang up.")
        // Everything else is as without a verdict.
        var plain = SecurityAlert(flow: .terminate, remaining: 4, strings: app)
        plain.verdict = "Not us. Hang up."
        #expect(alert == plain)
    }

    @Test("Rule 24: a verdict delegate is told when the verdict arrives and when it takes over an event with one")
    func rule24_delegate() throws {
        let v = VerdictHarness(script: [.init(.bankIsCalling)], withVerdicts: true)
        let told = VerdictRecordingDelegate("verdicts", log: v.h.log)
        v.h.monitor.setDelegate(told)
        v.h.monitor.startMonitoring(withAcknowledgeIn: 2)
        try v.h.calls.incoming("A")
        v.h.advance(1)
        let other = VerdictRecordingDelegate("other", log: v.h.log)
        v.h.monitor.setDelegate(other)
        v.h.advance(1)
        #expect(v.h.take() == [
            "0 event ringing", "0 verdicts detect acknowledge 2", "0 verdicts verdict bankIsCalling",
            "1 verdicts tick 1", "1 verdicts end", "1 other detect acknowledge 1", "1 other verdict bankIsCalling",
            "2 other tick 0",
        ])
        #expect(v.h.monitor.currentSecurityEvent == CallMonitorSecurityEvent(
            flow: .acknowledge, remaining: 0, seconds: 2, startedAt: 0, isActionAvailable: true, isAcknowledgementRefused: false,
            wasScreenCaptured: false, verdict: .bankIsCalling))
        _ = told
    }

    @Test("Rule 23 with rule 19: a live call whose exemption is removed during an event joins it: the verifier is asked again, and the first call's verdict line gives way to the new answer")
    func rule23_unexemptedCallJoinsTheVerdict() throws {
        let v = VerdictHarness(script: [.init(.bankIsCalling)], withVerdicts: true)
        v.h.monitor.exemptCall(CallID("APP"))
        v.h.monitor.startMonitoring(withTerminateIn: 5)
        try v.h.calls.incoming("A")
        try v.h.calls.outgoing("APP")
        v.h.advance(1)
        // The bank's backend knows of no call for the one that now joins.
        v.verifier.script = [.init(.bankIsNotCalling)]
        v.h.monitor.removeExemption(CallID("APP"))
        v.h.advance(1)
        #expect(v.h.take() == [
            "0 event ringing", "0 alert terminate 5 button=Close App verdict=-",
            "0 alert terminate 5 button=Close App verdict=Your bank is on a call with you right now.",
            "1 alert terminate 4 button=Close App verdict=Your bank is on a call with you right now.",
            "1 alert terminate 4 button=Close App verdict=Your bank is not calling you. Hang up now.",
            "2 alert terminate 3 button=Close App verdict=Your bank is not calling you. Hang up now.",
        ])
        #expect(v.verifier.asks == 2)
        #expect(v.h.monitor.currentSecurityEvent?.verdict == .bankIsNotCalling)
    }

    @Test("Rule 23: a real async verifier runs off the main thread and its answer reaches the event")
    func rule23_asyncVerifier() async throws {
        let v = VerdictHarness(script: nil, withVerdicts: true)
        let ranOnMain = Locked<Bool?>(nil)
        v.h.monitor.setCallVerifier {
            ranOnMain.set(Thread.isMainThread)
            return .bankIsNotCalling
        }
        v.h.monitor.startMonitoring(withAcknowledgeIn: 5)
        try v.h.calls.incoming("A")
        await Patience.wait { v.h.monitor.currentSecurityEvent?.verdict == .bankIsNotCalling }
        #expect(v.h.monitor.currentSecurityEvent?.verdict == .bankIsNotCalling)
        #expect(ranOnMain.value == false)
        v.h.monitor.stopMonitoring()
    }

    @Test("Rule 23: an async verifier that hangs leaves unknown at the budget's end and holds nothing back")
    func rule23_hangingAsyncVerifier() throws {
        let v = VerdictHarness(script: nil, withVerdicts: true)
        v.h.monitor.setCallVerifier {
            try? await Task.sleep(nanoseconds: 3_600_000_000_000)
            return .bankIsCalling
        }
        v.h.monitor.setCallVerifierBudget(1)
        v.h.monitor.startMonitoring(withTerminateIn: 2)
        try v.h.calls.incoming("A")
        v.h.advance(2)
        #expect(v.h.take() == [
            "0 event ringing", "0 alert terminate 2 button=Close App verdict=-", "1 alert terminate 1 button=Close App verdict=-",
            "2 alert terminate 0 button=Close App verdict=-", "2 outcome forceExit lowest=0 verdict=unknown at=1", "2 exit 0",
        ])
        #expect(v.h.scheduler.pendingCount == 0)
    }
}

/// A recording delegate that also adopts the verdict protocol.
@MainActor
private final class VerdictRecordingDelegate: CallMonitorDelegate, CallMonitorVerdictDelegate {
    let inner: RecordingDelegate
    let log: Log
    let name: String
    init(_ name: String, log: Log) {
        self.name = name
        self.log = log
        inner = RecordingDelegate(name, log: log)
    }
    var lastAction: (() -> Void)? { inner.lastAction }
    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: Int32, onUserAction: @escaping () -> Void) {
        inner.callMonitorDidDetectCall(flow: flow, initialRemaining: initialRemaining, onUserAction: onUserAction)
    }
    func callMonitorCountdownTick(_ remaining: Int32) { inner.callMonitorCountdownTick(remaining) }
    func callMonitorDidEndCall() { inner.callMonitorDidEndCall() }
    func callMonitorDidReceiveVerdict(_ verdict: CallMonitorCallVerdict) {
        expectOnMainQueue()
        log.add("\(name) verdict \(verdict)")
    }
}

// Split out of ContextTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

/// A delegate that records the contexts it is told, beside the calls of the seed's protocol.
@MainActor
final class ContextRecordingDelegate: CallMonitorDelegate, CallMonitorContextDelegate {
    let log: Log
    init(log: Log) { self.log = log }
    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: Int32, onUserAction: @escaping () -> Void) {
        log.add("detect \(flow) \(initialRemaining)")
    }
    func callMonitorCountdownTick(_ remaining: Int32) { log.add("tick \(remaining)") }
    func callMonitorDidEndCall() { log.add("end") }
    func callMonitorDidChangeContext(_ context: CallMonitorContext?) { log.add("context \(context.map(\.description) ?? "none")") }
}

@MainActor
@Suite("Context: what the monitor shows and tells (rule 29)", .nothingLeftScheduled)
struct ContextShownTests {
    @Test("The built-in dialog draws the kind line and the cleaned detail, and is redrawn when the context changes")
    func builtInDialogDraws() throws {
        let h = Harness()
        var frames: [SecurityAlert?] = []
        h.renderer.onChange = { frames.append($0) }
        let first = h.monitor.protect(withTerminateIn: 5, context: CallMonitorContext(kind: .payment, detail: "You are sending €2,000 to \u{202E}M."))
        try h.calls.incoming("A")
        let alert = try #require(h.renderer.current)
        #expect(alert.kindLine == "Your bank will never ask you to move money while you are on a call.")
        #expect(alert.detail == "You are sending €2,000 to M.")
        #expect(alert.contextKind == .payment)
        #expect(h.monitor.currentSecurityEvent?.context == CallMonitorContext(kind: .payment, detail: "You are sending €2,000 to M."))
        let second = h.monitor.protect(withTerminateIn: 5, context: CallMonitorContext(kind: .general, detail: "Review the payee."))
        let redrawn = try #require(h.renderer.current)
        #expect(redrawn.kindLine == nil && redrawn.detail == "Review the payee." && redrawn.remaining == 5 && redrawn.countdown == alert.countdown)
        #expect(frames.count == 2)
        second.end()
        first.end()
        #expect(h.outcomes.map(\.ending) == [.monitoringStopped])
    }

    @Test("A context delegate is told after the detect call and on each change; the countdown goes on as before")
    func delegateTold() throws {
        let h = Harness(callback: false)
        let delegate = ContextRecordingDelegate(log: h.log)
        h.monitor.setDelegate(delegate)
        let first = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .deviceChange, detail: "Adding iPad."))
        try h.calls.incoming("A")
        h.advance(1)
        let second = h.monitor.protect(withAcknowledgeIn: 2)
        h.advance(1)
        second.end()
        try h.calls.end("A")
        first.end()
        #expect(h.take() == [
            "0 detect acknowledge 2", "0 context deviceChange \"Adding iPad.\"",
            "1 tick 1", "1 context none",
            "2 tick 0", "2 context deviceChange \"Adding iPad.\"",
            "2 end",
        ])
    }

    @Test("An event with no context tells a context delegate nothing at its presentation: no `nil` context before any was told")
    func noContextNothingTold() throws {
        let h = Harness(callback: false)
        let delegate = ContextRecordingDelegate(log: h.log)
        h.monitor.setDelegate(delegate)
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        try h.calls.incoming("A")
        h.advance(1)
        try h.calls.end("A")
        h.monitor.stopMonitoring()
        #expect(h.take() == ["0 detect acknowledge 2", "1 tick 1", "1 end"])
    }

    @Test("The event snapshot's description names the kind")
    func snapshotDescription() {
        let event = CallMonitorSecurityEvent(
            flow: .terminate, remaining: 3, seconds: 5, startedAt: 0, isActionAvailable: true, isAcknowledgementRefused: false,
            wasScreenCaptured: false, context: CallMonitorContext(kind: .accountChange)
        )
        #expect(event.description == "terminate 3/5 action=true refused=false captured=false context=accountChange")
        #expect(event != CallMonitorSecurityEvent(
            flow: .terminate, remaining: 3, seconds: 5, startedAt: 0, isActionAvailable: true, isAcknowledgementRefused: false,
            wasScreenCaptured: false
        ))
    }
}

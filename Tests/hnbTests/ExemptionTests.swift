// Split out of GuardContractTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("The app's own calls", .nothingLeftScheduled)
struct ExemptionTests {
    @Test("Rule 19: an exempt call starts no event, reaches neither the callback nor the risk signals; every other call counts as before")
    func rule19_exemptCallIsInvisible() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.exemptCall(CallID("BANK"))
        h.monitor.startMonitoring(withTerminateIn: 2)
        try h.calls.outgoing("BANK")
        try h.calls.connect("BANK")
        h.advance(5)
        #expect(h.monitor.callState == .idle)
        #expect(h.monitor.wasCallLive(withinLast: 1000) == false)
        try h.calls.incoming("SCAM")
        h.advance(1)
        try h.calls.end("SCAM")
        h.advance(1)
        try h.calls.end("BANK")
        #expect(h.take() == [
            "5 event ringing", "5 alert terminate 2 button=Close App", "6 alert terminate 1 button=Close App",
            "6 event ended", "6 dismiss", "6 outcome callEnded",
        ])
    }

    @Test("Rule 19: exempting a call during its own event ends the event as if the call had ended, with outcome callExempted")
    func rule19_exemptDuringOwnEvent() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("VIDEO-ID")
        h.advance(1.5)
        h.monitor.exemptCall(CallID("VIDEO-ID"))
        h.advance(5)
        try h.calls.connect("VIDEO-ID")
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 3 button=Close App", "1 alert terminate 2 button=Close App",
            "1.5 event ended", "1.5 dismiss", "1.5 outcome callExempted",
        ])
        #expect(h.terminator.exitCodes == [])
        #expect(h.scheduler.pendingCount == 0)
    }

    @Test("Rule 19: exempting one of two live calls leaves the event running for the other")
    func rule19_exemptOneOfTwo() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("A")
        try h.calls.incoming("B")
        try h.calls.connect("B")
        h.advance(1)
        h.monitor.exemptCall(CallID("B"))
        h.advance(2)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 3 button=Close App", "0 event started",
            "1 alert terminate 2 button=Close App", "1 event ringing",
            "2 alert terminate 1 button=Close App", "3 alert terminate 0 button=Close App",
            "3 outcome forceExit", "3 exit 0",
        ])
    }

    @Test("Rules 19 and 4: the app's own exempt then unexempt of a call an acknowledgement covered warns again: the exemption forgot the acknowledgement (fail closed)")
    func rule19_exemptionForgetsAcknowledgement() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        try h.calls.incoming("B")
        try h.calls.connect("A")
        #expect(h.renderer.tapButton())
        h.at(1)
        h.monitor.exemptCall(CallID("A"))
        h.at(2)
        h.monitor.removeExemption(CallID("A"))
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 0 button=Acknowledge", "0 event started", "0 dismiss", "0 outcome acknowledged",
            // A leaves the visible calls: only B rings, still acknowledged.
            "1 event ringing",
            // A counts again, not covered any more: the warning is back at once.
            "2 event started", "2 alert acknowledge 0 button=Acknowledge",
        ])
    }

    @Test("Rule 19: removing the exemption of a live call makes it count at once")
    func rule19_removeExemption() throws {
        let h = Harness()
        h.monitor.exemptCall(CallID("A"))
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(2)
        #expect(h.take() == [])
        h.monitor.removeExemption(CallID("A"))
        h.advance(1)
        #expect(h.take() == ["2 event started", "2 alert acknowledge 1 button=-", "3 alert acknowledge 0 button=Acknowledge"])
    }

    @Test("Rule 19: an exempt call that ends takes its exemption with it: removing the exemption afterwards brings back no call, no countdown and no exit")
    func rule19_endedExemptCallStaysEnded() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.exemptCall(CallID("A"))
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("A")
        h.advance(1)
        // The end comes as a change, and no complete list follows that could clear the exemption.
        try h.calls.end("A")
        h.advance(1)
        h.monitor.removeExemption(CallID("A"))
        h.advance(5)
        #expect(h.take() == [])
        #expect(h.monitor.callState == .idle)
        #expect(h.monitor.wasCallLive(withinLast: 1000) == false)
        #expect(h.terminator.exitCodes == [])
        #expect(h.scheduler.pendingCount == 0)
    }

    @Test("Rule 19: an exemption lasts for one call: forgotten when it ends, or when a complete list no longer holds it")
    func rule19_exemptionLastsOneCall() {
        var engine = MonitorEngine()
        let a = CallSnapshot(id: CallID("A"))
        let b = CallSnapshot(id: CallID("B"))
        var endedA = a
        endedA.hasEnded = true
        _ = engine.handle(.start(MonitorPolicy(flow: .acknowledge, requestedSeconds: 0)), now: 0)
        _ = engine.handle(.exempt(CallID("A")), now: 0)
        _ = engine.handle(.exempt(CallID("B")), now: 0)
        #expect(engine.handle(.calls(.changes([a, b])), now: 0) == [])
        #expect(engine.handle(.calls(.changes([endedA])), now: 0) == [])
        // A's end, a change, forgot A's exemption by itself.
        #expect(engine.guards.exemptLive == [CallID("B"): LiveCall(isConnected: false, isOutgoing: false)] && engine.guards.exemptPending.isEmpty)
        // B's end notification is lost; the complete list no longer holds it.
        #expect(engine.handle(.calls(.complete([])), now: 0) == [])
        #expect(engine.guards.exemptLive.isEmpty && engine.guards.exemptPending.isEmpty)
        // The same identifiers again are new calls, guarded like any other.
        #expect(engine.handle(.calls(.changes([a])), now: 0) == [.emit(.ringing), .present(.acknowledge, remaining: 0, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog), .schedule(at: 1_000_000_000)])
        #expect(engine.handle(.calls(.changes([b])), now: 0) == [])
        #expect(engine.callState == .ringing)
    }

    @Test("Rule 19: at most 16 exemptions for calls not yet seen; a 17th drops the oldest, whose call is then guarded")
    func rule19_pendingBound() throws {
        let h = Harness()
        #expect(MonitorEngine.pendingExemptionLimit == 16)
        for n in 0...16 { h.monitor.exemptCall(CallID("C\(n)")) }
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        for n in 1...16 { try h.calls.incoming("C\(n)") }
        #expect(h.take() == [])
        try h.calls.incoming("C0")
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 0 button=Acknowledge"])
    }

    @Test("Rule 19: the engine never lets an exempt identifier hide another call in the same complete list")
    func rule19_engineCompleteList() {
        var engine = MonitorEngine()
        _ = engine.handle(.exempt(CallID("BANK")), now: 0)
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 2)), now: 0)
        let bank = CallSnapshot(id: CallID("BANK"), hasConnected: true)
        let scam = CallSnapshot(id: CallID("SCAM"))
        #expect(engine.handle(.calls(.complete([bank])), now: 0) == [])
        #expect(engine.handle(.calls(.complete([bank, scam])), now: 0) == [
            .emit(.ringing), .present(.terminate, remaining: 2, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog), .schedule(at: 1_000_000_000),
        ])
        #expect(engine.handle(.calls(.complete([bank])), now: 5) == [
            .emit(.ended), .dismiss(on: .builtInDialog), .cancelWakeUp,
            .outcome(.engine(
                ending: .callEnded, flow: .terminate, total: 2, startedAt: 0, endedAt: 5, lowestRemaining: 2, wasScreenCaptured: false,
                presentations: [.init(surface: .builtInDialog, at: 0, remaining: 2)]
            )),
        ])
    }
}

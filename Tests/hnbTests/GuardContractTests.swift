// Rules 18 to 22 of the behaviour contract (issue 19) and the changed rules 4 and 6: protections
// and the strictest policy, the app's own calls, observe-only monitoring, the session's terminate
// deadline, the detection switch, and acknowledgements that cover only the calls they saw. Every
// test asserts the exact outputs with their times.

import Foundation
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Protections", .nothingLeftScheduled)
struct ProtectionTests {
    @Test("Rule 18: terminate beats acknowledge; fewer terminate seconds and more acknowledge seconds are stricter", arguments: [
        (MonitorPolicy(flow: .terminate, requestedSeconds: 30), MonitorPolicy(flow: .acknowledge, requestedSeconds: 0), true),
        (MonitorPolicy(flow: .acknowledge, requestedSeconds: 3600), MonitorPolicy(flow: .terminate, requestedSeconds: 1), false),
        (MonitorPolicy(flow: .terminate, requestedSeconds: 5), MonitorPolicy(flow: .terminate, requestedSeconds: 10), true),
        (MonitorPolicy(flow: .terminate, requestedSeconds: 10), MonitorPolicy(flow: .terminate, requestedSeconds: 5), false),
        (MonitorPolicy(flow: .acknowledge, requestedSeconds: 10), MonitorPolicy(flow: .acknowledge, requestedSeconds: 5), true),
        (MonitorPolicy(flow: .acknowledge, requestedSeconds: 5), MonitorPolicy(flow: .acknowledge, requestedSeconds: 10), false),
        (MonitorPolicy(flow: .terminate, requestedSeconds: -4), MonitorPolicy(flow: .terminate, requestedSeconds: 1), true),
    ])
    func rule18_strictness(a: MonitorPolicy, b: MonitorPolicy, aIsAtLeastAsStrict: Bool) {
        #expect(a.isAtLeastAsStrict(as: b) == aIsAtLeastAsStrict)
        #expect(MonitorPolicy.strictest(a, b) == (aIsAtLeastAsStrict ? a : b))
        #expect(MonitorPolicy.strictest(b, a) == (b.isAtLeastAsStrict(as: a) ? b : a))
        #expect(MonitorPolicy.strictest(nil, a) == a)
        #expect(MonitorPolicy.strictest(a, nil) == a)
    }

    @Test("Rule 18: a protection alone monitors; its end with nothing else open is stopMonitoring, which follows the session to its end (rule 10); end is idempotent")
    func rule18_protectionAloneMonitors() throws {
        let h = Harness()
        h.logOutcomes()
        let p = h.monitor.protect(withTerminateIn: 3)
        #expect(h.monitor.isMonitoring)
        try h.calls.incoming("A")
        h.advance(1)
        p.end()
        p.end()
        #expect(!h.monitor.isMonitoring)
        try h.calls.connect("A")
        h.advance(5)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 3 button=Close App", "1 alert terminate 2 button=Close App",
            "1 dismiss", "1 outcome monitoringStopped",
        ])
        #expect(h.source.starts == 1)
        // Issue 26: the source runs until the session it follows ends.
        #expect(h.source.stops == 0)
        try h.calls.end("A")
        #expect(h.take() == [])
        #expect(h.source.stops == 1)
        #expect(h.scheduler.pendingCount == 0)
    }

    @Test("Rule 18: the strictest of the app-wide policy and the open protections is in force; each change ends the event and starts one at once; the calls are not reported again")
    func rule18_strictestInForce() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withAcknowledgeIn: 5)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(0.5)
        let transfer = h.monitor.protect(withTerminateIn: 10)
        h.advance(1.5)
        let approval = h.monitor.protect(withAcknowledgeIn: 30)
        h.advance(1)
        transfer.end()
        h.advance(1)
        approval.end()
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 5 button=-", "0 event started",
            "0.5 dismiss", "0.5 outcome policyChanged", "0.5 alert terminate 10 button=Close App",
            "1.5 alert terminate 9 button=Close App", "2.5 alert terminate 8 button=Close App",
            "3 dismiss", "3 outcome policyChanged", "3 alert acknowledge 30 button=-",
            "4 alert acknowledge 29 button=-",
            "4 dismiss", "4 outcome policyChanged", "4 alert acknowledge 5 button=-",
        ])
        #expect(h.source.starts == 1)
        #expect(h.source.stops == 0)
    }

    @Test("Rule 18: stopMonitoring ends the app-wide policy only; the open protection goes on guarding, and its end stops")
    func rule18_stopEndsAppWideOnly() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withTerminateIn: 5)
        let p = h.monitor.protect(withAcknowledgeIn: 3)
        try h.calls.incoming("A")
        h.advance(1.5)
        h.monitor.stopMonitoring()
        #expect(h.monitor.isMonitoring)
        h.advance(1)
        h.monitor.stopMonitoring()
        p.end()
        h.advance(5)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 5 button=Close App", "1 alert terminate 4 button=Close App",
            "1.5 dismiss", "1.5 outcome policyChanged", "1.5 alert acknowledge 3 button=-",
            "2.5 alert acknowledge 2 button=-",
            "2.5 dismiss", "2.5 outcome monitoringStopped",
        ])
        #expect(!h.monitor.isMonitoring)
        #expect(h.terminator.exitCodes == [])
    }

    @Test("Rule 18 with rule 11: a change that leaves the policy in force the same changes nothing; the deadline stands")
    func rule18_sameInForceChangesNothing() throws {
        let h = Harness()
        h.logOutcomes()
        let p = h.monitor.protect(withTerminateIn: 3)
        try h.calls.incoming("A")
        h.advance(0.5)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        h.monitor.startMonitoring(withAcknowledgeIn: 9)
        h.monitor.startMonitoring(withTerminateIn: 7)
        h.monitor.stopMonitoring()
        h.monitor.startMonitoring()
        let same = h.monitor.protect(withTerminateIn: 3)
        let weaker = h.monitor.protect(withTerminateIn: 4)
        weaker.end()
        h.advance(3)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 3 button=Close App", "1 alert terminate 2 button=Close App",
            "2 alert terminate 1 button=Close App", "3 alert terminate 0 button=Close App",
            "3 outcome forceExit", "3 exit 0",
        ])
        withExtendedLifetime((p, same)) {}
    }

    @Test("Rule 18: a protection released without end() keeps protecting (fail closed)")
    func rule18_releasedWithoutEndKeepsProtecting() throws {
        let h = Harness()
        _ = h.monitor.protect(withAcknowledgeIn: 2)
        h.monitor.stopMonitoring()
        try h.calls.incoming("A")
        h.advance(1)
        #expect(h.monitor.isMonitoring)
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 2 button=-", "1 alert acknowledge 1 button=-"])
    }

    @Test("Rule 18: protections begun and ended on other threads apply in the order they were made; a storm that folds the mailbox loses none")
    func rule18_fromOtherThreads() async throws {
        let h = Harness()
        let monitor = h.monitor
        let keptProtections = ProtectionBox()
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    for _ in 0..<300 {
                        let p = monitor.protect(withTerminateIn: 2)
                        p.end()
                    }
                    // One left open per thread; the strictest (acknowledge 4 is the strictest
                    // acknowledge policy) must be in force once everything is applied.
                    let kept = monitor.protect(withAcknowledgeIn: CInt(thread + 1))
                    keptProtections.append(kept)
                }
            }
        }
        await drainMainQueue()
        try h.calls.incoming("A")
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 4 button=-"])
        // Ended in whatever order the threads finished: each end may change the policy in force,
        // and the last one stops.
        for kept in keptProtections.all { kept.end() }
        await drainMainQueue()
        #expect(!h.monitor.isMonitoring)
        #expect(h.take().last == "0 dismiss")
        #expect(h.renderer.current == nil)
    }
}

/// Protections kept by the threads of ``ProtectionTests/rule18_fromOtherThreads()``.
///
/// `@unchecked Sendable`: `items` is only touched under `lock`.
private final class ProtectionBox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [CallMonitorProtection] = []
    func append(_ item: CallMonitorProtection) { lock.withLock { items.append(item) } }
    var all: [CallMonitorProtection] { lock.withLock { items } }
}

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

@MainActor
@Suite("Observe only", .nothingLeftScheduled)
struct ObserveOnlyTests {
    @Test("Rule 20: startMonitoring() reports calls and signals and never shows a UI or exits")
    func rule20_observeOnly() throws {
        let h = Harness()
        h.logOutcomes()
        let d = h.delegate()
        h.monitor.startMonitoring()
        h.monitor.startMonitoring()
        try h.calls.incoming("A")
        try h.calls.connect("A")
        #expect(h.monitor.isMonitoring)
        #expect(h.monitor.callState == .started)
        #expect(h.monitor.currentSecurityEvent == nil)
        h.monitor.setDelegate(d)
        h.app.setForeground(false)
        h.app.setForeground(true)
        h.advance(3600)
        try h.calls.end("A")
        #expect(h.take() == ["0 event ringing", "0 event started", "3600 event ended"])
        #expect(h.terminator.exitCodes == [])
        #expect(h.scheduler.pendingCount == 0)
    }

    @Test("Rule 20: a policy over observe starts an event at once during a call; back to observe ends it with policyChanged and nothing new")
    func rule20_policyOverObserve() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring()
        try h.calls.incoming("A")
        h.advance(1)
        let p = h.monitor.protect(withTerminateIn: 5)
        h.advance(1)
        p.end()
        h.advance(1)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        h.monitor.startMonitoring()
        h.advance(10)
        #expect(h.take() == [
            "0 event ringing",
            "1 alert terminate 5 button=Close App", "2 alert terminate 4 button=Close App",
            "2 dismiss", "2 outcome policyChanged",
            "3 alert acknowledge 0 button=Acknowledge", "3 dismiss", "3 outcome policyChanged",
        ])
        #expect(h.terminator.exitCodes == [])
        #expect(h.source.starts == 1)
    }
}

@MainActor
@Suite("Acknowledgement per call", .nothingLeftScheduled)
struct AcknowledgementCoverageTests {
    @Test("Rules 4 and 6: after an acknowledgement a new call that joins the session warns again at once (the issue's transcript)")
    func rule4_newCallAfterAcknowledgement() throws {
        let h = Harness()
        h.logOutcomes()
        let d = h.delegate()
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("MOM")
        h.advance(2)
        try h.calls.connect("MOM")
        h.advance(1)
        d.lastAction?()
        h.advance(2)
        try h.calls.incoming("SCAM")
        h.advance(1)
        try h.calls.connect("SCAM")
        h.advance(1)
        try h.calls.end("MOM")
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect acknowledge 0", "2 event started",
            "3 delegate end", "3 outcome acknowledged",
            "5 delegate detect acknowledge 0",
        ])
    }

    @Test("Rule 4: a call that ends takes its acknowledgement with it, also while another acknowledged call stays live: the same identifier again is warned about")
    func rule4_reusedIdentifierWhileAnotherCallStays() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        try h.calls.incoming("B")
        h.advance(1)
        h.renderer.tapButton()
        h.advance(1)
        try h.calls.end("A")
        h.advance(1)
        // The count of live calls is the acknowledged count again, but "A" is a new call (a
        // source that reuses identifiers, as a modem's call index does; the simulated source
        // refuses reuse, so the batch goes straight in).
        let deliver = try #require(h.source.lastDeliver)
        deliver(.changes([CallSnapshot(id: CallID("A"))]))
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 0 button=Acknowledge",
            "1 dismiss", "1 outcome acknowledged",
            "3 alert acknowledge 0 button=Acknowledge",
        ])
    }

    @Test("Rule 4: a call that joins in the background after an acknowledgement warns when the app returns")
    func rule4_joinInBackground() throws {
        let h = Harness()
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        h.renderer.tapButton()
        h.app.setForeground(false)
        h.advance(1)
        try h.calls.incoming("B")
        h.advance(1)
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 0 button=Acknowledge", "0 dismiss"])
        h.app.setForeground(true)
        #expect(h.take() == ["2 alert acknowledge 0 button=Acknowledge"])
    }

    @Test("Rule 4: an acknowledgement covers its policy and any no stricter, not a stricter one")
    func rule4_coverageByStrictness() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        try h.calls.incoming("A")
        h.advance(2)
        h.renderer.tapButton()
        // Less strict: covered.
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        h.advance(1)
        // Stricter: warned again.
        h.monitor.startMonitoring(withAcknowledgeIn: 3)
        h.advance(1)
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 2 button=-", "1 alert acknowledge 1 button=-",
            "2 alert acknowledge 0 button=Acknowledge", "2 dismiss", "2 outcome acknowledged",
            "3 alert acknowledge 3 button=-", "4 alert acknowledge 2 button=-",
        ])
    }

    @Test("Rule 4: a later acknowledgement under a weaker policy keeps the stricter one: back on the stricter screen, a call acknowledged under it is not warned about again")
    func rule4_weakerAcknowledgementKeepsStricter() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        let transfer = h.monitor.protect(withAcknowledgeIn: 3)
        try h.calls.incoming("A")
        h.advance(3)
        // A is acknowledged under the screen's acknowledge 3; leaving the screen, the app-wide
        // acknowledge 1 is covered by it.
        h.renderer.tapButton()
        transfer.end()
        h.advance(1)
        // B is new: warned under acknowledge 1, and that acknowledgement covers A and B.
        try h.calls.incoming("B")
        h.advance(1)
        h.renderer.tapButton()
        try h.calls.end("B")
        h.advance(1)
        // The stricter screen again, with only A live: A's first acknowledgement covers it.
        let again = h.monitor.protect(withAcknowledgeIn: 3)
        h.advance(5)
        again.end()
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 3 button=-", "1 alert acknowledge 2 button=-", "2 alert acknowledge 1 button=-",
            "3 alert acknowledge 0 button=Acknowledge", "3 dismiss", "3 outcome acknowledged",
            "4 alert acknowledge 1 button=-", "5 alert acknowledge 0 button=Acknowledge", "5 dismiss", "5 outcome acknowledged",
        ])
        #expect(h.monitor.currentSecurityEvent == nil)
    }
}

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

@MainActor
@Suite("Detection switch", .nothingLeftScheduled)
struct DetectionSwitchTests {
    @Test("Rule 22: detection off while monitoring stops the call source at once and ends the event as if its calls had ended; on again, the complete list begins one")
    func rule22_offAndOnAtOnce() throws {
        let h = Harness()
        h.logOutcomes()
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("A")
        h.advance(1)
        h.monitor.setCallDetectionEnabled(false)
        #expect(h.source.stops == 1)
        #expect(h.monitor.isMonitoring)
        try h.calls.connect("A")
        h.advance(10)
        h.monitor.setCallDetectionEnabled(true)
        #expect(h.source.starts == 2)
        h.advance(1)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 3 button=Close App", "1 alert terminate 2 button=Close App",
            "1 event ended", "1 dismiss", "1 outcome callDetectionDisabled",
            "11 event started", "11 alert terminate 3 button=Close App", "12 alert terminate 2 button=Close App",
        ])
        #expect(h.terminator.exitCodes == [])
    }

    @Test("Rule 22: the same setting again changes nothing; a late delivery from the stopped source is dropped")
    func rule22_sameSettingAndLateDelivery() throws {
        let h = Harness()
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        h.monitor.setCallDetectionEnabled(true)
        #expect(h.source.starts == 1)
        let stale = try #require(h.source.lastDeliver)
        h.monitor.setCallDetectionEnabled(false)
        h.monitor.setCallDetectionEnabled(false)
        #expect(h.source.stops == 1)
        stale(.changes([CallSnapshot(id: CallID("A"))]))
        #expect(h.take() == [])
    }
}

/// A call source that, while it starts, has another thread make an API call (as an app's
/// background work might at that moment), then delivers its list on the main thread.
@MainActor
final class InterruptingCallSource: CallSource {
    private(set) var starts = 0
    /// Runs on another thread during the next start, once.
    var duringStart: (@Sendable () -> Void)?

    func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) {
        starts += 1
        if let work = duringStart {
            duringStart = nil
            DispatchQueue.global().sync { work() }
        }
        deliver(.complete([CallSnapshot(id: CallID("A"))]))
    }

    func stop() {}
}

@MainActor
@Suite("Mailbox order", .nothingLeftScheduled)
struct MailboxOrderTests {
    @Test("Rule 18: commands sent while a source starts come after the rest of the batch being applied, never before it")
    func nestedDrainKeepsOrder() async throws {
        let source = InterruptingCallSource()
        let renderer = SimulatedAlertRenderer()
        let monitor = CallMonitor(callSource: source, appState: SimulatedAppState(), scheduler: ManualScheduler(),
                                  alertRenderer: renderer, terminator: SimulatedTerminator())
        let first = ProtectionBox()
        // The first protection's end is made while the source starts: after both begins.
        source.duringStart = { first.all.first?.end() }
        // Both begins wait in the mailbox together: the main queue is busy with this test.
        DispatchQueue.global().sync {
            first.append(monitor.protect(withTerminateIn: 5))
            first.append(monitor.protect(withAcknowledgeIn: 3))
        }
        await drainMainQueue()
        // In order: begin, begin, end of the first: the second alone guards, one start. Out of
        // order the end would have stopped the monitor between the two begins.
        #expect(source.starts == 1)
        #expect(renderer.current?.flow == .acknowledge)
        #expect(monitor.isMonitoring)
        for protection in first.all { protection.end() }
    }
}

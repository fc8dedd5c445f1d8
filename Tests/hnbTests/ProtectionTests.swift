// Split out of GuardContractTests.swift so that each file holds one suite, named as the file (issue 39).

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

// One or more tests per rule of the behaviour contract (DocC, "The behaviour contract", Sources/hnb/hnb.docc/BehaviourContract.md), each asserting the
// exact sequence of callback events, delegate calls, default-UI frames and exits, with their times.

import Dispatch
import Testing
@testable import hnb
import hnbTesting

extension CallsAndEventsTests {
    @Test("Rule 2: an ended call the monitor never saw, or a repeated state, reports nothing")
    func rule2_noSpuriousEvents() throws {
        let h = Harness()
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        h.monitor.setDelegate(h.delegate())
        #expect(h.take() == [])
        try h.calls.incoming("A")
        try h.calls.incoming("B")
        #expect(h.take() == ["0 event ringing", "0 delegate detect acknowledge 0"])
        h.monitor.stopMonitoring()
        try h.calls.end("A")
        try h.calls.end("B")
        #expect(h.take() == ["0 delegate end"])
    }

    @Test("Rule 3: the session lasts from the first live call until none is live")
    func rule3_sessionSpansOverlappingCalls() throws {
        let h = Harness()
        h.monitor.startMonitoring(withTerminateIn: 10)
        h.monitor.setDelegate(h.delegate())
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(1)
        try h.calls.incoming("B")
        try h.calls.end("A")
        try h.calls.connect("B")
        h.advance(1)
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect terminate 10", "0 event started",
            "1 delegate tick 9", "1 event ringing", "1 event started",
            "2 delegate tick 8",
        ])
        try h.calls.end("B")
        #expect(h.take() == ["2 event ended", "2 delegate end"])
        #expect(h.scheduler.pendingCount == 0)
    }

    @Test("Rule 15: a complete list ends a call whose end was missed: dismissed, no exit")
    func rule15_missedEndNoExit() throws {
        let h = Harness()
        h.monitor.startMonitoring(withTerminateIn: 5)
        h.monitor.setDelegate(h.delegate())
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(2)
        // The hang-up notification is lost (the app was suspended).
        try h.calls.withoutNotifying { try h.calls.end("A") }
        h.advance(1)
        h.calls.deliverCompleteList()
        h.advance(10)
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect terminate 5", "0 event started",
            "1 delegate tick 4", "2 delegate tick 3", "3 delegate tick 2",
            "3 event ended", "3 delegate end",
        ])
        #expect(h.terminator.exitCodes == [])
        #expect(h.scheduler.pendingCount == 0)
    }

    @Test("Rule 15: a complete list reports a call whose start was missed: the event begins")
    func rule15_missedStartBeginsEvent() throws {
        let h = Harness()
        h.monitor.startMonitoring(withTerminateIn: 2)
        try h.calls.withoutNotifying {
            try h.calls.incoming("A")
            try h.calls.connect("A")
        }
        h.advance(1)
        #expect(h.take() == [])
        h.calls.deliverCompleteList()
        h.advance(2)
        #expect(h.take() == [
            "1 event started", "1 alert terminate 2 button=Close App",
            "2 alert terminate 1 button=Close App", "3 alert terminate 0 button=Close App", "3 exit 0",
        ])
    }

    @Test("Rule 15: a complete list swaps a missed-ended call for a missed new one in one change; the event goes on")
    func rule15_swapInOneList() throws {
        let h = Harness()
        h.monitor.startMonitoring(withTerminateIn: 5)
        h.monitor.setDelegate(h.delegate())
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(1)
        try h.calls.withoutNotifying {
            try h.calls.end("A")
            try h.calls.incoming("B")
        }
        h.calls.deliverCompleteList()
        h.advance(1)
        #expect(h.take() == [
            "0 event ringing", "0 delegate detect terminate 5", "0 event started",
            "1 delegate tick 4", "1 event ringing", "2 delegate tick 3",
        ])
    }

    @Test("Rule 15: a complete list that repeats what is known changes nothing; ended snapshots in it count as absent")
    func rule15_engineCompleteList() {
        var engine = MonitorEngine()
        let a = CallSnapshot(id: CallID("A"), hasConnected: true)
        let b = CallSnapshot(id: CallID("B"))
        _ = engine.handle(.start(MonitorPolicy(flow: .acknowledge, requestedSeconds: 3)), now: 0)
        #expect(engine.handle(.calls(.complete([a, b])), now: 0) == [
            .emit(.started), .present(.acknowledge, remaining: 3, token: 1, button: .hidden, verdict: .unknown, tellsVerdict: false, on: .builtInDialog), .schedule(at: 1_000_000_000),
        ])
        #expect(engine.handle(.calls(.complete([b, a])), now: 0) == [])
        var endedA = a
        endedA.hasEnded = true
        #expect(engine.handle(.calls(.complete([endedA, b])), now: 0) == [.emit(.ringing)])
        #expect(engine.handle(.calls(.changes([])), now: 0) == [])
        #expect(engine.handle(.calls(.complete([])), now: 0) == [
            .emit(.ended), .dismiss(on: .builtInDialog), .cancelWakeUp,
            .outcome(.engine(ending: .callEnded, flow: .acknowledge, total: 3, startedAt: 0, endedAt: 0, lowestRemaining: 3, wasScreenCaptured: false,
                           presentations: [.init(surface: .builtInDialog, at: 0, remaining: 3)])),
        ])
        #expect(engine.callState == .idle)
    }

    @Test("Rule 15: a CallKit-style observation keeps the changed call when the list has dropped it")
    func rule15_observedList() {
        let a = CallSnapshot(id: CallID("A"), hasConnected: true)
        let endedB = CallSnapshot(id: CallID("B"), hasEnded: true)
        #expect(CallBatch.observed(list: [a], changed: a) == .complete([a]))
        #expect(CallBatch.observed(list: [a], changed: endedB) == .complete([a, endedB]))
        #expect(CallBatch.observed(list: [], changed: a) == .complete([a]))
    }
}

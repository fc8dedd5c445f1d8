// Rule 5, issue 51 item 5: the exit is decided once, on the call list in force at that instant,
// and is final. The list that ends the call decides when it reaches the monitor before the
// instant's wake-up (no exit, `callEnded`); once the exit is decided, the app code that runs before
// it (coaching reports, the outcome handler, the before-exit hook) cannot undo it, and the list is
// not read again: the outcome already said `forceExit`, the watchdog thread that ends an overrunning
// hook cannot read the calls, and the monitor stopped its call source with the decision, so staying
// alive would leave the next call with no warning.

import Foundation
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("The exit is decided once, and is final (rule 5)", .nothingLeftScheduled)
struct ExitDecisionTests {
    private static let ended: MonitorEngine.Input = .calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)]))

    /// An engine whose terminate 3 countdown for call A is at 1 s left at 2 s.
    private func counting() -> MonitorEngine {
        var engine = MonitorEngine()
        _ = engine.handle(.start(terminatePolicy(3)), now: 0)
        _ = engine.handle(.calls(.changes([live("A")])), now: 0)
        _ = engine.handle(.wake(), now: second)
        _ = engine.handle(.wake(), now: 2 * second)
        return engine
    }

    @Test("Rule 5: the list that ends the call at the countdown's last instant, before its wake-up: the event ends, nothing exits")
    func listFirstEndsTheEvent() {
        var engine = counting()
        #expect(engine.handle(Self.ended, now: 3 * second).labels == ["emit ended", "dismiss", "cancelWakeUp", "outcome callEnded"])
        #expect(engine.handle(.wake(), now: 3 * second).labels == [])
        #expect(!engine.hasExited)
    }

    @Test("Rule 5: the wake-up first at that instant decides the exit; the list that ends the call after it changes nothing")
    func exitFirstIsFinal() {
        var engine = counting()
        #expect(engine.handle(.wake(), now: 3 * second).labels
            == ["tick terminate 0 available", "cancelWakeUp", "stopSources", "outcome forceExit", "exit 0"])
        #expect(engine.handle(Self.ended, now: 3 * second).labels == [])
        #expect(engine.hasExited)
    }

    @Test("Rule 5: both orders through the monitor at one virtual instant: the call's end scheduled before the last tick wins, after it the app exits")
    func bothOrdersThroughTheMonitor() throws {
        for endsFirst in [true, false] {
            let h = Harness(logsOutcomes: true)
            let calls = h.calls
            h.monitor.startMonitoring(withTerminateIn: 2)
            // Work due at the same instant runs in the order it was scheduled: scheduled now, the
            // call's end runs before the tick the monitor schedules at 1 s for 2 s; scheduled at
            // 1.5 s, after it.
            if endsFirst { _ = h.scheduler.schedule(at: 2 * second) { try? calls.end("A") } }
            try h.calls.incoming("A")
            h.advance(1.5)
            if !endsFirst { _ = h.scheduler.schedule(at: 2 * second) { try? calls.end("A") } }
            h.advance(1)
            let tail = endsFirst
                ? ["2 event ended", "2 dismiss", "2 outcome callEnded"]
                : ["2 alert terminate 0 button=Close App", "2 outcome forceExit", "2 exit 0"]
            #expect(h.take() == [
                "0 event ringing", "0 alert terminate 2 button=Close App", "1 alert terminate 1 button=Close App",
            ] + tail, "call ends first: \(endsFirst)")
            #expect(h.terminator.exitCodes == (endsFirst ? [] : [0]))
        }
    }

    @Test("Rule 5: a call that ends while the before-exit hook runs does not undo the exit; no callEnded follows")
    func callEndingInTheHookDoesNotUndoTheExit() throws {
        let h = Harness(logsOutcomes: true)
        let calls = h.calls
        let log = h.log
        h.monitor.setBeforeForceExit {
            log.add("hook ends call A")
            try? calls.end("A")
        }
        h.monitor.startMonitoring(withTerminateIn: 1)
        try h.calls.incoming("A")
        h.advance(1)
        h.advance(1)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 1 button=Close App", "1 alert terminate 0 button=Close App",
            "1 outcome forceExit", "1 hook ends call A", "1 exit 0",
        ])
        #expect(h.outcomes.map(\.ending) == [.forceExit])
    }

    @Test("Rule 5: a call that ends while the outcome handler runs does not undo the exit either")
    func callEndingInTheOutcomeHandlerDoesNotUndoTheExit() throws {
        let h = Harness()
        let calls = h.calls
        let log = h.log
        h.monitor.setOutcomeHandler { outcome in
            log.add("outcome \(outcome.ending), ends call A")
            try? calls.end("A")
        }
        h.monitor.startMonitoring(withTerminateIn: 1)
        try h.calls.incoming("A")
        h.advance(2)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 1 button=Close App", "1 alert terminate 0 button=Close App",
            "1 outcome forceExit, ends call A", "1 exit 0",
        ])
    }
}

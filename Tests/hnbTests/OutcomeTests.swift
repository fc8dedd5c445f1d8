// Split out of RiskTests.swift so that each file holds one suite, named as the file (issue 39).

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting

#if canImport(Observation)
import Observation

#endif
@MainActor
@Suite("Outcomes", .nothingLeftScheduled)
struct OutcomeTests {
    func outcome(
        _ ending: CallMonitorOutcome.Ending, _ flow: CallMonitorFlow, seconds: Int32, from start: Double, to end: Double,
        lowest: Int32, shown: [(CallMonitorOutcome.Surface, Double, Int32)], captured: Bool = false, id: UInt64 = 1
    ) -> CallMonitorOutcome {
        var outcome = CallMonitorOutcome(
            ending: ending, flow: flow, seconds: seconds, startedAt: ns(start), endedAt: ns(end),
            startedDate: TestWallClock.date(start), endedDate: TestWallClock.date(end), lowestRemaining: lowest,
            presentations: shown.map { .init(surface: $0.0, at: ns($0.1), remaining: $0.2) }, wasScreenCaptured: captured
        )
        // Issue 40: the event's number, the token of its first presentation.
        outcome.id = id
        return outcome
    }

    @Test("Call ended: after the dismissal, with the lowest value shown")
    func callEnded() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: 10)
        h.at(1)
        try h.calls.incoming("A")
        h.at(4.5)
        try h.calls.end("A")
        #expect(h.take() == [
            "1 event ringing", "1 delegate detect terminate 10", "2 delegate tick 9", "3 delegate tick 8", "4 delegate tick 7",
            "4.5 event ended", "4.5 delegate end", "4.5 outcome callEnded",
        ])
        #expect(h.engineOutcomes == [outcome(.callEnded, .terminate, seconds: 10, from: 1, to: 4.5, lowest: 7, shown: [(.delegate, 1, 10)])])
        #expect(h.outcomes.first?.duration == 3.5)
    }

    @Test("Acknowledged: one outcome, and none when the call then ends")
    func acknowledged() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        try h.calls.incoming("A")
        h.at(2)
        #expect(h.renderer.tapButton())
        try h.calls.end("A")
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 1 button=-", "1 alert acknowledge 0 button=Acknowledge",
            "2 dismiss", "2 outcome acknowledged", "2 event ended",
        ])
        #expect(h.engineOutcomes == [outcome(.acknowledged, .acknowledge, seconds: 1, from: 0, to: 2, lowest: 0, shown: [(.builtInDialog, 0, 1)])])
    }

    @Test("Force exit: the outcome comes before the before-exit hook and the exit")
    func forceExitBeforeHook() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.setBeforeForceExit { [log = h.log] in log.add("hook") }
        h.monitor.startMonitoring(withTerminateIn: 2)
        try h.calls.incoming("A")
        h.at(2)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 2 button=Close App", "1 alert terminate 1 button=Close App",
            "2 alert terminate 0 button=Close App", "2 outcome forceExit", "2 hook", "2 exit 0",
        ])
        #expect(h.engineOutcomes == [outcome(.forceExit, .terminate, seconds: 2, from: 0, to: 2, lowest: 0, shown: [(.builtInDialog, 0, 2)])])
    }

    @Test("Close App: a force exit whose lowest value is the one shown at the tap")
    func closeAppTap() throws {
        let h = Harness(logsOutcomes: true)
        let d = h.delegate()
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withTerminateIn: 30)
        try h.calls.incoming("A")
        h.at(3.5)
        d.lastAction?()
        #expect(h.engineOutcomes == [outcome(.forceExit, .terminate, seconds: 30, from: 0, to: 3.5, lowest: 27, shown: [(.delegate, 0, 30)])])
        #expect(h.take().suffix(2) == ["3.5 outcome forceExit", "3.5 exit 0"])
    }

    @Test("Monitoring stopped and policy changed; the new policy's event gets its own outcome")
    func stoppedAndPolicyChanged() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        h.at(1)
        h.monitor.startMonitoring(withAcknowledgeIn: 5)
        h.at(3)
        h.monitor.stopMonitoring()
        #expect(h.engineOutcomes == [
            outcome(.policyChanged, .terminate, seconds: 5, from: 0, to: 1, lowest: 4, shown: [(.builtInDialog, 0, 5)]),
            outcome(.monitoringStopped, .acknowledge, seconds: 5, from: 1, to: 3, lowest: 3, shown: [(.builtInDialog, 1, 5)], id: 2),
        ])
    }

    @Test("A hand-over is not an end: one outcome lists every presentation in order")
    func handOverPresentations() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        h.at(1)
        h.monitor.setDelegate(h.delegate("one"))
        h.at(2.5)
        do {
            // Released unannounced: the built-in dialog takes over at the next step.
            let released = RecordingDelegate("two", log: h.log)
            h.monitor.setDelegate(released)
        }
        h.at(3)
        try h.calls.end("A")
        let expected = outcome(.callEnded, .terminate, seconds: 5, from: 0, to: 3, lowest: 2,
                               shown: [(.builtInDialog, 0, 5), (.delegate, 1, 4), (.delegate, 2.5, 3), (.builtInDialog, 3, 3)])
        #expect(h.engineOutcomes == [expected])
        #expect(h.outcomes.first?.surfaces == [.builtInDialog, .delegate])
    }

    @Test("Rule 13, fail closed: a delegate the callback releases just before the event is shown hands it to the built-in dialog in the same step")
    func delegateReleasedInsideTheStep() throws {
        let h = Harness(logsOutcomes: true)
        final class Holder { var delegate: RecordingDelegate? }
        let holder = Holder()
        holder.delegate = RecordingDelegate("gone", log: h.log)
        h.monitor.setDelegate(holder.delegate)
        let log = h.log
        // The callback hears of the call before the UI reacts (rule 9) and drops the delegate.
        h.monitor.setCallback { event in
            log.add("event \(event)")
            holder.delegate = nil
        }
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        #expect(h.log.take() == ["0 event ringing", "0 alert terminate 5 button=Close App"])
        h.at(1)
        try h.calls.end("A")
        #expect(h.log.take() == ["1 alert terminate 4 button=Close App", "1 event ended", "1 dismiss", "1 outcome callEnded"])
        #expect(h.engineOutcomes == [
            outcome(.callEnded, .terminate, seconds: 5, from: 0, to: 1, lowest: 4, shown: [(.delegate, 0, 5), (.builtInDialog, 0, 5)]),
        ])
    }

    @Test("No event, no outcome: a session in the background, or a call while not monitoring")
    func noEventNoOutcome() throws {
        let h = Harness(logsOutcomes: true)
        try h.calls.incoming("X")
        try h.calls.end("X")
        h.app.setForeground(false)
        h.monitor.startMonitoring(withTerminateIn: 1)
        try h.calls.incoming("A")
        h.at(5)
        try h.calls.end("A")
        h.monitor.stopMonitoring()
        #expect(h.engineOutcomes == [])
    }

    @Test("A change of the device's time during an event moves only the wall-clock dates, never the monotonic instants or the duration")
    func wallClockJump() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withTerminateIn: 30)
        h.at(2)
        try h.calls.incoming("A")
        h.at(5)
        h.wall.setJump(-3600)  // the user sets the clock back an hour
        h.at(7)
        try h.calls.end("A")
        let outcome = try #require(h.outcomes.first)
        #expect(outcome.startedAt == ns(2))
        #expect(outcome.endedAt == ns(7))
        #expect(outcome.duration == 5)
        #expect(outcome.lowestRemaining == 25)
        #expect(outcome.startedDate == TestWallClock.date(2))
        #expect(outcome.endedDate == TestWallClock.date(7 - 3600))
    }

    @Test("The Objective-C record carries every field of the outcome")
    func objectiveCRecord() throws {
        let outcome = outcome(.callEnded, .terminate, seconds: 5, from: 0, to: 3, lowest: 2,
                              shown: [(.builtInDialog, 0, 5), (.delegate, 1, 4), (.delegate, 2.5, 3)], captured: true)
        let record = _CallMonitorOutcomeRecord(outcome)
        #expect(record.ending == .callEnded)
        #expect(record.ending.rawValue == 0)
        #expect(record.flow == .terminate)
        #expect(record.seconds == 5)
        #expect(record.startedAt == 0)
        #expect(record.endedAt == 3_000_000_000)
        #expect(record.startedTimeIntervalSince1970 == TestWallClock.epoch)
        #expect(record.endedTimeIntervalSince1970 == TestWallClock.epoch + 3)
        #expect(record.lowestRemaining == 2)
        #expect(record.wasShownOnDelegate && record.wasShownOnBuiltInDialog)
        #expect(record.presentationCount == 3)
        #expect(record.wasScreenCaptured)
        #expect(CallMonitorOutcomeEnding.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5, 6])
        #expect(CallMonitorOutcomeEnding.allCases.map(\.description) == ["callEnded", "acknowledged", "forceExit", "monitoringStopped", "policyChanged", "callExempted", "callDetectionDisabled"])
    }

    @Test("The outcomes stream gets the same records as the handler, in order")
    func outcomeStream() async throws {
        let h = Harness(logsOutcomes: true)
        let stream = h.monitor.outcomes
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        try h.calls.end("A")
        try h.calls.incoming("B")
        h.at(1)
        h.monitor.stopMonitoring()
        var received: [CallMonitorOutcome] = []
        for await outcome in stream {
            received.append(outcome)
            if received.count == 2 { break }
        }
        #expect(received == h.outcomes)
        #expect(received.map(\.ending) == [.callEnded, .monitoringStopped])
    }
}

// Rules 16 and 17 and the risk signals: the getters, the recent-call window, one outcome per
// event with exact fields, the event and outcome streams, the capture rule, and the observable
// state object. Every expected value is exact, with virtual times.

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting

/// Nanoseconds from seconds, for exact expected instants.
func ns(_ seconds: Double) -> Int64 { Int64((seconds * 1e9).rounded()) }

@MainActor
@Suite("Risk signals", .nothingLeftScheduled)
struct RiskSignalTests {
    @Test("callState, isMonitoring and the current event follow every step, with exact values")
    func gettersFollowTheEngine() throws {
        let h = Harness(logsOutcomes: true)
        #expect(h.monitor.callState == .idle)
        #expect(h.monitor.isMonitoring == false)
        #expect(h.monitor.currentSecurityEvent == nil)
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        #expect(h.monitor.isMonitoring == true)
        h.at(1)
        try h.calls.incoming("A")
        #expect(h.monitor.callState == .ringing)
        #expect(h.monitor.currentSecurityEvent == CallMonitorSecurityEvent(
            flow: .acknowledge, remaining: 2, seconds: 2, startedAt: ns(1),
            isActionAvailable: false, isAcknowledgementRefused: false, wasScreenCaptured: false
        ))
        try h.calls.connect("A")
        #expect(h.monitor.callState == .started)
        h.at(3)
        #expect(h.monitor.currentSecurityEvent == CallMonitorSecurityEvent(
            flow: .acknowledge, remaining: 0, seconds: 2, startedAt: ns(1),
            isActionAvailable: true, isAcknowledgementRefused: false, wasScreenCaptured: false
        ))
        #expect(h.renderer.tapButton())
        #expect(h.monitor.currentSecurityEvent == nil)
        #expect(h.monitor.callState == .started)
        try h.calls.end("A")
        #expect(h.monitor.callState == .idle)
        h.monitor.stopMonitoring()
        #expect(h.monitor.isMonitoring == false)
    }

    @Test("Terminate: the action is always available; the monitor stops being 'monitoring' at the exit")
    func terminateEventSignals() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("A")
        h.at(1)
        #expect(h.monitor.currentSecurityEvent?.description == "terminate 2/3 action=true refused=false captured=false")
        h.at(3)
        #expect(h.monitor.isMonitoring == false)
        #expect(h.monitor.currentSecurityEvent == nil)
        #expect(h.terminator.exitCodes == [0])
    }

    @Test("wasCallLive: live now, then exactly the window after the end, on the monotonic clock")
    func recentCallWindow() throws {
        let h = Harness(logsOutcomes: true)
        #expect(h.monitor.wasCallLive(withinLast: 1e9) == false)
        h.monitor.startMonitoring(withAcknowledgeIn: 5)
        h.at(10)
        try h.calls.incoming("A")
        #expect(h.monitor.wasCallLive(withinLast: 0) == true)
        h.at(20)
        try h.calls.end("A")
        #expect(h.monitor.wasCallLive(withinLast: 0) == true)  // ended at this very nanosecond
        h.at(20.000_000_001)
        #expect(h.monitor.wasCallLive(withinLast: 0) == false)
        h.at(50)
        #expect(h.monitor.wasCallLive(withinLast: 30) == true)
        #expect(h.monitor.wasCallLive(withinLast: 29.999_999_999) == false)
        // The device's time moves back a day and forward a year: nothing changes.
        h.wall.setJump(-86_400)
        #expect(h.monitor.wasCallLive(withinLast: 30) == true)
        #expect(h.monitor.wasCallLive(withinLast: 29.999_999_999) == false)
        h.wall.setJump(31_536_000)
        #expect(h.monitor.wasCallLive(withinLast: 30) == true)
        #expect(h.monitor.wasCallLive(withinLast: 29.999_999_999) == false)
    }

    @Test("wasCallLive clamps bad input: negative is 0, NaN and infinity are forever")
    func recentCallClamps() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 5)
        try h.calls.incoming("A")
        #expect(h.monitor.wasCallLive(withinLast: -5) == true)  // live now
        try h.calls.end("A")
        h.at(100_000)
        #expect(h.monitor.wasCallLive(withinLast: -5) == false)
        #expect(h.monitor.wasCallLive(withinLast: -.infinity) == false)
        #expect(h.monitor.wasCallLive(withinLast: .nan) == true)
        #expect(h.monitor.wasCallLive(withinLast: .infinity) == true)
        #expect(h.monitor.wasCallLive(withinLast: .greatestFiniteMagnitude) == true)
        #expect(h.monitor.wasCallLive(withinLast: 99_999) == false)
        #expect(h.monitor.wasCallLive(withinLast: 100_000) == true)
        #expect(RiskSnapshot.nanoseconds(clampingWindow: 1.5) == 1_500_000_000)
        #expect(RiskSnapshot.nanoseconds(clampingWindow: -0.0) == 0)
        #expect(RiskSnapshot.nanoseconds(clampingWindow: 1e300) == .max)
    }

    @Test("Stopping during a call counts the call as live until the stop; while off, calls are not observed")
    func recentCallAcrossStop() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withTerminateIn: 30)
        try h.calls.incoming("A")
        h.at(5)
        h.monitor.stopMonitoring()
        #expect(h.monitor.callState == .idle)
        h.at(8)
        #expect(h.monitor.wasCallLive(withinLast: 3) == true)
        #expect(h.monitor.wasCallLive(withinLast: 2.9) == false)
        try h.calls.end("A")
        try h.calls.incoming("B")
        #expect(h.monitor.wasCallLive(withinLast: 2.9) == false)
        // A new start reports the call in progress at once.
        h.monitor.startMonitoring(withTerminateIn: 30)
        #expect(h.monitor.wasCallLive(withinLast: 0) == true)
    }

    @Test("A scheduler that cannot be read off the main thread: the window is measured up to the latest step (never less cautious)")
    func recentCallWithMainOnlyClock() throws {
        let scheduler = MainOnlyScheduler()
        let calls = SimulatedCallSource()
        let monitor = CallMonitor(callSource: calls, appState: SimulatedAppState(), scheduler: scheduler,
                                  alertRenderer: SimulatedAlertRenderer(), terminator: SimulatedTerminator())
        monitor.startMonitoring(withAcknowledgeIn: 0)
        try calls.incoming("A")
        scheduler.inner.advance(bySeconds: 10)
        try calls.end("A")
        scheduler.inner.advance(bySeconds: 100)
        // No step since the end: as far as the snapshot knows, no time has passed.
        #expect(monitor.wasCallLive(withinLast: 0) == true)
        monitor.setRefusesAcknowledgementWhileScreenCaptured(false)
        #expect(monitor.wasCallLive(withinLast: 99) == false)
        #expect(monitor.wasCallLive(withinLast: 100) == true)
    }
}

/// A scheduler whose clock is main-actor only, like one an embedder might write.
@MainActor
final class MainOnlyScheduler: MonitorScheduler {
    let inner = ManualScheduler()
    var now: Int64 { inner.now }
    func schedule(at deadline: Int64, _ work: @escaping @MainActor () -> Void) -> any ScheduledWork {
        inner.schedule(at: deadline, work)
    }
}

@MainActor
@Suite("Outcomes", .nothingLeftScheduled)
struct OutcomeTests {
    func outcome(
        _ ending: CallMonitorOutcome.Ending, _ flow: CallMonitorFlow, seconds: Int32, from start: Double, to end: Double,
        lowest: Int32, shown: [(CallMonitorOutcome.Surface, Double, Int32)], captured: Bool = false
    ) -> CallMonitorOutcome {
        CallMonitorOutcome(
            ending: ending, flow: flow, seconds: seconds, startedAt: ns(start), endedAt: ns(end),
            startedDate: TestWallClock.date(start), endedDate: TestWallClock.date(end), lowestRemaining: lowest,
            presentations: shown.map { .init(surface: $0.0, at: ns($0.1), remaining: $0.2) }, wasScreenCaptured: captured
        )
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
            outcome(.monitoringStopped, .acknowledge, seconds: 5, from: 1, to: 3, lowest: 3, shown: [(.builtInDialog, 1, 5)]),
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

@MainActor
@Suite("Screen capture", .nothingLeftScheduled)
struct ScreenCaptureTests {
    @Test("Rule 17 is off by default: a captured screen changes nothing but the records")
    func offByDefault() throws {
        let h = Harness(captured: true, logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        #expect(h.monitor.isScreenCaptured == true)
        try h.calls.incoming("A")
        #expect(h.monitor.currentSecurityEvent?.isActionAvailable == true)
        #expect(h.renderer.tapButton())
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 0 button=Acknowledge", "0 dismiss", "0 outcome acknowledged"])
        #expect(h.outcomes.map(\.wasScreenCaptured) == [true])
    }

    @Test("Rule 17: refused while captured (the button says why), accepted once the capture stops")
    func refusedWhileCaptured() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.setRefusesAcknowledgementWhileScreenCaptured(true)
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        try h.calls.incoming("A")
        h.at(0.5)
        h.capture.setCaptured(true)
        #expect(h.monitor.isScreenCaptured == true)
        h.at(1)
        #expect(h.monitor.currentSecurityEvent == CallMonitorSecurityEvent(
            flow: .acknowledge, remaining: 0, seconds: 1, startedAt: 0,
            isActionAvailable: false, isAcknowledgementRefused: true, wasScreenCaptured: true
        ))
        #expect(h.renderer.tapButton())  // the button is there, with the reason
        h.at(2)
        h.capture.setCaptured(false)
        #expect(h.monitor.currentSecurityEvent?.isActionAvailable == true)
        h.at(3)
        #expect(h.renderer.tapButton())
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 1 button=-",
            "1 alert acknowledge 0 button=Stop screen sharing to acknowledge",
            "2 alert acknowledge 0 button=Acknowledge",
            "3 dismiss", "3 outcome acknowledged",
        ])
        #expect(h.outcomes.map(\.wasScreenCaptured) == [true])
    }

    @Test("Rule 17: a capture already running at start refuses from the first frame")
    func capturedAtStart() throws {
        let h = Harness(captured: true, logsOutcomes: true)
        h.monitor.setRefusesAcknowledgementWhileScreenCaptured(true)
        try h.calls.incoming("A")
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 0 button=Stop screen sharing to acknowledge"])
        // Switching the rule off while the warning is up gives the button back at once.
        h.monitor.setRefusesAcknowledgementWhileScreenCaptured(false)
        #expect(h.take() == ["0 alert acknowledge 0 button=Acknowledge"])
    }

    @Test("Rule 17: the terminate flow is unchanged; Close App still exits while captured")
    func terminateUnchanged() throws {
        let h = Harness(captured: true, logsOutcomes: true)
        h.monitor.setRefusesAcknowledgementWhileScreenCaptured(true)
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        #expect(h.monitor.currentSecurityEvent?.isAcknowledgementRefused == false)
        #expect(h.renderer.tapButton())
        #expect(h.take() == ["0 event ringing", "0 alert terminate 5 button=Close App", "0 outcome forceExit", "0 exit 0"])
    }

    @Test("Capture is observed only while monitoring; deliveries after a stop are ignored")
    func observedWhileMonitoring() throws {
        let h = Harness(logsOutcomes: true)
        h.capture.setCaptured(true)
        #expect(h.monitor.isScreenCaptured == false)
        h.monitor.startMonitoring(withTerminateIn: 5)
        #expect(h.monitor.isScreenCaptured == true)
        h.capture.setCaptured(false)
        #expect(h.monitor.isScreenCaptured == false)
        h.monitor.stopMonitoring()
        h.capture.setCaptured(true)
        #expect(h.monitor.isScreenCaptured == false)
    }
}

@MainActor
@Suite("Event streams", .nothingLeftScheduled)
struct EventStreamTests {
    @Test("Independent subscribers each get every event from the moment they subscribe, whatever the callback")
    func independentSubscribers() async throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.setCallback(nil)
        let early = h.monitor.events
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        let late = h.monitor.events
        try h.calls.connect("A")
        try h.calls.end("A")
        var earlyEvents: [CallEvent] = []
        for await event in early {
            earlyEvents.append(event)
            if earlyEvents.count == 3 { break }
        }
        var lateEvents: [CallEvent] = []
        for await event in late {
            lateEvents.append(event)
            if lateEvents.count == 2 { break }
        }
        #expect(earlyEvents == [.ringing, .started, .ended])
        #expect(lateEvents == [.started, .ended])
    }

    @Test("A subscriber that stops is removed: cancelling the task, or dropping the stream")
    func cleanup() async throws {
        let h = Harness(logsOutcomes: true)
        let feed = h.monitor.core.eventFeed
        let task = Task { @MainActor in
            var seen = 0
            for await _ in h.monitor.events { seen += 1 }
            return seen
        }
        // Let the task subscribe and wait.
        while feed.subscriberCountForTesting == 0 { await Task.yield() }
        #expect(feed.subscriberCountForTesting == 1)
        task.cancel()
        #expect(await task.value == 0)
        #expect(feed.subscriberCountForTesting == 0)
        do {
            let dropped = h.monitor.events
            #expect(feed.subscriberCountForTesting == 1)
            _ = dropped
        }
        #expect(feed.subscriberCountForTesting == 0)
        let outcomes = h.monitor.core.outcomeFeed
        do { _ = h.monitor.outcomes }
        #expect(outcomes.subscriberCountForTesting == 0)
    }
}

#if canImport(Observation)
import Observation

/// Counts observation callbacks. `@unchecked Sendable`: `count` is only touched under `lock`.
final class ChangeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

@MainActor
@Suite("Observable state", .nothingLeftScheduled)
struct ObservableStateTests {
    @Test("Mirrors call state and the event, replaces the built-in dialog, and offers the user action")
    func mirrors() throws {
        let h = Harness(logsOutcomes: true)
        let state = CallMonitorState.of(h.monitor)
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        #expect(state.isMonitoring == true)
        let changes = ChangeCounter()
        withObservationTracking { _ = state.securityEvent } onChange: { changes.add() }
        try h.calls.incoming("A")
        #expect(changes.value == 1)
        #expect(state.callState == .ringing)
        #expect(state.securityEvent == CallMonitorSecurityEvent(
            flow: .acknowledge, remaining: 1, seconds: 1, startedAt: 0,
            isActionAvailable: false, isAcknowledgementRefused: false, wasScreenCaptured: false
        ))
        state.performUserAction()  // too early: the engine refuses
        #expect(state.securityEvent?.remaining == 1)
        h.at(1)
        #expect(state.securityEvent?.isActionAvailable == true)
        state.performUserAction()
        #expect(state.securityEvent == nil)
        #expect(state.callState == .ringing)
        // The built-in dialog never showed: the state object is the delegate.
        #expect(h.take() == ["0 event ringing", "1 outcome acknowledged"])
    }

    @Test("Only a real change notifies: a tick notifies the event, not the call state")
    func notifiesOnChange() throws {
        let h = Harness(logsOutcomes: true)
        let state = CallMonitorState.of(h.monitor)
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        let callStateChanges = ChangeCounter()
        let eventChanges = ChangeCounter()
        withObservationTracking { _ = state.callState } onChange: { callStateChanges.add() }
        withObservationTracking { _ = state.securityEvent } onChange: { eventChanges.add() }
        h.at(1)
        #expect(callStateChanges.value == 0)
        #expect(eventChanges.value == 1)
        #expect(state.securityEvent?.remaining == 4)
    }

    @Test("One per monitor: asking again (as SwiftUI re-creating a view does) gives the same object and no hand-over")
    func onePerMonitor() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withTerminateIn: 5)
        let first = CallMonitorState.of(h.monitor)
        try h.calls.incoming("A")
        for _ in 0..<3 { #expect(CallMonitorState.of(h.monitor) === first) }
        h.at(1)
        // Kept by the monitor: nothing of the app holds `first` any more, yet it still mirrors.
        #expect(first.securityEvent?.remaining == 4)
        #expect(h.take() == ["0 event ringing"])
        let other = Harness(logsOutcomes: true)
        #expect(CallMonitorState.of(other.monitor) !== first)
    }

    @Test("Another delegate takes the event over; becomeDelegate() brings it back")
    func anotherDelegate() throws {
        let h = Harness(logsOutcomes: true)
        let state = CallMonitorState.of(h.monitor)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        h.monitor.setDelegate(nil)
        state.performUserAction()
        #expect(state.securityEvent?.flow == .acknowledge)
        state.becomeDelegate()
        state.performUserAction()
        #expect(state.securityEvent == nil)
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 0 button=Acknowledge", "0 dismiss", "0 outcome acknowledged"])
    }
}
#endif

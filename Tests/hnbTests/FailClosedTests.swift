// Issue 11: each place where a live call could go unguarded, with the test that proves it cannot.
// Every test here failed on the code before the fix (see the note for how each was seen).

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting

/// A call source that keeps every `deliver` closure it was given, so a test can use an old one
/// after the monitor restarted, as a slow adapter thread might.
@MainActor
final class RetainingCallSource: CallSource {
    private(set) var delivers: [@Sendable (CallBatch) -> Void] = []
    func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) {
        delivers.append(deliver)
        deliver(.complete([]))
    }
    func stop() {}
}

/// A terminator whose watchdog exit releases a hook that is blocking the main thread, so a test
/// can prove the watchdog fires while the hook still runs. Also records main-thread exits.
final class WatchdogProbe: AppTerminator {
    let released = DispatchSemaphore(value: 0)
    private let log = LockedLog()
    nonisolated init() {}
    nonisolated var entries: [String] { log.entries }
    nonisolated func record(_ entry: String) { log.append(entry) }
    func terminate(code: Int32) { record("terminate \(code) on main") }
    nonisolated func terminateFromAnyThread(code: Int32) {
        record("watchdog \(code) off main: \(!MainQueue.isCurrent)")
        released.signal()
    }
}

/// Lines written from any thread. `@unchecked Sendable`: every access goes through `lock`.
final class LockedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var entries: [String] { lock.withLock { lines } }
    func append(_ line: String) { lock.withLock { lines.append(line) } }
}

@MainActor
@Suite("Fail closed", .nothingLeftScheduled)
struct FailClosedTests {
    // MARK: 1. A change of policy keeps the calls in progress

    @Test("ExternalCallSource: a change of policy keeps the live call, so the new policy is enforced (and, rule 21, ends no later than the old countdown)")
    func externalSourceRestartKeepsCall() {
        let source = ExternalCallSource()
        let renderer = SimulatedAlertRenderer()
        let terminator = SimulatedTerminator()
        let scheduler = ManualScheduler()
        let monitor = CallMonitor(callSource: source, appState: SimulatedAppState(), scheduler: scheduler,
                                  alertRenderer: renderer, terminator: terminator)
        monitor.startMonitoring(withTerminateIn: 5)
        source.send([CallSnapshot(id: CallID("A"), hasConnected: true)])
        scheduler.advance(bySeconds: 2)
        monitor.startMonitoring(withTerminateIn: 4)
        // Rule 21: the first countdown is due at 5 s, sooner than 2 + 4, so 3 seconds are left.
        #expect(renderer.current?.remaining == 3)
        scheduler.advance(bySeconds: 4)
        #expect(terminator.exitCodes == [0])
        #expect(scheduler.now == 6_000_000_000)
    }

    // MARK: 3. A released monitor keeps enforcing

    @Test("A monitoring CallMonitor whose last reference is dropped keeps itself alive, ticks on and exits")
    func releasedMonitorKeepsEnforcing() {
        let calls = SimulatedCallSource()
        let renderer = SimulatedAlertRenderer()
        let terminator = SimulatedTerminator()
        let scheduler = ManualScheduler()
        weak var weakMonitor: CallMonitor?
        do {
            let monitor = CallMonitor(callSource: calls, appState: SimulatedAppState(), scheduler: scheduler,
                                      alertRenderer: renderer, terminator: terminator)
            weakMonitor = monitor
            monitor.startMonitoring(withTerminateIn: 3)
        }
        #expect(weakMonitor != nil)
        try? calls.incoming("A")
        scheduler.advance(bySeconds: 2)
        #expect(renderer.current?.remaining == 1)
        scheduler.advance(bySeconds: 1)
        #expect(terminator.exitCodes == [0])
        // After the exit nothing is enforced any more, so nothing keeps it.
        #expect(weakMonitor == nil)
    }

    @Test("stopMonitoring lets a dropped monitor go; one never started is never kept")
    func stoppedMonitorIsReleased() {
        weak var started: CallMonitor?
        weak var neverStarted: CallMonitor?
        do {
            let a = CallMonitor(callSource: SimulatedCallSource(), appState: SimulatedAppState(), scheduler: ManualScheduler(),
                                alertRenderer: SimulatedAlertRenderer(), terminator: SimulatedTerminator())
            let b = CallMonitor(callSource: SimulatedCallSource(), appState: SimulatedAppState(), scheduler: ManualScheduler(),
                                alertRenderer: SimulatedAlertRenderer(), terminator: SimulatedTerminator())
            a.startMonitoring(withAcknowledgeIn: 1)
            started = a
            neverStarted = b
        }
        #expect(neverStarted == nil)
        #expect(started != nil)
        started?.stopMonitoring()
        #expect(started == nil)
    }

    // MARK: 4. The before-exit hook cannot hold the exit back

    @Test("A before-exit hook that does not return in its budget: the watchdog ends the app from its own thread")
    func hangingHookCannotCancelExit() {
        let probe = WatchdogProbe()
        let calls = SimulatedCallSource()
        let scheduler = ManualScheduler()
        let monitor = CallMonitor(callSource: calls, appState: SimulatedAppState(), scheduler: scheduler,
                                  alertRenderer: SimulatedAlertRenderer(), terminator: probe)
        monitor.setBeforeForceExit(budget: 0.05) {
            probe.record("hook begins")
            // Blocks the main thread until the watchdog has fired (at most the tests' patience,
            // so a broken watchdog fails the test instead of hanging it).
            let fired = probe.released.wait(timeout: .now() + Patience.seconds) == .success
            probe.record("hook returns, watchdog fired: \(fired)")
        }
        monitor.startMonitoring(withTerminateIn: 1)
        try? calls.incoming("A")
        scheduler.advance(bySeconds: 1)
        #expect(probe.entries == ["hook begins", "watchdog 0 off main: true", "hook returns, watchdog fired: true"])
    }

    @Test("Rule 16: an outcome handler that hangs at the force exit cannot hold it back either; with a hook, both share the budget")
    func hangingOutcomeHandlerCannotCancelExit() {
        let probe = WatchdogProbe()
        let calls = SimulatedCallSource()
        let scheduler = ManualScheduler()
        let monitor = CallMonitor(callSource: calls, appState: SimulatedAppState(), scheduler: scheduler,
                                  alertRenderer: SimulatedAlertRenderer(), terminator: probe)
        monitor.setBeforeForceExit(budget: 0.05) { probe.record("hook") }
        monitor.setOutcomeHandler { outcome in
            probe.record("outcome \(outcome.ending) begins")
            let fired = probe.released.wait(timeout: .now() + Patience.seconds) == .success
            probe.record("outcome returns, watchdog fired: \(fired)")
        }
        monitor.startMonitoring(withTerminateIn: 1)
        try? calls.incoming("A")
        scheduler.advance(bySeconds: 1)
        // The hook still runs after the handler returns (in a real app the process is gone by
        // then); the main-thread exit is not asked for twice.
        #expect(probe.entries == [
            "outcome forceExit begins", "watchdog 0 off main: true", "outcome returns, watchdog fired: true", "hook",
        ])
    }

    @Test("Rule 16: an outcome handler that returns in time, without a hook: one exit on the main thread, the watchdog stays quiet")
    func quickOutcomeHandlerExitsOnce() async throws {
        let probe = WatchdogProbe()
        let calls = SimulatedCallSource()
        let scheduler = ManualScheduler()
        let monitor = CallMonitor(callSource: calls, appState: SimulatedAppState(), scheduler: scheduler,
                                  alertRenderer: SimulatedAlertRenderer(), terminator: probe)
        monitor.setBeforeForceExit(budget: 0.05, nil)
        monitor.setOutcomeHandler { probe.record("outcome \($0.ending)") }
        monitor.startMonitoring(withTerminateIn: 1)
        try calls.incoming("A")
        scheduler.advance(bySeconds: 1)
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(probe.entries == ["outcome forceExit", "terminate 0 on main"])
    }

    @Test("A before-exit hook that returns in time: one exit on the main thread, the watchdog stays quiet")
    func quickHookExitsOnce() async throws {
        let probe = WatchdogProbe()
        let calls = SimulatedCallSource()
        let scheduler = ManualScheduler()
        let monitor = CallMonitor(callSource: calls, appState: SimulatedAppState(), scheduler: scheduler,
                                  alertRenderer: SimulatedAlertRenderer(), terminator: probe)
        monitor.setBeforeForceExit(budget: 0.05) { probe.record("hook") }
        monitor.startMonitoring(withTerminateIn: 1)
        try calls.incoming("A")
        scheduler.advance(bySeconds: 1)
        // Longer than the budget: a watchdog that had not been disarmed would have fired.
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(probe.entries == ["hook", "terminate 0 on main"])
    }

    @Test("The hook budget is clamped to 0…60 s and NaN means the default of 2 s")
    func hookBudgetClamps() {
        #expect(ExitWatchdog.nanoseconds(clamping: 2) == 2_000_000_000)
        #expect(ExitWatchdog.nanoseconds(clamping: 0.25) == 250_000_000)
        #expect(ExitWatchdog.nanoseconds(clamping: -1) == 0)
        #expect(ExitWatchdog.nanoseconds(clamping: 1e300) == 60_000_000_000)
        #expect(ExitWatchdog.nanoseconds(clamping: .infinity) == 60_000_000_000)
        #expect(ExitWatchdog.nanoseconds(clamping: .nan) == 2_000_000_000)
    }

    // MARK: 5. What mutation testing showed untested

    @Test("A callback that stops monitoring on ringing: the stop runs after the event's actions, so no alert or wake-up is left")
    func stopFromRingingCallback() throws {
        let h = Harness(callback: false)
        let log = h.log
        let monitor = h.monitor
        monitor.setCallback { event in
            log.add("event \(event)")
            if event == .ringing { monitor.stopMonitoring() }
        }
        monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        h.advance(10)
        #expect(h.take() == ["0 event ringing", "0 alert terminate 5 button=Close App", "0 dismiss"])
        #expect(h.renderer.current == nil)
        #expect(h.scheduler.pendingCount == 0)
        #expect(h.terminator.exitCodes == [])
    }

    @Test("A batch from an earlier run of the source that arrives after a stop and start is dropped")
    func staleBatchAfterRestartIsDropped() async {
        let source = RetainingCallSource()
        let renderer = SimulatedAlertRenderer()
        var events: [CallEvent] = []
        let monitor = CallMonitor(callSource: source, appState: SimulatedAppState(), scheduler: ManualScheduler(),
                                  alertRenderer: renderer, terminator: SimulatedTerminator())
        monitor.setCallback { events.append($0) }
        monitor.startMonitoring(withTerminateIn: 5)
        monitor.stopMonitoring()
        monitor.startMonitoring(withTerminateIn: 5)
        // A slow adapter thread still holds the first run's closure and delivers now.
        queueWhileMainIsBusy(source.delivers[0], .changes([CallSnapshot(id: CallID("ghost"), hasConnected: true)])) {}
        await drainMainQueue()
        #expect(source.delivers.count == 2)
        #expect(events == [])
        #expect(renderer.current == nil)
    }

    @Test("A batch another thread delivered before a stop made on the main thread is applied before the stop, in order")
    func batchBeforeStopKeepsOrder() async {
        let source = RetainingCallSource()
        let renderer = SimulatedAlertRenderer()
        var log: [String] = []
        renderer.onChange = { log.append($0.map { "alert \($0.remaining)" } ?? "dismiss") }
        let monitor = CallMonitor(callSource: source, appState: SimulatedAppState(), scheduler: ManualScheduler(),
                                  alertRenderer: renderer, terminator: SimulatedTerminator())
        monitor.setCallback { log.append("event \($0)") }
        monitor.startMonitoring(withTerminateIn: 5)
        queueWhileMainIsBusy(source.delivers[0], .changes([CallSnapshot(id: CallID("A"), hasConnected: true)])) {
            monitor.stopMonitoring()
        }
        await drainMainQueue()
        #expect(log == ["event started", "alert 5", "dismiss"])
        #expect(renderer.current == nil)
    }

    /// Delivers `batch` from another thread while this (main) thread is blocked, so it waits for
    /// the main thread; then runs `then` before the main queue gets to it.
    private func queueWhileMainIsBusy(_ deliver: @escaping @Sendable (CallBatch) -> Void, _ batch: CallBatch, then: () -> Void) {
        let queued = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            deliver(batch)
            queued.signal()
        }
        queued.wait()
        then()
    }

    @Test("A wake-up more than 2^32 s late (a clock jump, a very long suspension) still gives tick 0 and the exit")
    func wakeUpCenturiesLate() throws {
        let h = Harness()
        h.monitor.setDelegate(h.delegate())
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        h.scheduler.suspend(forSeconds: 4_294_967_298)
        #expect(h.take() == ["0 event ringing", "0 delegate detect terminate 5", "4294967298 delegate tick 0", "4294967298 exit 0"])
    }

    @Test("The engine, woken 2^32 s + 2 s after a 5 s countdown began, reports 0 and exits in one step")
    func engineWakeUpCenturiesLate() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 5)), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasConnected: true)])), now: 0)
        let late: Int64 = (1 << 32 + 2) * 1_000_000_000
        #expect(engine.handle(.wake(), now: late) == [
            .tick(.terminate, remaining: 0, token: 1, button: .available, on: .builtInDialog), .cancelWakeUp, .stopSources(callSource: true),
            // Rule 16: the outcome, right before the exit.
            .outcome(.engine(ending: .forceExit, flow: .terminate, total: 5, startedAt: 0, endedAt: late, lowestRemaining: 0, wasScreenCaptured: false,
                           presentations: [.init(surface: .builtInDialog, at: 0, remaining: 5)])),
            .exit(code: 0),
        ])
    }

    @Test("The acknowledge delay after a wake-up 2^32 s late is over: tick 0, the button can be used")
    func acknowledgeWakeUpCenturiesLate() throws {
        let h = Harness()
        h.monitor.startMonitoring(withAcknowledgeIn: 3)
        try h.calls.incoming("A")
        h.scheduler.suspend(forSeconds: 4_294_967_297)
        #expect(h.renderer.tapButton())
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 3 button=-",
            "4294967297 alert acknowledge 0 button=Acknowledge", "4294967297 dismiss",
        ])
    }

    // MARK: 6. The user action from another thread

    @Test("sendableUserAction: taken in callMonitorDidDetectCall, called from a detached task, it exits once")
    func sendableUserActionFromAnotherThread() async throws {
        let h = Harness()
        let d = h.delegate()
        let monitor = h.monitor
        var action: (@Sendable () -> Void)?
        d.onDetect = { action = monitor.sendableUserAction() }
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        let carried = try #require(action)
        await Task.detached { for _ in 0..<10 { carried() } }.value
        await drainMainQueue()
        #expect(h.take() == ["0 event ringing", "0 delegate detect terminate 5", "0 exit 0"])
        #expect(h.terminator.exitCodes == [0])
    }

    @Test("sendableUserAction obeys the presentation's rules: refused before the delay, stale after the event, nil with nothing shown")
    func sendableUserActionRules() async throws {
        let h = Harness()
        #expect(h.monitor.sendableUserAction() == nil)
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        try h.calls.incoming("A")
        let early = try #require(h.monitor.sendableUserAction())
        await Task.detached { early() }.value
        await drainMainQueue()
        h.advance(2)
        await Task.detached { early() }.value
        await drainMainQueue()
        try h.calls.end("A")
        try h.calls.incoming("B")
        await Task.detached { early() }.value
        await drainMainQueue()
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 2 button=-",
            "1 alert acknowledge 1 button=-", "2 alert acknowledge 0 button=Acknowledge", "2 dismiss",
            "2 event ended", "2 event ringing", "2 alert acknowledge 2 button=-",
        ])
    }
}

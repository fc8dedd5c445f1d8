// Tests of the parts under the contract: the engine's edge inputs, the threading promise of the
// public API, re-entrant calls, the schedulers, the scripted call source, the alert model and the
// countdown formatter.

import Dispatch
import Testing
@testable import hnb
import hnbTesting

@Suite("Engine edges", .nothingLeftScheduled)
struct EngineEdgeTests {
    @Test("An ended snapshot of a call never seen changes nothing")
    func endedUnknownCall() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 5), isForeground: true), now: 0)
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("Z"), hasEnded: true)])), now: 0) == [])
        #expect(engine.callState == .idle)
    }

    @Test("A batch is one change: a connected call and a ringing one at start give started only")
    func batchIsOneChange() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .acknowledge, requestedSeconds: 0), isForeground: true), now: 7)
        let actions = engine.handle(.calls(.changes([
            CallSnapshot(id: CallID("A")),
            CallSnapshot(id: CallID("B"), hasConnected: true),
        ])), now: 7)
        #expect(actions == [.emit(.started), .present(.acknowledge, remaining: 0, token: 1, refused: false, verdict: .unknown, on: .builtInDialog), .schedule(at: 1_000_000_007)])
    }

    @Test("A held snapshot counts as connected even if the source left hasConnected false")
    func heldCountsAsConnected() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .acknowledge, requestedSeconds: 0), isForeground: false), now: 0)
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), isOnHold: true)])), now: 0) == [.emit(.started)])
    }

    @Test("An early wake-up reschedules for the same deadline and reports nothing")
    func earlyWakeUp() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 3), isForeground: true), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0)
        #expect(engine.handle(.wake, now: 999_999_999) == [.schedule(at: 1_000_000_000)])
    }

    @Test("Deadlines saturate instead of overflowing")
    func deadlineSaturates() {
        #expect(MonitorEngine.deadline(0, plusSeconds: Int64(Int32.max)) == Int64(Int32.max) * 1_000_000_000)
        #expect(MonitorEngine.deadline(.max - 5, plusSeconds: 1) == .max)
        #expect(MonitorEngine.deadline(0, plusSeconds: .max) == .max)
    }

    @Test("After the exit every input is ignored")
    func nothingAfterExit() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 1), isForeground: true), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0)
        // Rule 16: the force exit's outcome comes right before the exit.
        #expect(engine.handle(.userAction(token: 1), now: 0) == [
            .cancelWakeUp, .stopSources,
            .outcome(.init(ending: .forceExit, flow: .terminate, total: 1, startedAt: 0, endedAt: 0, lowestRemaining: 1, wasScreenCaptured: false,
                           presentations: [.init(surface: .builtInDialog, at: 0, remaining: 1)]), exitCode: 0),
            .exit(code: 0),
        ])
        #expect(engine.hasExited)
        let inputs: [MonitorEngine.Input] = [
            .start(MonitorPolicy(flow: .acknowledge, requestedSeconds: 0), isForeground: true), .stop, .wake,
            .userAction(token: 1), .delegateChanged(isSet: true), .appState(isForeground: true), .calls(.changes([CallSnapshot(id: CallID("B"))])),
            .screenCapture(isCaptured: true), .refusesAcknowledgementWhileScreenCaptured(true),
            .screenCaptureEscalation(MonitorPolicy(flow: .terminate, requestedSeconds: 1), isForeground: true), .screenCaptureEscalation(nil, isForeground: true),
        ]
        for input in inputs { #expect(engine.handle(input, now: 5) == []) }
    }

    @Test("Clamping follows the reference", arguments: [
        (CallMonitorFlow.terminate, Int32.min, Int32(1)), (.terminate, 0, 1), (.terminate, 1, 1), (.terminate, .max, .max),
        (.acknowledge, .min, 0), (.acknowledge, -1, 0), (.acknowledge, 0, 0), (.acknowledge, 30, 30), (.acknowledge, .max, .max),
    ])
    func clamping(flow: CallMonitorFlow, requested: Int32, expected: Int32) {
        #expect(MonitorPolicy(flow: flow, requestedSeconds: requested).seconds == expected)
    }
}

@MainActor
@Suite("Threads and re-entrancy", .nothingLeftScheduled)
struct ThreadingTests {
    @Test("Calls from a background thread are applied on the main thread, in the order made")
    func backgroundCallsApplyInOrder() async throws {
        let h = Harness()
        let d = h.delegate()
        let monitor = h.monitor
        let delegate = UncheckedDelegateRef(d)
        await Task.detached {
            monitor.startMonitoring(withTerminateIn: 9)
            monitor.setDelegate(delegate.value)
            monitor.startMonitoring(withAcknowledgeIn: 4)
        }.value
        await drainMainQueue()
        try h.calls.incoming("A")
        #expect(h.take() == ["0 event ringing", "0 delegate detect acknowledge 4"])
    }

    @Test("Sources may deliver from any thread; the delivery is applied on the main thread")
    func sourceDeliversFromBackground() async throws {
        let h = Harness()
        let source = BackgroundCallSource()
        let monitor = CallMonitor(
            callSource: source, appState: h.app, scheduler: h.scheduler,
            alertRenderer: h.renderer, terminator: h.terminator
        )
        let log = h.log
        monitor.setCallback { event in
            expectOnMainQueue()
            log.add("event \(event)")
        }
        monitor.startMonitoring(withAcknowledgeIn: 0)
        await source.deliverFromBackground([CallSnapshot(id: CallID("A"), hasConnected: true)])
        await drainMainQueue()
        #expect(h.take() == ["0 event started", "0 alert acknowledge 0 button=Acknowledge"])
        monitor.stopMonitoring()
        await source.deliverFromBackground([CallSnapshot(id: CallID("A"), hasEnded: true)])
        await drainMainQueue()
        #expect(h.take() == ["0 dismiss"])
    }

    @Test("A delegate that stops monitoring from inside detect is served in order: detect, then end")
    func reentrantStopFromDelegate() throws {
        let h = Harness()
        let d = h.delegate()
        d.onDetect = { [monitor = h.monitor] in monitor.stopMonitoring() }
        h.monitor.setDelegate(d)
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("A")
        h.advance(5)
        #expect(h.take() == ["0 event ringing", "0 delegate detect terminate 3", "0 delegate end"])
        #expect(h.scheduler.pendingCount == 0)
        #expect(h.terminator.exitCodes.count == 0)
    }

    @Test("A callback that replaces itself takes effect from the next event")
    func callbackReplacedInsideCallback() throws {
        let h = Harness(callback: false)
        let log = h.log
        let monitor = h.monitor
        monitor.setCallback { event in
            log.add("first \(event)")
            monitor.setCallback { event in log.add("second \(event)") }
        }
        monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        monitor.setCallback(nil)
        try h.calls.end("A")
        #expect(h.take() == ["0 first ringing", "0 alert acknowledge 0 button=Acknowledge", "0 second started", "0 dismiss"])
    }

    @Test("A delegate that waits for the app's VoIP queue while that queue reports a call does not deadlock: ExternalCallSource runs the step with no lock held")
    func delegateWaitsForSendingQueue() async {
        let h = Harness()
        let source = ExternalCallSource()
        let monitor = CallMonitor(callSource: source, appState: h.app, scheduler: h.scheduler,
                                  alertRenderer: h.renderer, terminator: h.terminator)
        h.sharesScheduler(with: monitor)
        let log = h.log
        monitor.setCallback { event in log.add("event \(event)") }
        let d = h.delegate()
        monitor.setDelegate(d)
        let voip = DispatchQueue(label: "test.voip")
        var waits: [DispatchTimeoutResult] = []
        d.onDetect = {
            // `voip.sync { source.send(...) }`, bounded: a source that held its lock while this
            // step runs makes the queue's send wait for the main thread, which waits for the
            // queue. The timeout turns that deadlock into a failure instead of a hung run.
            let sent = DispatchSemaphore(value: 0)
            voip.async {
                source.send([CallSnapshot(id: CallID("B"), hasConnected: true)])
                sent.signal()
            }
            waits.append(sent.wait(timeout: .now() + 5))
        }
        monitor.startMonitoring(withTerminateIn: 9)
        // On the main thread the delivery runs the whole step, delegate included, at once.
        source.send([CallSnapshot(id: CallID("A"))])
        await drainMainQueue()
        #expect(waits == [.success])
        // The queue's call is applied after the step that was running when it was sent, in order.
        #expect(h.take() == ["0 event ringing", "0 delegate detect terminate 9", "0 event started"])
        monitor.stopMonitoring()
        #expect(h.take() == ["0 delegate end"])
    }

    @Test("ExternalCallSource calls its listener with no lock held: a listener that waits for another thread's send at start is not blocked, and hears it next")
    func externalListenerWaitsForSend() async {
        let source = ExternalCallSource()
        let seen = Locked<[CallBatch]>([])
        let waits = Locked<[DispatchTimeoutResult]>([])
        source.start { batch in
            seen.withLock { $0.append(batch) }
            guard batch.isComplete else { return }
            let sent = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                source.send([CallSnapshot(id: CallID("B"))])
                sent.signal()
            }
            let waited = sent.wait(timeout: .now() + 5)
            waits.withLock { $0.append(waited) }
        }
        source.stop()
        #expect(waits.value == [.success])
        #expect(seen.value == [.complete([]), .changes([CallSnapshot(id: CallID("B"))])])
        #expect(source.liveCalls == [CallSnapshot(id: CallID("B"))])
    }

    @Test("MainQueue tells main-queue work from other threads")
    func mainQueueDetection() async {
        #expect(MainQueue.isCurrent)
        let offMain = await Task.detached { MainQueue.isCurrent }.value
        #expect(!offMain)
    }
}

@MainActor
@Suite("Host hooks", .nothingLeftScheduled)
struct HostHookTests {
    @Test("The before-exit hook runs on the main thread just before the force exit, and never in the acknowledge flow")
    func beforeForceExit() throws {
        let h = Harness()
        let log = h.log
        h.monitor.setBeforeForceExit {
            expectOnMainQueue()
            log.add("wipe session")
        }
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        try h.calls.incoming("A")
        h.advance(5)
        h.monitor.startMonitoring(withTerminateIn: 2)
        h.advance(2)
        #expect(h.take() == [
            "0 event ringing", "0 alert acknowledge 1 button=-", "1 alert acknowledge 0 button=Acknowledge",
            // Issue 19: a change of policy does not report the call in progress again.
            "5 dismiss", "5 alert terminate 2 button=Close App",
            "6 alert terminate 1 button=Close App", "7 alert terminate 0 button=Close App", "7 wipe session", "7 exit 0",
        ])
    }

    @Test("With call detection off the call source is never started and nothing is shown; back on, the next start sees calls")
    func callDetectionOff() throws {
        let h = Harness()
        h.monitor.setCallDetectionEnabled(false)
        h.monitor.startMonitoring(withTerminateIn: 1)
        try h.calls.incoming("A")
        h.advance(5)
        h.monitor.stopMonitoring()
        #expect(h.source.starts == 0)
        #expect(h.source.stops == 0)
        #expect(h.take() == [])
        h.monitor.setCallDetectionEnabled(true)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        #expect(h.source.starts == 1)
        #expect(h.take() == ["5 event ringing", "5 alert acknowledge 0 button=Acknowledge"])
    }
}

@MainActor
@Suite("Schedulers", .nothingLeftScheduled)
struct SchedulerTests {
    @Test("ManualScheduler runs due work in deadline order, ties in scheduling order, and cancels")
    func manualOrder() {
        let scheduler = ManualScheduler()
        var ran: [String] = []
        _ = scheduler.schedule(at: 2_000) { ran.append("b@\(scheduler.now)") }
        _ = scheduler.schedule(at: 1_000) { ran.append("a@\(scheduler.now)") }
        _ = scheduler.schedule(at: 2_000) { ran.append("c@\(scheduler.now)") }
        let cancelled = scheduler.schedule(at: 1_500) { ran.append("x") }
        cancelled.cancel()
        #expect(scheduler.pendingCount == 3)
        #expect(scheduler.nextDeadline == 1_000)
        scheduler.advance(by: 1_999)
        #expect(ran == ["a@1000"])
        scheduler.advance(by: 10)
        #expect(ran == ["a@1000", "b@2000", "c@2000"])
        #expect(scheduler.now == 2_009)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("Work scheduled while advancing runs in the same advance when due")
    func manualChained() {
        let scheduler = ManualScheduler()
        var ran: [Int64] = []
        func again() {
            ran.append(scheduler.now)
            if ran.count < 3 { _ = scheduler.schedule(at: scheduler.now + 10) { again() } }
        }
        _ = scheduler.schedule(at: 10) { again() }
        scheduler.advance(to: 100)
        #expect(ran == [10, 20, 30])
    }

    @Test("Suspension runs late work once, at the wake-up instant")
    func manualSuspension() {
        let scheduler = ManualScheduler()
        var ran: [Int64] = []
        _ = scheduler.schedule(at: 10) { ran.append(scheduler.now) }
        _ = scheduler.schedule(at: 20) { ran.append(scheduler.now) }
        scheduler.suspend(for: 50)
        #expect(ran == [50, 50])
    }

    @Test("Seconds convert to nanoseconds with rounding and saturation")
    func secondsConversion() {
        #expect(ManualScheduler.nanoseconds(1.5) == 1_500_000_000)
        #expect(ManualScheduler.nanoseconds(-3) == 0)
        #expect(ManualScheduler.nanoseconds(.infinity) == .max)
        #expect(ManualScheduler.nanoseconds(.nan) == 0)
        #expect(ManualScheduler.nanoseconds(1e300) == .max)
    }

    @Test("LiveScheduler fires on the main queue, not before its deadline")
    func liveFires() async {
        let scheduler = LiveScheduler()
        let deadline = scheduler.now + 20_000_000
        // The handle is dropped on purpose: the timer must fire anyway.
        let firedAt: Int64 = await withCheckedContinuation { continuation in
            _ = scheduler.schedule(at: deadline) {
                expectOnMainQueue()
                continuation.resume(returning: scheduler.now)
            }
        }
        #expect(firedAt >= deadline)
    }

    @Test("A cancelled LiveScheduler timer never runs")
    func liveCancel() async {
        let scheduler = LiveScheduler()
        var ran = false
        let work = scheduler.schedule(at: scheduler.now + 5_000_000) { ran = true }
        work.cancel()
        let done: Void = await withCheckedContinuation { continuation in
            _ = scheduler.schedule(at: scheduler.now + 30_000_000) { continuation.resume() }
        }
        _ = done
        #expect(!ran)
    }
}

@MainActor
@Suite("Simulated call source", .nothingLeftScheduled)
struct SimulatedCallSourceTests {
    @Test("Snapshots follow the call: incoming, outgoing, connected, held, resumed, ended")
    func snapshots() throws {
        let source = SimulatedCallSource()
        let seen = SnapshotLog()
        source.start { batch in MainActor.assumeIsolated { seen.batches.append(batch) } }
        try source.incoming("A")
        try source.outgoing("B")
        try source.connect("A")
        try source.hold("A")
        try source.resume("A")
        try source.end("A")
        let a = CallID("A")
        #expect(seen.batches == [
            .complete([]),
            .changes([CallSnapshot(id: a)]),
            .changes([CallSnapshot(id: CallID("B"), isOutgoing: true)]),
            .changes([CallSnapshot(id: a, hasConnected: true)]),
            .changes([CallSnapshot(id: a, hasConnected: true, isOnHold: true)]),
            .changes([CallSnapshot(id: a, hasConnected: true)]),
            .changes([CallSnapshot(id: a, hasConnected: true, hasEnded: true)]),
        ])
        #expect(source.liveCalls.map(\.id) == [CallID("B")])
    }

    @Test("Calls in progress are delivered as one complete batch at start, ended ones left out")
    func startBatch() throws {
        let source = SimulatedCallSource()
        try source.incoming("A")
        try source.outgoing("B")
        try source.connect("B")
        try source.end("A")
        let seen = SnapshotLog()
        source.start { batch in MainActor.assumeIsolated { seen.batches.append(batch) } }
        #expect(seen.batches == [.complete([CallSnapshot(id: CallID("B"), isOutgoing: true, hasConnected: true)])])
    }

    @Test("Impossible changes are refused with a reason")
    func errors() throws {
        let source = SimulatedCallSource()
        try source.incoming("A")
        #expect(throws: SimulatedCallSource.ScriptError.duplicateCall("A")) { try source.incoming("A") }
        #expect(throws: SimulatedCallSource.ScriptError.unknownCall("Q")) { try source.connect("Q") }
        #expect(throws: SimulatedCallSource.ScriptError.invalidTransition("A", "has not connected, so it cannot be held")) { try source.hold("A") }
        #expect(throws: SimulatedCallSource.ScriptError.invalidTransition("A", "is not on hold")) { try source.resume("A") }
        try source.connect("A")
        #expect(throws: SimulatedCallSource.ScriptError.invalidTransition("A", "is already connected")) { try source.connect("A") }
        try source.end("A")
        #expect(throws: SimulatedCallSource.ScriptError.callEnded("A")) { try source.connect("A") }
        #expect(throws: SimulatedCallSource.ScriptError.callEnded("A")) { try source.end("A") }
    }
}

@Suite("Default UI model", .nothingLeftScheduled)
struct DefaultUITests {
    @Test("Terminate: title, message, countdown and Close App at every value")
    func terminateAlert() {
        let alert = SecurityAlert(flow: .terminate, remaining: 7, strings: .english)
        #expect(alert == SecurityAlert(
            flow: .terminate,
            title: "Security Policy",
            message: "Application access is disabled during active calls for your protection.",
            countdown: "App will close in 7 seconds.",
            button: "Close App",
            remaining: 7
        ))
        #expect(SecurityAlert(flow: .terminate, remaining: 0, strings: .english).button == "Close App")
    }

    @Test("Acknowledge: countdown without button, then button without countdown")
    func acknowledgeAlert() {
        let waiting = SecurityAlert(flow: .acknowledge, remaining: 30, strings: .english)
        #expect(waiting.message == "Using this application during an active call may expose sensitive information.")
        #expect(waiting.countdown == "Acknowledge in 30 seconds.")
        #expect(waiting.button == nil)
        let ready = SecurityAlert(flow: .acknowledge, remaining: 0, strings: .english)
        #expect(ready.countdown == nil)
        #expect(ready.button == "Acknowledge")
    }

    @Test("A table's entry wins, an empty one falls through to the English default")
    func tableFallThrough() {
        let strings = CallMonitorStrings(tables: [
            { key in
                key == CallMonitorStringKey.alertTitle.rawValue ? "Sicherheitshinweis"
                    : (key == CallMonitorStringKey.buttonClose.rawValue ? "" : nil)
            },
        ])
        #expect(strings.text(.alertTitle) == "Sicherheitshinweis")
        #expect(strings.text(.buttonClose) == "Close App")
    }

    @Test("Countdown templates are filled without a C formatter", arguments: [
        ("App will close in %d seconds.", "App will close in 12 seconds."),
        ("%i / %1$d / %ld / %1$lld", "12 / 12 / 12 / 12"),
        ("100%% sure in %d", "100% sure in 12"),
        ("%@ %s %n %x %2$d %", "%@ %s %n %x %2$d %"),
        ("no placeholder", "no placeholder"),
        ("%", "%"),
        ("%%d", "%d"),
        ("%lllld", "%lllld"),
        ("", ""),
        ("Ünïcødé %d ✓", "Ünïcødé 12 ✓"),
    ])
    func countFormatter(template: String, expected: String) {
        #expect(CountFormatter.format(template, count: 12) == expected)
    }

    @Test("The built-in dialog ignores its button's action while the button is hidden")
    @MainActor
    func hiddenButtonIgnored() {
        let renderer = CapturingRenderer()
        let ui = DefaultSecurityUI(renderer: renderer, strings: .english)
        var actions = 0
        ui.present(flow: .acknowledge, remaining: 2) { actions += 1 }
        renderer.lastOnButton?()
        #expect(actions == 0)
        ui.tick(remaining: 0)
        renderer.lastOnButton?()
        #expect(actions == 1)
    }
}

/// Keeps the raw button action a renderer is given, to press it even when no button is drawn.
@MainActor
final class CapturingRenderer: SecurityAlertRenderer {
    private(set) var lastOnButton: (@MainActor () -> Void)?
    func render(_ alert: SecurityAlert, onButton: @escaping @MainActor () -> Void) { lastOnButton = onButton }
    func dismiss() { lastOnButton = nil }
}

@MainActor
final class SnapshotLog {
    var batches: [CallBatch] = []
}

/// A call source that delivers from a background thread, as a real adapter may.
@MainActor
final class BackgroundCallSource: CallSource {
    private var deliver: (@Sendable (CallBatch) -> Void)?
    func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) { self.deliver = deliver }
    func stop() {}
    func deliverFromBackground(_ batch: [CallSnapshot]) async {
        guard let deliver else { return }
        await Task.detached { deliver(.changes(batch)) }.value
    }
}

/// Carries a delegate to a background task to test setDelegate from another thread.
/// `@unchecked Sendable`: the test only passes it to `setDelegate`, which never touches it off main.
struct UncheckedDelegateRef: @unchecked Sendable {
    let value: RecordingDelegate
    init(_ value: RecordingDelegate) { self.value = value }
}

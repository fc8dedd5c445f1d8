// A CallMonitor wired to the scripted ports, with one log of everything observable (callback
// events, delegate calls, default-UI frames, exits), each stamped with the virtual time.

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting

/// Checks that the code runs as main-queue work, which is where the monitor promises to call out.
func expectOnMainQueue() {
    #expect(MainQueue.isCurrent, "called off the main queue")
}

/// Formats a virtual instant as seconds: "3" for whole seconds, "1.5" otherwise.
func seconds(_ nanoseconds: Int64) -> String {
    if nanoseconds % 1_000_000_000 == 0 { return String(nanoseconds / 1_000_000_000) }
    return String(Double(nanoseconds) / 1e9)
}

@MainActor
final class Log {
    let scheduler: ManualScheduler
    private(set) var lines: [String] = []

    init(scheduler: ManualScheduler) { self.scheduler = scheduler }

    func add(_ text: String) {
        lines.append("\(seconds(scheduler.now)) \(text)")
    }

    /// Returns the lines logged since the last call and forgets them.
    func take() -> [String] {
        defer { lines.removeAll() }
        return lines
    }
}

@MainActor
final class RecordingDelegate: CallMonitorDelegate {
    let name: String
    let log: Log
    private(set) var lastAction: (() -> Void)?
    /// Runs inside `callMonitorDidDetectCall`, to test re-entrant calls.
    var onDetect: (@MainActor () -> Void)?

    init(_ name: String = "delegate", log: Log) {
        self.name = name
        self.log = log
    }

    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: Int32, onUserAction: @escaping () -> Void) {
        expectOnMainQueue()
        lastAction = onUserAction
        log.add("\(name) detect \(flow) \(initialRemaining)")
        onDetect?()
    }

    func callMonitorCountdownTick(_ remaining: Int32) {
        expectOnMainQueue()
        log.add("\(name) tick \(remaining)")
    }

    func callMonitorDidEndCall() {
        expectOnMainQueue()
        log.add("\(name) end")
    }
}

/// Counts start/stop of a call source and forwards to a simulated one.
@MainActor
final class CountingCallSource: CallSource {
    let inner = SimulatedCallSource()
    private(set) var starts = 0
    private(set) var stops = 0
    /// The delivery closure of the latest start, kept to send a late delivery on purpose.
    private(set) var lastDeliver: (@Sendable (CallBatch) -> Void)?
    func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) {
        starts += 1
        lastDeliver = deliver
        inner.start(deliver)
    }
    func stop() {
        stops += 1
        inner.stop()
    }
    /// Reads the list on demand as the simulated source does (issue 37).
    func refresh() { inner.refresh() }
}

/// The wall clock the tests inject: a fixed epoch plus the virtual time, plus a jump the test can
/// set to play a user changing the device's time.
final class TestWallClock: Sendable {
    private let jump = Locked<TimeInterval>(0)
    let scheduler: ManualScheduler
    static let epoch: TimeInterval = 1_800_000_000

    init(scheduler: ManualScheduler) { self.scheduler = scheduler }

    func setJump(_ seconds: TimeInterval) { jump.set(seconds) }

    var read: @Sendable () -> Date {
        { [self] in
            Date(timeIntervalSince1970: Self.epoch + Double(scheduler.anyThreadNow) / 1e9 + jump.value)
        }
    }

    static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: epoch + seconds) }
}

/// The one test rig: a CallMonitor on the manual scheduler with every port scripted (calls, app
/// state, screen capture, dialog, exit, wall clock) and one log of everything observable.
///
/// A suite with the ``Testing/Trait/nothingLeftScheduled`` trait has every harness its tests make
/// checked when the test ends, as NIO's embedded event loop can say what is still scheduled.
@MainActor
final class Harness {
    let scheduler = ManualScheduler()
    let source = CountingCallSource()
    var calls: SimulatedCallSource { source.inner }
    let app: SimulatedAppState
    let capture: SimulatedScreenCapture
    let log: Log
    let wall: TestWallClock
    let renderer = SimulatedAlertRenderer()
    let terminator = SimulatedTerminator()
    let monitor: CallMonitor
    /// Every outcome, in order (unless a test installs its own outcome handler).
    private(set) var outcomes: [CallMonitorOutcome] = []
    /// Whether each outcome's ending is also written into the log, "outcome <ending>".
    private var logsOutcomes: Bool

    init(foreground: Bool = true, callback: Bool = true, captured: Bool = false, logsOutcomes: Bool = false) {
        app = SimulatedAppState(isForeground: foreground)
        capture = SimulatedScreenCapture(isCaptured: captured)
        let log = Log(scheduler: scheduler)
        self.log = log
        wall = TestWallClock(scheduler: scheduler)
        self.logsOutcomes = logsOutcomes
        renderer.onChange = { alert in
            expectOnMainQueue()
            log.add(alert.map { "alert \($0.flow) \($0.remaining) button=\($0.button ?? "-")" } ?? "dismiss")
        }
        terminator.onTerminate = { code in
            expectOnMainQueue()
            log.add("exit \(code)")
        }
        monitor = CallMonitor(
            callSource: source,
            appState: app,
            scheduler: scheduler,
            alertRenderer: renderer,
            terminator: terminator,
            screenCapture: capture,
            wallClock: wall.read
        )
        if callback {
            monitor.setCallback { event in
                expectOnMainQueue()
                log.add("event \(event)")
            }
        }
        monitor.setOutcomeHandler { [unowned self] outcome in
            expectOnMainQueue()
            outcomes.append(outcome)
            if self.logsOutcomes { log.add("outcome \(outcome.ending)") }
        }
        HarnessRegistry.current?.add(self)
    }

    /// The outcomes with the fields the engine decides only: what the surfaces add, what the
    /// person saw (``CallMonitorOutcome/shown``), is asserted exactly in EvidenceTests.
    var engineOutcomes: [CallMonitorOutcome] {
        outcomes.map { outcome in
            var engine = outcome
            engine.shown = []
            return engine
        }
    }

    /// From now on, writes every outcome's ending into the log, in order with everything else.
    func logOutcomes() { logsOutcomes = true }

    /// Delegates made by ``delegate(_:)``, kept alive as an app would keep its handler.
    private var keptDelegates: [RecordingDelegate] = []

    /// A recording delegate that the harness keeps alive for the whole test.
    func delegate(_ name: String = "delegate") -> RecordingDelegate {
        let delegate = RecordingDelegate(name, log: log)
        keptDelegates.append(delegate)
        return delegate
    }

    /// Moves virtual time forward, running the ticks that fall due.
    func advance(_ seconds: Double) { scheduler.advance(bySeconds: seconds) }

    /// Moves virtual time to an absolute instant in seconds.
    func at(_ seconds: Double) { scheduler.advance(to: ManualScheduler.nanoseconds(seconds)) }

    func take() -> [String] { log.take() }

    /// Monitors a test made on this harness's scheduler itself (a relaunched app, a second
    /// monitor), whose wake-ups the end-of-test check counts too.
    private var otherMonitors: [CallMonitor] = []

    /// The scripted verifier a test set on ``monitor``, for the end-of-test check.
    private var verifier: ScriptedCallVerifier?

    /// Sets `scripted` as the monitor's call verifier and tells the end-of-test check about it.
    func useVerifier(_ scripted: ScriptedCallVerifier) {
        verifier = scripted
        monitor.setCallVerifier(using: scripted)
    }

    /// Tells the end-of-test check about another monitor on ``scheduler``.
    func sharesScheduler(with other: CallMonitor) { otherMonitors.append(other) }

    /// What may still be scheduled when a test ends: the one wake-up of the event on screen, and
    /// nothing at all without one (idle monitoring schedules nothing). More is a
    /// timer the monitor forgot to cancel: a leak, or a tick that would fire into a later event.
    func leftoverProblem() -> String? {
        let pending = scheduler.pendingCount
        // One wake-up per event on screen: a countdown's next tick, or the acknowledge flow's
        // once-a-second check after 0 (rule 13: a released delegate is noticed).
        // With a verifier, an event may also have its question's budget timer (rule 23), and the
        // scripted verifier its own delayed answers.
        let events = ([monitor] + otherMonitors).compactMap(\.currentSecurityEvent)
        let allowed = events.count * (verifier == nil ? 1 : 2) + (verifier?.pendingAnswers ?? 0)
        guard pending > allowed else { return nil }
        let shown = events.isEmpty ? "no event" : events.map { "a \($0.flow) event with \($0.remaining) s left" }.joined(separator: ", ")
        return "\(pending) piece(s) of work still scheduled at \(seconds(scheduler.now)) s with \(shown) on screen (at most \(allowed) expected); next due at \(scheduler.nextDeadline.map(seconds) ?? "-") s"
    }
}

/// The harnesses made while one test runs, for the end-of-test check.
final class HarnessRegistry: Sendable {
    @TaskLocal static var current: HarnessRegistry?
    private let made = Locked<[UncheckedHarness]>([])

    @MainActor func add(_ harness: Harness) { made.withLock { $0.append(UncheckedHarness(harness: harness)) } }

    @MainActor func problems() -> [String] { made.value.compactMap { $0.harness.leftoverProblem() } }
}

/// A harness carried out of the main actor only to be read on it again.
struct UncheckedHarness: @unchecked Sendable {
    let harness: Harness
}

/// Checks, when each test of the suite ends, that no harness it made has more work scheduled
/// than its event on screen explains (``Harness/leftoverProblem()``).
struct NothingLeftScheduled: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // Suites get their scope through their tests; checking at suite level would see nothing.
        guard !test.isSuite else { return try await function() }
        let registry = HarnessRegistry()
        try await HarnessRegistry.$current.withValue(registry) { try await function() }
        for problem in await registry.problems() {
            Issue.record(Comment(rawValue: "left scheduled: \(problem)"))
        }
    }
}

extension Trait where Self == NothingLeftScheduled {
    /// Every harness a test makes is checked when the test ends: nothing is left scheduled that
    /// the event on screen does not explain.
    static var nothingLeftScheduled: Self { NothingLeftScheduled() }
}

/// Lets every block already queued on the main queue run, then returns.
@MainActor
func drainMainQueue() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { continuation.resume() }
    }
}

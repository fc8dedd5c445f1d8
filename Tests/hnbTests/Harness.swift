// A CallMonitor wired to the scripted ports, with one log of everything observable (callback
// events, delegate calls, default-UI frames, exits), each stamped with the virtual time.

import Dispatch
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
}

@MainActor
final class Harness {
    let scheduler = ManualScheduler()
    let source = CountingCallSource()
    var calls: SimulatedCallSource { source.inner }
    let app: SimulatedAppState
    let log: Log
    let renderer = SimulatedAlertRenderer()
    let terminator = SimulatedTerminator()
    let monitor: CallMonitor

    init(foreground: Bool = true, callback: Bool = true) {
        app = SimulatedAppState(isForeground: foreground)
        let log = Log(scheduler: scheduler)
        self.log = log
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
            terminator: terminator
        )
        if callback {
            monitor.setCallback { event in
                expectOnMainQueue()
                log.add("event \(event)")
            }
        }
    }

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
}

/// Lets every block already queued on the main queue run, then returns.
@MainActor
func drainMainQueue() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { continuation.resume() }
    }
}

// Every public method called from eight threads at once while calls change on other threads.
// CI runs this suite under Thread Sanitizer as well (`swift test --sanitize=thread`).

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting

/// Counts what the monitor emitted; touched only on the main queue (checked).
@MainActor
final class EmissionCounter {
    var events = 0
    var delegateCalls = 0
    var offMain = 0
    func record() {
        if !MainQueue.isCurrent { offMain += 1 }
    }
}

@MainActor
final class CountingDelegate: CallMonitorDelegate {
    let counter: EmissionCounter
    let actions = LockedActions()
    init(counter: EmissionCounter) { self.counter = counter }
    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: Int32, onUserAction: @escaping () -> Void) {
        counter.record()
        counter.delegateCalls += 1
        actions.append(onUserAction)
    }
    func callMonitorCountdownTick(_ remaining: Int32) { counter.record(); counter.delegateCalls += 1 }
    func callMonitorDidEndCall() { counter.record(); counter.delegateCalls += 1 }
}

/// onUserAction closures shared with worker threads. `@unchecked Sendable`: guarded by `lock`,
/// and the closures themselves are documented as callable from any thread.
final class LockedActions: @unchecked Sendable {
    private let lock = NSLock()
    private var actions: [() -> Void] = []
    func append(_ action: @escaping () -> Void) { lock.withLock { actions.append(action) } }
    func random() -> (() -> Void)? { lock.withLock { actions.randomElement() } }
}

@MainActor
@Suite("Concurrency", .nothingLeftScheduled)
struct ConcurrencyTests {
    @Test("Eight threads calling every public method while calls change: no race, no crash, all output on main")
    func stress() async throws {
        let counter = EmissionCounter()
        let source = ExternalCallSource()
        let renderer = SimulatedAlertRenderer()
        renderer.onChange = { _ in counter.record() }
        let terminator = SimulatedTerminator()
        let monitor = CallMonitor(
            callSource: source, appState: SimulatedAppState(), scheduler: LiveScheduler(),
            alertRenderer: renderer, terminator: terminator
        )
        let delegates = (0..<4).map { _ in CountingDelegate(counter: counter) }
        let shared = UncheckedDelegates(delegates)
        let iterations = 3_000
        let callback: @MainActor (CallEvent) -> Void = { _ in
            counter.record()
            counter.events += 1
        }
        let languages: [String?] = ["de", "ru", nil, "xx"]

        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var rng = SeededGenerator(seed: UInt64(worker) + 1)
                    for i in 0..<iterations {
                        switch Int.random(in: 0..<10, using: &rng) {
                        case 0: monitor.startMonitoring(withTerminateIn: Int32.random(in: 30...60, using: &rng))
                        case 1: monitor.startMonitoring(withAcknowledgeIn: Int32.random(in: -1...3, using: &rng))
                        case 2: monitor.stopMonitoring()
                        case 3: monitor.setDelegate(shared.pick(&rng))
                        case 4: monitor.setCallback(i.isMultiple(of: 2) ? nil : callback)
                        case 5: monitor.setLanguage(languages[Int.random(in: 0..<languages.count, using: &rng)])
                        case 6: shared.anyAction(&rng)?()
                        default:
                            let id = CallID("call-\(worker)-\(Int.random(in: 0..<3, using: &rng))")
                            let state = Int.random(in: 0..<3, using: &rng)
                            source.send([CallSnapshot(id: id, hasConnected: state == 1, hasEnded: state == 2)])
                        }
                    }
                }
            }
        }
        await drainMainQueue()
        #expect(counter.offMain == 0)
        // Terminate policies here run 30 s or more, so only a Close App tap from a worker can exit.
        #expect(terminator.exitCodes.count <= 1)

        // After a final stop, changes from every thread produce nothing.
        monitor.stopMonitoring()
        let (events, calls) = (counter.events, counter.delegateCalls)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for i in 0..<50 {
                        source.send([CallSnapshot(id: CallID("late-\(worker)-\(i)"), hasConnected: true)])
                        shared.anyAction()?()
                    }
                }
            }
        }
        await drainMainQueue()
        #expect(counter.events == events)
        #expect(counter.delegateCalls == calls)
        _ = delegates
    }
}

/// Hands the test's delegates and their closures to worker threads.
/// `@unchecked Sendable`: the delegates are only passed to `setDelegate` (which never touches them
/// off the main thread), and the closure list is locked.
struct UncheckedDelegates: @unchecked Sendable {
    let delegates: [CountingDelegate]
    let actions: [LockedActions]

    @MainActor
    init(_ delegates: [CountingDelegate]) {
        self.delegates = delegates
        self.actions = delegates.map(\.actions)
    }

    func pick(_ rng: inout SeededGenerator) -> CountingDelegate? {
        let index = Int.random(in: 0...delegates.count, using: &rng)
        return index == delegates.count ? nil : delegates[index]
    }

    func anyAction() -> (() -> Void)? {
        actions.randomElement()?.random()
    }

    func anyAction(_ rng: inout SeededGenerator) -> (() -> Void)? {
        actions[Int.random(in: 0..<actions.count, using: &rng)].random()
    }
}

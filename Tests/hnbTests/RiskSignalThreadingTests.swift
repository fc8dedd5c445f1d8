// Split out of RiskThreadingTests.swift so that each file holds one suite, named as the file (issue 39).

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting

/// What the reader threads saw. `@unchecked Sendable`: every field is only touched under `lock`.
final class ReaderLog: @unchecked Sendable {
    private let lock = NSLock()
    private var states: Set<CallMonitorCallState> = []
    private var remainings: Set<CInt> = []
    private var reads = 0
    private var inconsistent = 0

    func record(state: CallMonitorCallState, event: CallMonitorSecurityEvent?, recent: Bool) {
        lock.withLock {
            reads += 1
            states.insert(state)
            if let event { remainings.insert(event.remaining) }
            // Each getter reads a whole snapshot: an event is always one the policy can produce,
            // and a call seen live (read before the window) is always recent afterwards.
            if let event, event.flow != .terminate || event.seconds != 3 || event.startedAt < 0 { inconsistent += 1 }
            if state != .idle && !recent { inconsistent += 1 }
        }
    }

    var summary: (reads: Int, states: Set<CallMonitorCallState>, remainings: Set<CInt>, inconsistent: Int) {
        lock.withLock { (reads, states, remainings, inconsistent) }
    }
}

@MainActor
@Suite("Risk signal threading", .nothingLeftScheduled)
struct RiskSignalThreadingTests {
    @Test("Four threads read every getter while the main thread rings, connects, counts down and ends calls")
    func gettersFromOtherThreads() async throws {
        let h = Harness(logsOutcomes: true)
        let monitor = h.monitor
        let log = ReaderLog()
        let stop = ReaderFlag()
        // Plain Dispatch threads, not tasks: spinning readers must not starve the cooperative pool.
        let readers = startReaders(4, monitor: monitor, log: log, stop: stop)
        // The rounds below take a fraction of a second; when the global queue is busy with other
        // suites, the readers could otherwise start only after them and read nothing of interest.
        await Patience.wait(every: 0.001) { log.summary.reads >= 4 }
        h.monitor.startMonitoring(withTerminateIn: 3)
        for round in 0..<2000 {
            let id = "c\(round)"
            try h.calls.incoming(id)
            try h.calls.connect(id)
            h.capture.setCaptured(round % 2 == 0)
            h.scheduler.advance(bySeconds: 1)
            try h.calls.end(id)
        }
        h.monitor.stopMonitoring()
        stop.set()
        await waitForReaders(readers)
        let seen = log.summary
        #expect(seen.inconsistent == 0)
        #expect(seen.reads > 0)
        #expect(seen.remainings.isSubset(of: [3, 2]))
        #expect(h.outcomes.count == 2000)
        #expect(Set(h.outcomes.map(\.ending)) == [.callEnded])
        // The last call ended at this very instant; one nanosecond later it is outside a 0 s window.
        #expect(h.monitor.wasCallLive(withinLast: 0) == true)
        h.scheduler.advance(by: 1)
        #expect(h.monitor.wasCallLive(withinLast: 0) == false)
        #expect(h.monitor.wasCallLive(withinLast: 0.000_000_001) == true)
    }
}

/// A flag set once from the main thread and read by worker threads.
/// `@unchecked Sendable`: `value` is only touched under `lock`.
final class ReaderFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// Starts `count` threads reading every getter until `stop` is set. Not on the main actor, so
/// the closures it makes carry no actor (a closure made on the main actor would be checked to run
/// there).
func startReaders(_ count: Int, monitor: CallMonitor, log: ReaderLog, stop: ReaderFlag) -> DispatchGroup {
    let group = DispatchGroup()
    for _ in 0..<count {
        DispatchQueue.global().async(group: group) {
            while !stop.isSet {
                _ = monitor.isMonitoring
                _ = monitor.isScreenCaptured
                let event = monitor.currentSecurityEvent
                let state = monitor.callState
                let recent = monitor.wasCallLive(withinLast: 3600)
                log.record(state: state, event: event, recent: recent)
                // A pause of 1 ms: four threads re-taking the lock back to back on two cores
                // slow the main thread's publish to seconds per thousand rounds (a reader that
                // holds the lock gets preempted), which proves nothing more than reads spaced out.
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
    }
    return group
}

/// Waits for the reader threads to finish; nonisolated for the same reason as ``startReaders``.
func waitForReaders(_ group: DispatchGroup) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        group.notify(queue: .global()) { done.resume() }
    }
}

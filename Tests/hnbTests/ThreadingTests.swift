// The threading promise of the public API: calls and deliveries from any thread are applied on the
// main thread, in order; re-entrant calls from the app's code wait their turn; and no lock of the
// library is held while the app's code runs.

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting

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
        var waits: [DispatchTimeoutResult] = []
        d.onDetect = {
            // `voip.sync { source.send(...) }`, bounded: a source that held its lock while this
            // step runs makes the queue's send wait for the main thread, which waits for the
            // queue. The timeout turns that deadlock into a failure instead of a hung run. The
            // VoIP stack's queue is a thread of its own (issue 37): a Dispatch queue runs on the
            // global pool, whose few threads other tests can all hold on a loaded machine, and
            // then the send would not even start within the timeout, a failure that says nothing
            // about the lock.
            let sent = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                source.send([CallSnapshot(id: CallID("B"), hasConnected: true)])
                sent.signal()
            }
            waits.append(sent.wait(timeout: .now() + Patience.seconds))
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
            // A thread of its own, as a VoIP stack's queue is: the global queue's few threads
            // may all be blocked by other tests running in parallel, and then this send would
            // never start (a timeout that says nothing about the lock).
            Thread.detachNewThread {
                source.send([CallSnapshot(id: CallID("B"))])
                sent.signal()
            }
            let waited = sent.wait(timeout: .now() + Patience.seconds)
            waits.withLock { $0.append(waited) }
        }
        source.stop()
        #expect(waits.value == [.success])
        #expect(seen.value == [.complete([]), .changes([CallSnapshot(id: CallID("B"))])])
        #expect(source.liveCalls == [CallSnapshot(id: CallID("B"))])
    }

    @Test("ExternalCallSource: a send on the main thread is applied before it returns while another thread delivers, and after stop nothing more arrives")
    func externalMainThreadSendWaitsItsTurn() async {
        let source = ExternalCallSource()
        let seen = Locked<[(batch: CallBatch, onMain: Bool)]>([])
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        source.start { batch in
            seen.withLock { $0.append((batch, MainQueue.isCurrent)) }
            // The other thread's delivery is held until the main thread is about to send.
            if batch == .changes([CallSnapshot(id: CallID("X"))]) {
                inside.signal()
                release.wait()
            }
        }
        // Own threads, not the global queue, for the same reason as above.
        Thread.detachNewThread { source.send([CallSnapshot(id: CallID("X"))]) }
        #expect(inside.wait(timeout: .now() + Patience.seconds) == .success)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.05)
            release.signal()
        }
        source.send([CallSnapshot(id: CallID("Y"))])
        // Y waited for X's delivery, then was handed over here, on the main thread.
        #expect(seen.value.map(\.batch) == [.complete([]), .changes([CallSnapshot(id: CallID("X"))]), .changes([CallSnapshot(id: CallID("Y"))])])
        #expect(seen.value.map(\.onMain) == [true, false, true])
        source.stop()
        await Task.detached { source.send([CallSnapshot(id: CallID("Z"))]) }.value
        #expect(seen.value.count == 3)
        #expect(source.liveCalls.map(\.id) == [CallID("X"), CallID("Y"), CallID("Z")])
    }

    @Test("ExternalCallSource: a stop or start on the main thread does not wait for another thread's delivery in progress; that delivery returns to nothing, and the new listener starts from the complete list")
    func externalListenDoesNotWaitForADelivery() async {
        let source = ExternalCallSource()
        let old = Locked<[CallBatch]>([])
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        let releasedUnstopped = Locked(false)
        source.start { batch in
            old.withLock { $0.append(batch) }
            if batch == .changes([CallSnapshot(id: CallID("X"))]) {
                inside.signal()
                release.wait()
            }
        }
        Thread.detachNewThread { source.send([CallSnapshot(id: CallID("X"))]) }
        #expect(inside.wait(timeout: .now() + Patience.seconds) == .success)
        // The delivery of X is held until stop has returned. Were stop to wait for it (the old
        // design), the releaser lets it go after the tests' patience and says so, rather than hang.
        Thread.detachNewThread {
            if stopped.wait(timeout: .now() + Patience.seconds) == .timedOut { releasedUnstopped.withLock { $0 = true } }
            release.signal()
        }
        source.stop()
        stopped.signal()
        let fresh = Locked<[CallBatch]>([])
        source.start { batch in fresh.withLock { $0.append(batch) } }
        #expect(fresh.value == [.complete([CallSnapshot(id: CallID("X"))])])
        // Whether or not the held delivery has returned yet, a send reaches the new listener alone.
        await Task.detached { source.send([CallSnapshot(id: CallID("Y"))]) }.value
        #expect(!releasedUnstopped.value)
        #expect(fresh.value == [.complete([CallSnapshot(id: CallID("X"))]), .changes([CallSnapshot(id: CallID("Y"))])])
        #expect(old.value == [.complete([]), .changes([CallSnapshot(id: CallID("X"))])])
        source.stop()
    }

    @Test("ExternalCallSource: the delivery a start on the main thread replaced, returning while the main thread delivers to the new listener, hands nothing over: a change sent meanwhile reaches the new listener after, on the main thread")
    func replacedDeliveryReturnsToNothing() async {
        let source = ExternalCallSource()
        let insideX = DispatchSemaphore(value: 0)
        let releaseX = DispatchSemaphore(value: 0)
        let senderDone = DispatchSemaphore(value: 0)
        source.start { batch in
            if batch == .changes([CallSnapshot(id: CallID("X"))]) {
                insideX.signal()
                releaseX.wait()
            }
        }
        Thread.detachNewThread {
            source.send([CallSnapshot(id: CallID("X"))])
            senderDone.signal()
        }
        #expect(insideX.wait(timeout: .now() + Patience.seconds) == .success)
        let heard = Locked<[(batch: CallBatch, onMain: Bool)]>([])
        source.start { batch in
            heard.withLock { $0.append((batch, MainQueue.isCurrent)) }
            guard batch.isComplete else { return }
            // Inside the main thread's delivery of the complete list: Y is sent from a third
            // thread (it waits, the main thread is delivering), then X's held delivery returns.
            let sentY = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                source.send([CallSnapshot(id: CallID("Y"))])
                sentY.signal()
            }
            sentY.wait()
            releaseX.signal()
            senderDone.wait()
        }
        #expect(heard.value.map(\.batch) == [.complete([CallSnapshot(id: CallID("X"))]), .changes([CallSnapshot(id: CallID("Y"))])])
        #expect(heard.value.map(\.onMain) == [true, true])
        source.stop()
    }

    @Test("ExternalCallSource: a stop and start made inside the main thread's own delivery (the app's code in that step) leave the source delivering: the new listener gets the complete list, then later changes")
    func restartInsideTheMainThreadsDelivery() async {
        let source = ExternalCallSource()
        let heard = Locked<[CallBatch]>([])
        let second: @Sendable (CallBatch) -> Void = { batch in heard.withLock { $0.append(batch) } }
        source.start { batch in
            if batch == .changes([CallSnapshot(id: CallID("A"))]) {
                // A sent on the main thread is delivered there, as the monitor's step would run.
                MainActor.assumeIsolated {
                    source.stop()
                    source.start(second)
                }
            }
        }
        source.send([CallSnapshot(id: CallID("A"))])
        #expect(heard.value == [.complete([CallSnapshot(id: CallID("A"))])])
        await Task.detached { source.send([CallSnapshot(id: CallID("B"))]) }.value
        #expect(heard.value == [.complete([CallSnapshot(id: CallID("A"))]), .changes([CallSnapshot(id: CallID("B"))])])
        source.stop()
    }

    @Test("MainQueue tells main-queue work from other threads")
    func mainQueueDetection() async {
        #expect(MainQueue.isCurrent)
        let offMain = await Task.detached { MainQueue.isCurrent }.value
        #expect(!offMain)
    }
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

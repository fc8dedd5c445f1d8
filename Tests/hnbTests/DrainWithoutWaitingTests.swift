// The scheduled drain does not sleep on the mailbox's lock while another thread holds it: it goes
// to the back of the main queue and tries again, a bounded number of times (issue 37, item 13).

import Dispatch
import Foundation
import Testing
@testable import hnb

@MainActor
@Suite("Command queue: the drain that does not wait for the mailbox's lock")
struct DrainWithoutWaitingTests {
    /// Lets the main queue run what is on it now (and what that puts behind this).
    func hop() async {
        await withCheckedContinuation { (ran: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { ran.resume() }
        }
    }

    /// Runs `post` on a thread of its own and waits for it here, on the main thread.
    func postWhileMainWaits(_ post: @escaping @Sendable () -> Void) {
        let posted = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            post()
            posted.signal()
        }
        posted.wait()
    }

    /// Holds the mailbox's lock on a thread of its own until `release` is signalled or, if
    /// `giveUpAfter` is set, until that many seconds pass (it then says so).
    final class Holder: @unchecked Sendable {
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let gaveUp = Locked(false)

        init(_ mailbox: Mailbox, giveUpAfter seconds: Double? = nil, releaseWhen condition: (@Sendable () -> Bool)? = nil) {
            Thread.detachNewThread { [self] in
                mailbox.holdingLockForTesting {
                    held.signal()
                    if let condition, let seconds {
                        // Polled, not timed: the condition says when; the patience only ends a
                        // regression that never meets it, and says so.
                        let deadline = Date().addingTimeInterval(seconds)
                        while !condition() {
                            if Date() >= deadline { gaveUp.withLock { $0 = true }; break }
                            usleep(1_000)
                        }
                    } else if let seconds {
                        if release.wait(timeout: .now() + seconds) == .timedOut { gaveUp.withLock { $0 = true } }
                    } else {
                        release.wait()
                    }
                }
                done.signal()
            }
            held.wait()
        }
    }

    @Test("A drain that finds the lock held lets other main-queue work run and takes the commands once it is free: once each, in order")
    func defersWhileHeld() async {
        // A bound this test never reaches: how many retries fit in one hop is the executor's
        // business, and a drain that waited for the lock here would wait for this test's signal.
        let queue = CommandQueue(retriesBeforeWaiting: Int.max)
        var applied: [String] = []
        queue.process = { applied.append($0.label) }
        // Posted from another thread while the main thread waits here, so the drain they schedule
        // cannot run before the holder has the lock.
        postWhileMainWaits { queue.post(.callDetection(false)); queue.post(.stop) }
        // Were the drain to wait for the lock (the old design), it would wait for this test's
        // signal: the holder lets go by itself after five minutes instead, and says so, so the
        // regression fails rather than hangs. The bound is no figure this test measures: other
        // tests running beside it may keep the main queue busy for seconds (ten were seen missed
        // on a loaded machine), never for minutes.
        let holder = Holder(queue.mailboxForTesting, giveUpAfter: 300)
        await hop()
        // Main-queue work ran while the lock was held: the drain went to the back, nothing applied.
        #expect(applied == [])
        #expect(queue.deferredDrains >= 1)
        // The lock was held throughout: the count only grew, so its peak is where it is now.
        #expect(queue.mostDeferredDrains == queue.deferredDrains)
        holder.release.signal()
        holder.done.wait()
        #expect(!holder.gaveUp.value)
        for _ in 0..<10 where applied.isEmpty { await hop() }
        #expect(applied == ["detection false", "stop"])
        #expect(queue.deferredDrains == 0)
        // Nothing more comes: the commands were taken once.
        await hop()
        #expect(applied == ["detection false", "stop"])
    }

    @Test("After its bound of retries the drain waits for the lock, as before: commands are never put off for ever")
    func waitsAfterTheBound() async {
        let queue = CommandQueue(retriesBeforeWaiting: 3)
        var applied: [String] = []
        queue.process = { applied.append($0.label) }
        postWhileMainWaits { queue.post(.stop) }
        // The holder lets go once the main thread has begun a take that waits for the lock: no
        // clock decides, so a busy main queue (other suites run beside this one) changes nothing.
        // A drain that kept retrying past its bound never begins one: the holder then gives up
        // after a minute and says so.
        let mailbox = queue.mailboxForTesting
        let holder = Holder(mailbox, giveUpAfter: 60, releaseWhen: { mailbox.takesThatMayWaitForTesting > 0 })
        var mostDeferred = 0
        var hops = 0
        for _ in 0..<1000 where applied.isEmpty {
            mostDeferred = max(mostDeferred, queue.deferredDrains)
            hops += 1
            await hop()
        }
        holder.done.wait()
        #expect(applied == ["stop"])
        #expect(!holder.gaveUp.value)
        // Three retries from the back of the main queue, then one drain that waited: counted,
        // not timed.
        #expect(queue.scheduledDrainRuns == 4)
        #expect(mailbox.takesThatMayWaitForTesting == 1)
        #expect(mostDeferred <= 3)
        // Never past the bound, by the queue's own peak, which sampling between turns can miss.
        #expect(queue.mostDeferredDrains == 3)
        #expect(queue.deferredDrains == 0)
        // Once past the bound the main thread stopped turning until the lock was free: the drain
        // and this loop share the main queue in order, so a couple of turns fit before the
        // drain waits, never the hundreds a drain that kept retrying would allow.
        #expect(hops <= 5)
    }
}

// The hand-over from other threads to the main thread: the lock and the queue. What may stand in
// for what (coalescing, the fold of a storm) is the engine's rule (Engine/MonitorEngine+Fold.swift).

import Foundation

/// What other threads hand the main thread: API calls, and the ports' deliveries (call batches,
/// app-state and capture changes, the verifier's answers), kept under one lock and applied by one
/// main-queue block per burst.
///
/// Only the latest state of a call or of the app matters, so call and app-state deliveries are
/// merged: at most one call batch and one app state wait, whatever the rate. Capture changes and
/// the verifier's answers wait in order with the API calls. API calls keep their order; a command
/// that only repeats or overrides the one before it (the same setter again, the same start or
/// stop twice, the same tap twice, a capture change after one from the same run of the source)
/// replaces it (``MonitorEngine/coalesce(_:_:)``). A storm of API calls faster than the main
/// thread can apply them is bounded too: past ``limit`` waiting calls, the queue is folded into
/// the calls that give the same end state or a stricter one (``MonitorEngine/fold(_:)``).
///
/// `@unchecked Sendable`: every stored property is only touched under `lock`.
final class Mailbox: @unchecked Sendable {
    typealias Input = MonitorEngine.Input

    /// How many API calls may wait before they are folded. Small on purpose: one drain applies
    /// what waits in one main-queue block, so this bounds how long other main-queue work waits
    /// behind it, and folding removes repeated work (a start or stop restarts the sources, the
    /// most expensive command). It stays above what a fold leaves of a storm (each setting's last
    /// value around at most three starts or stops between two taps, and each tap once: 36 in
    /// `MailboxTests`' seeded storm), so the queue is not folded again on every post. In the
    /// bench's storm, 256 let a drain hold about a hundred calls; 32 brought the median
    /// main-queue p99 of 16 runs from 3.8 ms to 0.65 ms, and 48 (above the test's 36) kept it
    /// there (Performance.md).
    static let limit = 48

    private let lock = NSLock()
    private var commands: [Input] = []
    private var calls: (generation: UInt64, batch: CallBatch)?
    private var appState: (generation: UInt64, isForeground: Bool)?
    private var drainScheduled = false

    /// Queues what another thread sent; returns whether the caller must schedule a drain. Call
    /// deliveries and app-state changes are merged into the one waiting, API calls queued.
    func post(_ input: Input) -> Bool {
        switch input {
        case .calls(let batch, let run): return post(calls: batch, generation: run)
        case .appState(let isForeground, let run): return post(isForeground: isForeground, generation: run)
        default: break
        }
        return lock.withLock {
            if let last = commands.last, let merged = MonitorEngine.coalesce(last, input) {
                commands[commands.count - 1] = merged
            } else {
                commands.append(input)
                if commands.count > Self.limit { commands = MonitorEngine.fold(commands) }
            }
            return scheduleIfNeeded()
        }
    }

    /// Merges a call delivery into the one waiting; returns whether a drain must be scheduled.
    func post(calls batch: CallBatch, generation: UInt64) -> Bool {
        lock.withLock {
            switch calls {
            case let waiting? where waiting.generation == generation:
                calls = (generation, waiting.batch.merged(with: batch))
            case let waiting? where waiting.generation > generation:
                // A late delivery from an earlier run of the source: stale, and it must not
                // push out the current run's batch.
                break
            default:
                // Nothing waits, or what waits is from an earlier run (stale).
                calls = (generation, batch)
            }
            return scheduleIfNeeded()
        }
    }

    /// Keeps only the latest app state; returns whether a drain must be scheduled.
    func post(isForeground: Bool, generation: UInt64) -> Bool {
        lock.withLock {
            if let waiting = appState, waiting.generation > generation { return false }
            appState = (generation, isForeground)
            return scheduleIfNeeded()
        }
    }

    /// Everything waiting, in the order to apply it: API calls, then the app state, then calls.
    func takeAll() -> [Input] {
        takesThatMayWait.withLock { $0 += 1 }
        return lock.withLock { takeWhileLocked() }
    }

    /// How many ``takeAll()`` calls began, each ready to wait for the lock. Counted under a lock
    /// of its own, before the mailbox's, so that a test holding the mailbox's lock on another
    /// thread sees the main thread arrive without a clock (``takeAll()`` is rare: only a drain
    /// past its bound of retries calls it).
    private let takesThatMayWait = Locked(0)
    var takesThatMayWaitForTesting: Int { takesThatMayWait.value }

    /// Everything waiting, as ``takeAll()``, or nil without waiting when another thread holds
    /// the lock right now: the scheduled drain then tries again later instead of putting the
    /// main thread to sleep (``CommandQueue``). Only a drain that is due anyway uses it: what
    /// waits stays, and no post schedules another drain meanwhile.
    func takeAllIfFree() -> [Input]? {
        guard lock.try() else { return nil }
        defer { lock.unlock() }
        return takeWhileLocked()
    }

    private func takeWhileLocked() -> [Input] {
        // The common case on the main thread: nothing waits, and nothing is allocated.
        if commands.isEmpty && appState == nil && calls == nil { return [] }
        drainScheduled = false
        var taken = commands
        commands.removeAll(keepingCapacity: true)
        if let appState { taken.append(.appState(isForeground: appState.isForeground, run: appState.generation)) }
        if let calls { taken.append(.calls(calls.batch, run: calls.generation)) }
        appState = nil
        calls = nil
        return taken
    }

    private func scheduleIfNeeded() -> Bool {
        guard !drainScheduled else { return false }
        drainScheduled = true
        return true
    }
}

// MARK: - Test hooks

extension Mailbox {
    /// How many API calls wait now: for the tests of the bound (`@testable import`). The library
    /// never reads it.
    var waitingCommandCountForTesting: Int { lock.withLock { commands.count } }

    /// Runs `body` holding the mailbox's lock, as a sending thread does: for the tests of the
    /// drain that does not wait for it.
    func holdingLockForTesting(_ body: () -> Void) { lock.withLock(body) }
}

// The command queue: what other threads send waits in the mailbox for the main thread, and a
// command sent while another is being carried out waits its turn, so the engine's output is
// always carried out in its own order.

import Dispatch

/// Takes every command to the main thread, in order, one at a time.
@MainActor
final class CommandQueue {
    /// What other threads sent and the main thread has not applied yet, coalesced.
    private nonisolated let mailbox = Mailbox()
    private var inbox: [MonitorEngine.Input] = []
    private var draining = false
    /// Carries out one command (the core's `process`, held weakly: the core owns this queue).
    /// `nonisolated(unsafe)`: set once in the core's initializer, before any command can be
    /// posted, and only read on the main actor after that.
    nonisolated(unsafe) var process: @MainActor (MonitorEngine.Input) -> Void = { _ in }

    nonisolated init(retriesBeforeWaiting: Int = CommandQueue.defaultRetriesBeforeWaiting) {
        self.retriesBeforeWaiting = retriesBeforeWaiting
    }

    /// Whether a command is being carried out now: one posted from inside it waits its turn.
    var isBusy: Bool { draining }

    /// The mailbox, for the tests of the drain that does not wait for its lock.
    nonisolated var mailboxForTesting: Mailbox { mailbox }

    /// Applies `command` now if this is the main thread (after whatever other threads sent before
    /// it), else leaves it in the mailbox for the main thread.
    nonisolated func post(_ command: MonitorEngine.Input) {
        if MainQueue.isCurrent {
            MainActor.assumeIsolated {
                drainMailbox()
                submit(command)
            }
        } else if mailbox.post(command) {
            scheduleDrain()
        }
    }

    /// How many times in a row a scheduled drain may find the mailbox's lock held by another
    /// thread and try again from the back of the main queue before it waits for the lock. The
    /// main thread sleeping on that lock was the longest wait of main-queue work in
    /// `callmonitor bench`'s storm: with more sending threads than cores, the holder is often
    /// preempted and the main thread sleeps until it runs again, then waits for a core itself
    /// (issue 37, item 13: three quiet runs of the storm's main-queue p99 went from 4.0, 16.1 and
    /// 12.2 ms to 0.7, 2.5 and 2.7 ms). The bound
    /// keeps a lock that is never free from putting off the commands for ever: after it, the
    /// drain waits as it did before.
    nonisolated static let defaultRetriesBeforeWaiting = 16
    /// ``defaultRetriesBeforeWaiting``, or a test's own bound.
    nonisolated let retriesBeforeWaiting: Int

    /// Scheduled drains in a row that found the lock held.
    private(set) var deferredDrains = 0
    /// The most ``deferredDrains`` ever reached: what the tests compare with the bound, since
    /// sampling ``deferredDrains`` between main-queue turns can miss its peak.
    private(set) var mostDeferredDrains = 0
    /// How many times a scheduled drain ran: a burst whose lock stays held runs it
    /// ``retriesBeforeWaiting`` + 1 times, then waits (what the tests count, not time).
    private(set) var scheduledDrainRuns = 0

    /// One main-queue block per burst, however many commands the burst holds.
    private nonisolated func scheduleDrain() {
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated { scheduledDrain() }
        }
    }

    /// The burst's drain: takes what waits if the lock is free, else tries again later (at most
    /// ``retriesBeforeWaiting`` times in a row), so other main-queue work runs meanwhile. The
    /// mailbox keeps its drain marked as scheduled, so posts meanwhile add to what waits and this
    /// block stays the one that takes it.
    private func scheduledDrain() {
        scheduledDrainRuns += 1
        guard deferredDrains < retriesBeforeWaiting else {
            deferredDrains = 0
            drainMailbox()
            return
        }
        guard let taken = mailbox.takeAllIfFree() else {
            deferredDrains += 1
            mostDeferredDrains = max(mostDeferredDrains, deferredDrains)
            scheduleDrain()
            return
        }
        deferredDrains = 0
        apply(taken)
    }

    private func drainMailbox() {
        apply(mailbox.takeAll())
    }

    /// Carries out what was taken from the mailbox. All of it joins the inbox at once: a command
    /// taken here may cause a nested drain (a source that delivers while it starts), whose newer
    /// commands must come after these.
    private func apply(_ taken: [MonitorEngine.Input]) {
        guard !taken.isEmpty else { return }
        submit(contentsOf: taken)
    }

    /// Carries out `command` now, or after the command in progress when there is one.
    func submit(_ command: MonitorEngine.Input) {
        submit(contentsOf: CollectionOfOne(command))
    }

    private func submit(contentsOf commands: some Collection<MonitorEngine.Input>) {
        inbox.append(contentsOf: commands)
        // A command sent from inside a delegate method or the callback waits until the actions
        // in progress are done, so the engine's output is always carried out in its own order.
        guard !draining else { return }
        draining = true
        defer { draining = false }
        runInbox()
    }

    /// Carries out `command` now, after what other threads sent before it, through `step`
    /// instead of ``process``, and returns what `step` returned: the caller's own answer from
    /// its own step (`applyPolicy(document:)`'s document event), with no state kept between
    /// calls. The commands posted while it runs follow it, in order. `nil`, with nothing carried
    /// out, when a command is in progress (a call from inside a delegate method or callback).
    func runNow<Answer>(_ command: MonitorEngine.Input, through step: (MonitorEngine.Input) -> Answer) -> Answer? {
        guard !draining else { return nil }
        drainMailbox()
        draining = true
        defer { draining = false }
        let answer = step(command)
        runInbox()
        return answer
    }

    /// Carries out the inbox in order, the commands its commands add included.
    private func runInbox() {
        var next = 0
        while next < inbox.count {
            let command = inbox[next]
            next += 1
            process(command)
        }
        inbox.removeAll(keepingCapacity: true)
    }
}

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

    nonisolated init() {}

    /// Whether a command is being carried out now: one posted from inside it waits its turn.
    var isBusy: Bool { draining }

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

    /// One main-queue block per burst, however many commands the burst holds.
    private nonisolated func scheduleDrain() {
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated { drainMailbox() }
        }
    }

    private func drainMailbox() {
        let taken = mailbox.takeAll()
        guard !taken.isEmpty else { return }
        // All of it joins the inbox at once: a command taken here may cause a nested drain (a
        // source that delivers while it starts), whose newer commands must come after these.
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
        var next = 0
        while next < inbox.count {
            let command = inbox[next]
            next += 1
            process(command)
        }
        inbox.removeAll(keepingCapacity: true)
    }
}

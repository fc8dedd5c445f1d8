// Rules 5 and 8 as issue 37 changed them: an exit never acts on a view of the calls older than the
// last resume. A suspended app hears of CallKit's changes only once it runs again, and the
// countdown's overdue wake-up may run before those queued deliveries: acting on the view it had
// when it was suspended would end the app for a call that ended seconds into the suspension. So an
// exit that falls due while the view may be stale asks the call source to read its list again and
// waits for a complete list; the list either ends the session (no exit) or lets the exit happen at
// once. The wait is bounded, so a source that cannot read on demand still ends in the exit.

extension MonitorEngine {
    /// How long a due exit waits for the list it asked for before it happens on the view it has
    /// (fail closed). CallKit reads its list synchronously, so on iOS the list comes in the same
    /// main-queue block and this bound is never reached; it is there for a source that cannot
    /// read on demand (``ExternalCallSource``, the telephony sources) or never answers.
    static let freshListGrace: Int64 = second

    /// Whether the engine's view of the calls may be older than the last resume, and the due exit
    /// waiting for a list read after it.
    struct CallListFreshness: Sendable {
        /// The app returned to the foreground and no complete list has been applied since: the
        /// process may have been suspended until that return, so the view may be stale.
        private(set) var awaitingListAfterForeground = false
        /// When the exit that fell due began waiting for a list; `nil` when none waits. Kept
        /// across a change of the event (a policy changed while it waits), so changing the policy
        /// cannot restart the bound; cleared by a complete list, the exit, or the session's end.
        private(set) var exitWaitingSince: Int64?

        /// The app returned to the foreground.
        mutating func resumed() { awaitingListAfterForeground = true }

        /// A complete list was applied: read after the last return to the foreground.
        mutating func listRead() { awaitingListAfterForeground = false }

        /// A due exit waits from `now`, unless one already waits; returns whether it began now.
        mutating func exitBeganWaiting(at now: Int64) -> Bool {
            guard exitWaitingSince == nil else { return false }
            exitWaitingSince = now
            return true
        }

        /// The wait is over (a list came, the exit happened, the session ended); returns whether
        /// an exit was waiting.
        mutating func exitStoppedWaiting() -> Bool {
            defer { exitWaitingSince = nil }
            return exitWaitingSince != nil
        }
    }

    /// Whether a due exit may act on the calls as the engine knows them now: the app is in the
    /// foreground (a process in the background may be suspended at any moment and resumed with
    /// its deliveries queued behind the wake-up) and a complete list was applied since it returned.
    var callListIsCurrent: Bool { isForeground && !freshness.awaitingListAfterForeground }

    /// Rules 5 and 8: the terminate countdown on screen is over. The exit happens now when the
    /// view of the calls is current; otherwise the call source is asked to read its list again
    /// (once per wait) and the exit waits for a complete list, at most ``freshListGrace`` after
    /// it fell due, and then happens on the view it has (fail closed).
    mutating func exitWhenCallListIsCurrent(now: Int64, into actions: inout [Action]) {
        guard !callListIsCurrent else {
            exit(now: now, into: &actions)
            return
        }
        if freshness.exitBeganWaiting(at: now) { actions.append(.refreshCalls) }
        let bound = Self.deadline(freshness.exitWaitingSince ?? now, plusNanoseconds: Self.freshListGrace)
        guard now < bound else {
            exit(now: now, into: &actions)
            return
        }
        actions.append(.schedule(at: bound))
    }

    /// A complete list was applied (rule 15) and the session settled on it: an exit that waited
    /// for it happens now if the terminate countdown on screen is still over, that is if the list
    /// left the session live (a list that ended it ended the event, with no exit). An event is on
    /// screen only while monitoring (a stop or the exit ends it), so the phase needs no test.
    mutating func completeListApplied(now: Int64, into actions: inout [Action]) {
        guard freshness.exitStoppedWaiting(), let event = shownEvent, event.flow == .terminate, event.isOver else { return }
        exit(now: now, into: &actions)
    }
}

#if DEBUG
// Equality that only the tests use, left out of release builds (CONTRIBUTING, "Binary size").
extension MonitorEngine.CallListFreshness: Equatable {}
#endif

// The live calls and the session (rules 1, 2, 3, 7 and 15): each batch from the call source
// recorded in the live calls, and the aggregate settled, which reports a change, ends an event with
// its session or begins one for a new call. Pure, like the rest of the engine.

extension MonitorEngine {
    mutating func apply(_ batch: CallBatch, now: Int64, into actions: inout [Action]) {
        // Rule 15: a complete list is the truth. A known call missing from it ended while its
        // change notification was lost; a call in it that we never heard of is live.
        // Rule 19: the app's own calls are invisible to everything below.
        let batch = guards.visible(batch)
        if batch.isComplete {
            for id in calls.ids(missingFrom: batch.calls) { forgetCall(id) }
            // Issue 37: a view read after the last resume (in the background the view never counts
            // as current, and the next return marks it stale again, so no test of the state is needed).
            freshness.listRead()
        }
        for snapshot in batch.calls { record(snapshot) }
        settle(now: now, ending: .callEnded, into: &actions)
        // Issue 37: the exit that waited for this list happens now if the session is still live.
        if batch.isComplete { completeListApplied(now: now, into: &actions) }
    }

    /// Reports a change of the aggregate and acts on it; an event that the session's end ends
    /// gets `ending`. Also begins an event for a new call that no acknowledgement covers (rule 4).
    mutating func settle(now: Int64, ending: Ending, into actions: inout [Action]) {
        // Read first: a change of the calls costs a copy of the session, and most steps settle nothing.
        let changed = calls.isUnsettled && changeCalls { $0.settle() }
        let next = calls.settled
        if isFollowing {
            // Rule 10: following is silent (no callback, no event); the session's end ends it.
            if next == .idle { endMonitoring(into: &actions) }
            return
        }
        // Rules 2 and 9: the callback hears of the change before the UI reacts to it.
        if changed { actions.append(.emit(next.event)) }
        if next == .idle {
            guard changed else { return }
            // Rules 3 and 7: the session is over; so is its event, and nothing exits.
            endSession(now: now, ending: ending, into: &actions)
        } else {
            // Rule 4: an acknowledgement covers only the calls it saw; the calls that left took
            // theirs with them (`forgetCall`).
            // Rule 25: a session that begins while the screen is captured begins escalated.
            escalationMayHaveChanged(now: now, into: &actions)
            beginEventIfDue(now: now, into: &actions)
        }
    }

    /// A call leaves the session, and its acknowledgement with it (rule 4: an acknowledgement
    /// lasts for the calls it saw, so a new call under a reused identifier is warned about again).
    /// Done here, per call, rather than by filtering every acknowledgement on every change: with
    /// 64 live calls acknowledged, that filter was most of the engine's time.
    private mutating func forgetCall(_ id: CallID) {
        guard changeCalls({ $0.remove(id) }) != nil else { return }
        guards.forgetAcknowledgement(of: id)
    }

    private mutating func record(_ snapshot: CallSnapshot) {
        if snapshot.hasEnded {
            // An ended call we never saw as live changes nothing.
            forgetCall(snapshot.id)
            return
        }
        // A call that joins the session: the verifier is asked again (rule 23).
        if changeCalls({ $0.insert(LiveCall(snapshot), as: snapshot.id) }) { callJoined() }
    }
}

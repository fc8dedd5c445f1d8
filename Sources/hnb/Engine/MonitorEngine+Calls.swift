// The live calls and the session (rules 1, 2, 3, 7 and 15): each batch from the call source
// recorded, and the aggregate settled, which reports a change, ends an event with its session
// or begins one for a new call. Pure, like the rest of the engine.

extension MonitorEngine {
    mutating func apply(_ batch: CallBatch, now: Int64, into actions: inout [Action]) {
        // Rule 15: a complete list is the truth. A known call missing from it ended while its
        // change notification was lost; a call in it that we never heard of is live.
        // Rule 19: the app's own calls are invisible to everything below.
        let batch = guards.visible(batch)
        if batch.isComplete { forgetCalls(missingFrom: batch.calls) }
        for snapshot in batch.calls { record(snapshot) }
        settle(now: now, ending: .callEnded, into: &actions)
    }

    /// Reports a change of the aggregate and acts on it; an event that the session's end ends
    /// gets `ending`. Also begins an event for a new call that no acknowledgement covers (rule 4).
    mutating func settle(now: Int64, ending: Ending, into actions: inout [Action]) {
        let next: AggregateCallState = calls.isEmpty ? .idle : (connectedCount > 0 ? .started : .ringing)
        if isFollowing {
            // Rule 10: following is silent (no callback, no event); the session's end ends it.
            aggregate = next
            if next == .idle { endMonitoring(into: &actions) }
            return
        }
        let changed = next != aggregate
        if changed {
            aggregate = next
            // Rules 2 and 9: the callback hears of the change before the UI reacts to it.
            actions.append(.emit(next.event))
        }
        if next == .idle {
            guard changed else { return }
            // Rules 3 and 7: the session is over; so is its event, and nothing exits.
            lastLiveAt = now
            if case .shown(let event) = security {
                actions.append(.dismiss(on: shownSurface))
                actions.append(.cancelWakeUp)
                actions.append(.outcome(ended(event, ending, now: now)))
            }
            security = .waiting
            guards.sessionEnded()
        } else {
            // Rule 4: an acknowledgement covers only the calls it saw; the calls that left took
            // theirs with them (`forgetCall`).
            // Rule 25: a session that begins while the screen is captured begins escalated.
            escalationMayHaveChanged(now: now, into: &actions)
            beginEventIfDue(now: now, into: &actions)
        }
    }

    private mutating func forgetCalls(missingFrom list: [CallSnapshot]) {
        guard !calls.isEmpty else { return }
        var listed = Set<CallID>(minimumCapacity: list.count)
        for snapshot in list where !snapshot.hasEnded { listed.insert(snapshot.id) }
        let gone = calls.keys.filter { !listed.contains($0) }
        for id in gone { forgetCall(id) }
    }

    /// A call leaves the session: its connected count and its acknowledgement go with it (rule 4:
    /// an acknowledgement lasts for the calls it saw, so a new call under a reused identifier is
    /// warned about again). Done here, per call, rather than by filtering every acknowledgement on
    /// every change: with 64 live calls acknowledged, that filter was most of the engine's time.
    private mutating func forgetCall(_ id: CallID) {
        guard let wasConnected = calls.removeValue(forKey: id) else { return }
        if wasConnected { connectedCount -= 1 }
        guards.forgetAcknowledgement(of: id)
    }

    private mutating func record(_ snapshot: CallSnapshot) {
        let previous = calls[snapshot.id]
        if snapshot.hasEnded {
            // An ended call we never saw as live changes nothing.
            if previous != nil { forgetCall(snapshot.id) }
            return
        }
        let connected = snapshot.countsAsConnected
        if previous == nil { callsJoined &+= 1 }
        calls[snapshot.id] = connected
        switch (previous, connected) {
        case (nil, true), (false?, true): connectedCount += 1
        case (true?, false): connectedCount -= 1
        default: break
        }
    }
}

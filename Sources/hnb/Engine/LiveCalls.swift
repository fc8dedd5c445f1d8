// The live calls of the session (rule 1) and the aggregate they make: each call as its source last
// reported it, its direction kept, and the connected count behind the aggregate changed only here.

/// One live call as the engine keeps it.
struct LiveCall: Sendable {
    /// Whether the call counts as a conversation in progress: it connected, or it is on hold.
    var isConnected: Bool
    /// Whether the user placed the call rather than received it. Kept (nothing reads it yet) so
    /// that a rule about incoming or outgoing calls finds it here, not in a side table.
    var isOutgoing: Bool

    init(isConnected: Bool, isOutgoing: Bool = false) {
        self.isConnected = isConnected
        self.isOutgoing = isOutgoing
    }

    /// The call as `snapshot` reports it (a live snapshot: an ended call is not a live call).
    init(_ snapshot: CallSnapshot) {
        self.init(isConnected: snapshot.countsAsConnected, isOutgoing: snapshot.isOutgoing)
    }
}

/// The live calls by identifier, and the aggregate state they make (rule 1): idle with none,
/// started when any counts as connected, ringing otherwise.
///
/// Two aggregates: ``current`` follows every change at once; ``settled`` is the one the session
/// last reported, which only ``settle()`` moves, so the engine can tell what changed in a step and
/// report it once (rule 2). The connected count behind ``current`` changes with the calls and
/// nowhere else, so it cannot drift from them.
struct LiveCalls: Sendable {
    private var calls: [CallID: LiveCall] = [:]
    /// How many of `calls` count as connected, so the aggregate costs O(1) whatever the number of
    /// calls.
    private var connectedCount = 0
    /// The aggregate as last settled.
    private(set) var settled: CallMonitorCallState = .idle

    /// The aggregate of the calls as they are now.
    var current: CallMonitorCallState { calls.isEmpty ? .idle : (connectedCount > 0 ? .started : .ringing) }
    var isEmpty: Bool { calls.isEmpty }
    var count: Int { calls.count }
    /// The identifiers of the live calls, in no order.
    var ids: Dictionary<CallID, LiveCall>.Keys { calls.keys }

    subscript(id: CallID) -> LiveCall? { calls[id] }

    /// Records `call` as live; returns whether it joined the session (it was not live before).
    @discardableResult
    mutating func insert(_ call: LiveCall, as id: CallID) -> Bool {
        let previous = calls.updateValue(call, forKey: id)
        if previous?.isConnected == true { connectedCount -= 1 }
        if call.isConnected { connectedCount += 1 }
        return previous == nil
    }

    /// Takes `id` out of the live calls; returns the call, or `nil` if it was not live.
    @discardableResult
    mutating func remove(_ id: CallID) -> LiveCall? {
        guard let call = calls.removeValue(forKey: id) else { return nil }
        if call.isConnected { connectedCount -= 1 }
        return call
    }

    /// Every call is gone (detection switched off); the settled aggregate stays until ``settle()``.
    mutating func removeAll() {
        calls.removeAll(keepingCapacity: true)
        connectedCount = 0
    }

    /// The live calls that `list`, a complete list, does not name as live (rule 15).
    func ids(missingFrom list: [CallSnapshot]) -> [CallID] {
        guard !calls.isEmpty else { return [] }
        var listed = Set<CallID>(minimumCapacity: list.count)
        for snapshot in list where !snapshot.hasEnded { listed.insert(snapshot.id) }
        return calls.keys.filter { !listed.contains($0) }
    }

    /// Whether the current aggregate differs from the settled one: what ``settle()`` would change.
    var isUnsettled: Bool { current != settled }

    /// Makes the current aggregate the settled one; returns whether it changed.
    mutating func settle() -> Bool {
        let next = current
        guard next != settled else { return false }
        settled = next
        return true
    }
}

#if DEBUG
// Equality that only the tests use, left out of release builds (CONTRIBUTING, "Binary size").
extension LiveCall: Equatable {}
extension LiveCalls: Equatable {}
#endif

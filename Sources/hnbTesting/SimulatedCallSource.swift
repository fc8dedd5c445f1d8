// A call source driven by hand: for tests, SwiftUI previews, the iOS Simulator (which has no
// telephony) and the `callmonitor` simulator.

import hnb

/// A call source whose calls you script: ring, dial, connect, hold, resume, end.
///
/// ```swift
/// let calls = SimulatedCallSource()
/// let monitor = CallMonitor(callSource: calls, ...)
/// monitor.startMonitoring(withTerminateIn: 10)
/// try calls.incoming("A")
/// try calls.connect("A")     // the security UI appears
/// ```
///
/// Each method checks that the change makes sense for the call's current state and throws
/// ``SimulatedCallSource/ScriptError`` otherwise, so a script cannot describe an impossible call.
public final class SimulatedCallSource: CallSource {
    /// A scripted change that no real call could make.
    public enum ScriptError: Error, Equatable, CustomStringConvertible {
        /// A new call was given an identifier already in use.
        case duplicateCall(String)
        /// The identifier names no call.
        case unknownCall(String)
        /// The call has ended; nothing more can happen to it.
        case callEnded(String)
        /// The change does not fit the call's state (for example, holding a call that has not connected).
        case invalidTransition(String, String)

        /// The problem in words, as `callmonitor simulate` prints it after `line N:`.
        public var description: String {
            switch self {
            case .duplicateCall(let id): "call \(id) already exists"
            case .unknownCall(let id): "unknown call \(id)"
            case .callEnded(let id): "call \(id) has already ended"
            case .invalidTransition(let id, let why): "call \(id) \(why)"
            }
        }
    }

    private var calls: [String: CallSnapshot] = [:]
    private var order: [String] = []
    private var deliver: (@Sendable (CallBatch) -> Void)?

    /// A source with no calls.
    public nonisolated init() {}

    /// Every call that has not ended, in the order they began.
    public var liveCalls: [CallSnapshot] {
        order.compactMap { calls[$0] }.filter { !$0.hasEnded }
    }

    /// Whether ``start`` delivers the complete list of live calls: `true` unless the script is
    /// a recording, whose own `calls` lines say what the device's source delivered at its start.
    package var deliversListAtStart = true

    /// Delivers the complete list of live calls, then each change as the script makes it.
    package func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) {
        self.deliver = deliver
        if deliversListAtStart { deliver(.complete(liveCalls)) }
    }

    /// Reads the list on demand (issue 37), as CallKit does: the complete list of live calls, at
    /// once. Not for a recording (``deliversListAtStart`` off), whose own `calls` lines say what
    /// the device's source delivered.
    package func refresh() {
        if deliversListAtStart { deliver?(.complete(liveCalls)) }
    }

    /// Stops delivering; calls changed afterwards are kept and reported at the next start.
    package func stop() {
        deliver = nil
    }

    /// Makes the changes in `body` without reporting them, as when the system's change
    /// notification is lost (the app was suspended, a telephony daemon restarted). Only a later
    /// ``deliverCompleteList()`` (or start) tells the monitor.
    public func withoutNotifying(_ body: () throws -> Void) rethrows {
        let saved = deliver
        deliver = nil
        defer { deliver = saved }
        try body()
    }

    /// Reports every live call as one complete list, as a real source does when the app returns
    /// to the foreground: any call the monitor still believes live and that is not in the list
    /// has ended.
    public func deliverCompleteList() {
        deliver?(.complete(liveCalls))
    }

    /// Delivers `list` as the complete list of the device's calls, as one delivery (rule 15): the
    /// calls in it take the states given, every other call has ended. As a recording says what a
    /// device said, no transition is checked: a call may even come back from the end.
    public func deliverList(_ list: [CallSnapshot]) {
        // Read, change, write back: an in-place change through the dictionary's subscript would
        // need a runtime entry point (swift_coroFrameAlloc) that the iOS 17 SDK's runtime lacks.
        for id in order where !list.contains(where: { $0.id.rawValue == id }) {
            guard var call = calls[id] else { continue }
            call.hasEnded = true
            call.isOnHold = false
            calls[id] = call
        }
        for snapshot in list { set(snapshot) }
        deliver?(.complete(list))
    }

    /// Delivers `changes` as one change batch: each call takes the state given (unchecked, as in
    /// ``deliverList(_:)``), every other call is as it was.
    public func deliverChanges(_ changes: [CallSnapshot]) {
        for snapshot in changes { set(snapshot) }
        deliver?(.changes(changes))
    }

    /// Whether the call named `id` is known and was placed by the user.
    public func isOutgoing(_ id: String) -> Bool { calls[id]?.isOutgoing ?? false }

    private func set(_ snapshot: CallSnapshot) {
        let id = snapshot.id.rawValue
        if calls[id] == nil { order.append(id) }
        calls[id] = snapshot
    }

    /// A new incoming call starts ringing.
    public func incoming(_ id: String) throws { try add(id, outgoing: false) }

    /// A new outgoing call starts dialing.
    public func outgoing(_ id: String) throws { try add(id, outgoing: true) }

    /// The call connects.
    public func connect(_ id: String) throws {
        try change(id) { call in
            guard !call.hasConnected else { throw ScriptError.invalidTransition(id, "is already connected") }
            call.hasConnected = true
        }
    }

    /// The connected call goes on hold.
    public func hold(_ id: String) throws {
        try change(id) { call in
            guard call.hasConnected else { throw ScriptError.invalidTransition(id, "has not connected, so it cannot be held") }
            guard !call.isOnHold else { throw ScriptError.invalidTransition(id, "is already on hold") }
            call.isOnHold = true
        }
    }

    /// The held call comes off hold.
    public func resume(_ id: String) throws {
        try change(id) { call in
            guard call.isOnHold else { throw ScriptError.invalidTransition(id, "is not on hold") }
            call.isOnHold = false
        }
    }

    /// The call ends (hung up, declined or missed).
    public func end(_ id: String) throws {
        try change(id) { call in
            call.hasEnded = true
            call.isOnHold = false
        }
    }

    private func add(_ id: String, outgoing: Bool) throws {
        guard calls[id] == nil else { throw ScriptError.duplicateCall(id) }
        let call = CallSnapshot(id: CallID(id), isOutgoing: outgoing)
        calls[id] = call
        order.append(id)
        deliver?(.changes([call]))
    }

    private func change(_ id: String, _ body: (inout CallSnapshot) throws -> Void) throws {
        guard var call = calls[id] else { throw ScriptError.unknownCall(id) }
        guard !call.hasEnded else { throw ScriptError.callEnded(id) }
        try body(&call)
        calls[id] = call
        deliver?(.changes([call]))
    }
}

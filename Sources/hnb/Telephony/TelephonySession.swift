// The whole D-Bus telephony logic apart from the wire: choosing the daemon, following it across
// restarts, and turning its call objects into call batches. The libdbus transport feeds it
// messages; the unit tests feed it recorded ones.

// Linux only: no Apple build compiles the D-Bus telephony code.
#if os(Linux)

/// A daemon's calls as a model the session can read.
protocol CallTracker {
    /// The signals the tracker needs, as D-Bus match rules.
    static var matchRules: [String] { get }
    var backend: Telephony.Backend { get }
    /// Whether a modem able to carry voice calls has been found and its calls read.
    var hasVoiceModem: Bool { get }
    /// One snapshot per call object the daemon has (ended ones included until the daemon drops them).
    var snapshots: [CallSnapshot] { get }
    /// Forgets everything and reads the daemon's modems and calls afresh.
    mutating func resync(_ bus: any TelephonyBus) throws(Telephony.Error)
    /// Applies one signal, reading more from the bus where the signal alone does not say enough.
    mutating func handle(_ message: BusMessage, _ bus: any TelephonyBus)
}

/// Skips signals that a reply has already accounted for.
///
/// A method call made while signals are queued returns a state newer than those signals. One
/// sender's serial numbers grow, so a signal whose serial is below that of a reply describing the
/// same object is older than the reply and is dropped.
struct Freshness {
    private var sender = ""
    private var everything: UInt32 = 0
    private var objects: [String: UInt32] = [:]

    /// `reply` describes every object of its sender.
    mutating func readAll(from reply: BusMessage) {
        sender = reply.sender
        everything = reply.serial
        objects = [:]
    }

    /// `message` describes the object at `path`.
    mutating func read(_ path: String, from message: BusMessage) {
        if message.sender != sender {
            sender = message.sender
            everything = 0
            objects = [:]
        }
        objects[path] = max(objects[path] ?? 0, message.serial)
    }

    func isStale(_ signal: BusMessage) -> Bool {
        guard signal.sender == sender else { return false }
        return signal.serial < max(everything, objects[signal.path] ?? 0)
    }
}

/// What the session asks its owner to do.
enum TelephonyOutput: Sendable, Equatable {
    /// Hand this batch to the monitor.
    case deliver(CallBatch)
    /// Tell whoever listens what the source is doing now.
    case status(Telephony.Status)
}

/// Chooses a daemon, follows its calls and its presence on the bus, and reports call batches.
///
/// Rules, each tested in `TelephonyMappingTests`:
/// - the first output is a complete batch (empty when no daemon is on the bus);
/// - afterwards a batch holds only the calls whose snapshot changed, ended calls included once;
/// - a daemon leaving the bus ends nothing: its calls stay as they were until it is back and has
///   read a voice modem that lists them all, or ``orphanGrace`` after that modem was read (a
///   restarted daemon lists the calls it finds on the modem a moment after the modem itself);
///   then a complete batch says which are still live;
/// - a daemon appearing (again) is read at once and its calls reported as a complete batch.
struct TelephonySession {
    static let busName = "org.freedesktop.DBus"

    let choice: Telephony.BackendChoice
    private var tracker: (any CallTracker)?
    /// Whether the daemon is on the bus right now (its well-known name has an owner).
    private var present = false
    /// The calls last reported live, by identifier.
    private var reported: [CallID: CallSnapshot] = [:]
    /// Calls of a daemon that left the bus, kept until its successor has read a voice modem.
    private var orphans: [CallID: CallSnapshot] = [:]
    /// When orphans the restarted daemon has not listed are given up, in nanoseconds of the
    /// caller's monotonic clock; `nil` until it has read a voice modem.
    private var orphanDeadline: Int64?

    /// How long a restarted daemon has, once it has read a voice modem, to list the calls it had
    /// before it left.
    static let orphanGrace: Int64 = 5_000_000_000

    init(choice: Telephony.BackendChoice) {
        self.choice = choice
    }

    /// The daemons this session may read.
    var candidates: [Telephony.Backend] {
        switch choice {
        case .auto: [.modemManager, .ofono]
        case .only(let backend): [backend]
        }
    }

    /// Every match rule the transport must add before calling ``start(_:)``.
    var matchRules: [String] {
        candidates.flatMap { backend in
            ["type='signal',sender='\(Self.busName)',interface='\(Self.busName)',member='NameOwnerChanged',arg0='\(backend.busName)'"]
                + Self.trackerType(backend).matchRules
        }
    }

    private static func trackerType(_ backend: Telephony.Backend) -> any CallTracker.Type {
        switch backend {
        case .modemManager: ModemManagerTracker.self
        case .ofono: OfonoTracker.self
        }
    }

    private static func makeTracker(_ backend: Telephony.Backend) -> any CallTracker {
        switch backend {
        case .modemManager: ModemManagerTracker()
        case .ofono: OfonoTracker()
        }
    }

    /// Picks the daemon and reads its calls. Always ends with exactly one complete batch.
    ///
    /// Called at start and again after the transport reconnects to the bus; calls kept from a
    /// lost connection stay until the daemon has read a voice modem again.
    mutating func start(_ bus: any TelephonyBus, now: Int64 = 0) -> [TelephonyOutput] {
        let choices = tracker.map { [$0.backend] } ?? candidates
        for backend in choices {
            let owned: Bool
            do {
                let reply = try bus.call(BusMethodCall(destination: Self.busName, path: "/org/freedesktop/DBus", interface: Self.busName, member: "NameHasOwner", arguments: [backend.busName]))
                owned = reply.argument(0)?.bool ?? false
            } catch {
                return [.status(.failed(error)), .deliver(completeBatch())]
            }
            if owned { return appeared(backend, bus, now: now) }
        }
        return [.status(.waiting(for: choices)), .deliver(completeBatch())]
    }

    /// The transport could not connect, or lost its connection: nothing can be read, so the calls
    /// last reported stay as they were (fail closed). The first time, a complete batch of them is
    /// delivered so that a source that never connected still starts with one.
    mutating func busUnavailable(_ error: Telephony.Error, firstAttempt: Bool) -> [TelephonyOutput] {
        present = false
        orphans.merge(reported) { kept, _ in kept }
        orphanDeadline = nil
        return firstAttempt ? [.status(.failed(error)), .deliver(completeBatch())] : [.status(.failed(error))]
    }

    /// Applies one message from the bus.
    ///
    /// - Parameter now: The current instant of a monotonic clock, in nanoseconds.
    mutating func handle(_ message: BusMessage, _ bus: any TelephonyBus, now: Int64 = 0) -> [TelephonyOutput] {
        guard message.kind == .signal else { return [] }
        if message.sender == Self.busName, message.interface == Self.busName, message.member == "NameOwnerChanged" {
            return nameOwnerChanged(message, bus, now: now)
        }
        guard present, var current = tracker else { return [] }
        current.handle(message, bus)
        tracker = current
        if let complete = settleOrphans(now: now) { return [.deliver(complete)] }
        return changes().map { [.deliver($0)] } ?? []
    }

    /// Gives up the orphans the restarted daemon has not listed once ``orphanGrace`` is over.
    /// The transport calls it at least ten times a second.
    mutating func tick(now: Int64) -> [TelephonyOutput] {
        guard let deadline = orphanDeadline, now >= deadline else { return [] }
        orphans = [:]
        orphanDeadline = nil
        return [.deliver(completeBatch())]
    }

    /// Once the daemon has read a voice modem: drops the orphans at once if it lists them all
    /// (returning the complete batch to deliver), else starts their grace period.
    private mutating func settleOrphans(now: Int64) -> CallBatch? {
        guard !orphans.isEmpty, present, let tracker, tracker.hasVoiceModem else { return nil }
        let listed = Set(tracker.snapshots.map(\.id))
        if orphans.keys.allSatisfy(listed.contains) {
            orphans = [:]
            orphanDeadline = nil
            return completeBatch()
        }
        if orphanDeadline == nil { orphanDeadline = now + Self.orphanGrace }
        return nil
    }

    private mutating func nameOwnerChanged(_ message: BusMessage, _ bus: any TelephonyBus, now: Int64) -> [TelephonyOutput] {
        guard let name = message.argument(0)?.text, let newOwner = message.argument(2)?.text,
              let backend = candidates.first(where: { $0.busName == name }) else { return [] }
        // Once a daemon is chosen, the session stays with it.
        if let tracker, tracker.backend != backend { return [] }
        if newOwner.isEmpty {
            guard present else { return [] }
            present = false
            orphans = reported
            orphanDeadline = nil
            return [.status(.lost(backend))]
        }
        return appeared(backend, bus, now: now)
    }

    /// The daemon is on the bus (at start, or again): read everything, report a complete batch.
    private mutating func appeared(_ backend: Telephony.Backend, _ bus: any TelephonyBus, now: Int64 = 0) -> [TelephonyOutput] {
        var fresh = Self.makeTracker(backend)
        do {
            try fresh.resync(bus)
        } catch {
            // Listed but not answering (still starting, or a bus policy refusing our calls):
            // keep the calls we had, and still follow its signals, which every client receives,
            // so that calls starting from now on are seen even without the initial list (fail
            // closed). It is read again when its name changes hands.
            tracker = fresh
            present = true
            orphanDeadline = nil
            if orphans.isEmpty { orphans = reported }
            return [.status(.failed(error)), .deliver(completeBatch())]
        }
        tracker = fresh
        present = true
        orphanDeadline = nil
        _ = settleOrphans(now: now)
        return [.status(.watching(backend)), .deliver(completeBatch())]
    }

    /// The live calls right now: the daemon's, plus orphans it has not listed (yet).
    private var liveCalls: [CallID: CallSnapshot] {
        var live = orphans
        for snapshot in tracker?.snapshots ?? [] {
            if snapshot.hasEnded {
                live[snapshot.id] = nil
            } else {
                live[snapshot.id] = snapshot
            }
        }
        return live
    }

    private mutating func completeBatch() -> CallBatch {
        let live = liveCalls
        reported = live
        return .complete(live.values.sorted { $0.id.rawValue < $1.id.rawValue })
    }

    /// The calls whose snapshot changed since the last report; ended ones once, as ended.
    private mutating func changes() -> CallBatch? {
        let live = liveCalls
        var changed: [CallSnapshot] = []
        for (id, snapshot) in live where reported[id] != snapshot {
            changed.append(snapshot)
        }
        for (id, old) in reported where live[id] == nil {
            var ended = old
            ended.hasEnded = true
            ended.isOnHold = false
            changed.append(ended)
        }
        reported = live
        guard !changed.isEmpty else { return nil }
        return .changes(changed.sorted { $0.id.rawValue < $1.id.rawValue })
    }
}
#endif

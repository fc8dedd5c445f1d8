// ModemManager's voice calls as a model: which voice modems exist and the state of each call
// object, kept up to date from ModemManager's signals.

// Linux only: no Apple build compiles the D-Bus telephony code.
#if os(Linux)

/// The ModemManager interfaces and names the tracker uses.
enum MM {
    static let service = "org.freedesktop.ModemManager1"
    static let root = "/org/freedesktop/ModemManager1"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let properties = "org.freedesktop.DBus.Properties"
    static let modem = "org.freedesktop.ModemManager1.Modem"
    static let voice = "org.freedesktop.ModemManager1.Modem.Voice"
    static let call = "org.freedesktop.ModemManager1.Call"
}

/// ModemManager's `MMCallState` and `MMCallDirection` values, mapped to a snapshot.
enum ModemManagerCallState {
    static let unknown: Int64 = 0, dialing: Int64 = 1, ringingOut: Int64 = 2, ringingIn: Int64 = 3
    static let active: Int64 = 4, held: Int64 = 5, waiting: Int64 = 6, terminated: Int64 = 7
    static let outgoingDirection: Int64 = 2

    /// Updates `snapshot` for a call now in `state` with `direction`.
    ///
    /// Dialing, ringing-out, ringing-in and waiting ring; active and held have connected (held is
    /// on hold); terminated has ended. An unknown state, or one newer than this code, counts as a
    /// ringing call: a call object that exists is never ignored.
    static func apply(state: Int64, direction: Int64, to snapshot: inout CallSnapshot) {
        if direction == outgoingDirection || state == dialing || state == ringingOut { snapshot.isOutgoing = true }
        switch state {
        case active:
            snapshot.hasConnected = true
            snapshot.isOnHold = false
        case held:
            snapshot.hasConnected = true
            snapshot.isOnHold = true
        case terminated:
            snapshot.hasEnded = true
            snapshot.isOnHold = false
        default:
            snapshot.isOnHold = false
        }
    }
}

/// Follows the calls of every ModemManager modem with a voice interface.
struct ModemManagerTracker: CallTracker {
    /// The voice modems and their call objects.
    private var table = CallTable()
    /// Signals older than the reply a call's state was read from are skipped (see ``Freshness``).
    private var freshness = Freshness()

    let backend = Telephony.Backend.modemManager

    var hasVoiceModem: Bool { table.hasVoiceModem }

    var snapshots: [CallSnapshot] { table.snapshots }

    static let matchRules = [
        "type='signal',sender='\(MM.service)',interface='\(MM.objectManager)'",
        "type='signal',sender='\(MM.service)',interface='\(MM.voice)'",
        "type='signal',sender='\(MM.service)',interface='\(MM.call)',member='StateChanged'",
    ]

    mutating func resync(_ bus: any TelephonyBus) throws(Telephony.Error) {
        table.removeAll()
        freshness = Freshness()
        let reply = try bus.call(BusMethodCall(destination: MM.service, path: MM.root, interface: MM.objectManager, member: "GetManagedObjects"))
        freshness.readAll(from: reply)
        guard let objects = reply.argument(0)?.properties else {
            throw .unexpectedReply("GetManagedObjects returned \(reply.arguments)")
        }
        for path in objects.keys.sorted() {
            guard let interfaces = objects[path]?.properties else { continue }
            addModem(path, interfaces: interfaces, bus)
        }
    }

    mutating func handle(_ message: BusMessage, _ bus: any TelephonyBus) {
        guard message.kind == .signal, !freshness.isStale(message) else { return }
        switch (message.interface, message.member) {
        case (MM.objectManager, "InterfacesAdded"):
            guard let path = message.argument(0)?.text, let interfaces = message.argument(1)?.properties else { return }
            addModem(path, interfaces: interfaces, bus)
        case (MM.objectManager, "InterfacesRemoved"):
            guard let path = message.argument(0)?.text, let gone = message.argument(1)?.texts else { return }
            // The whole modem going (or just its voice interface) ends its calls: without the
            // modem they cannot go on.
            if gone.contains(MM.voice) || gone.contains(MM.modem) { table.removeModem(path) }
        case (MM.voice, "CallAdded"):
            guard let path = message.argument(0)?.text else { return }
            table.listCalls([path], on: message.path)
            loadCall(path, modem: message.path, bus)
        case (MM.voice, "CallDeleted"):
            guard let path = message.argument(0)?.text else { return }
            table.removeCall(path, from: message.path)
        case (MM.call, "StateChanged"):
            guard let state = message.argument(1)?.integer else { return }
            guard table.hasCall(message.path) else {
                // A call we did not know of (its CallAdded was missed): read it whole.
                return loadCall(message.path, modem: "", bus)
            }
            table.updateCall(message.path) { ModemManagerCallState.apply(state: state, direction: 0, to: &$0) }
        default:
            break
        }
    }

    private mutating func addModem(_ path: String, interfaces: [String: BusValue], _ bus: any TelephonyBus) {
        guard let voice = interfaces[MM.voice]?.properties else { return }
        let callPaths = voice["Calls"]?.texts ?? []
        table.listCalls(callPaths, on: path)
        for call in callPaths where !table.hasCall(call) {
            loadCall(call, modem: path, bus)
        }
    }

    private mutating func loadCall(_ path: String, modem: String, _ bus: any TelephonyBus) {
        let reply: BusMessage
        do {
            reply = try bus.call(BusMethodCall(destination: MM.service, path: path, interface: MM.properties, member: "GetAll", arguments: [MM.call]))
        } catch {
            // The call object went away between the signal and the read (CallDeleted follows),
            // or cannot be read: a call we cannot read is still a call, so it counts as ringing.
            if !table.hasCall(path) { table.setCall(path, modem: modem, CallSnapshot(id: CallID(path))) }
            return
        }
        freshness.read(path, from: reply)
        let properties = reply.argument(0)?.properties ?? [:]
        var snapshot = table.snapshot(of: path)
        ModemManagerCallState.apply(
            state: properties["State"]?.integer ?? ModemManagerCallState.unknown,
            direction: properties["Direction"]?.integer ?? 0,
            to: &snapshot
        )
        table.setCall(path, modem: modem, snapshot)
    }
}
#endif

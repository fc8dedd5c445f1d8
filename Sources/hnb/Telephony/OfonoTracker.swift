// oFono's voice calls as a model: which modems have a voice call manager and the state of each
// call, kept up to date from oFono's signals.

// Linux only: no Apple build compiles the D-Bus telephony code.
#if os(Linux)

/// The oFono interfaces and names the tracker uses.
enum Ofono {
    static let service = "org.ofono"
    static let manager = "org.ofono.Manager"
    static let modem = "org.ofono.Modem"
    static let voiceCallManager = "org.ofono.VoiceCallManager"
    static let voiceCall = "org.ofono.VoiceCall"
}

/// oFono's call `State` strings, mapped to a snapshot.
enum OfonoCallState {
    /// Updates `snapshot` for a call now in `state`.
    ///
    /// Incoming, dialing, alerting and waiting ring (dialing and alerting are outgoing); active
    /// and held have connected (held is on hold); disconnected has ended. An unknown state counts
    /// as a ringing call: a call object that exists is never ignored.
    ///
    /// oFono has no direction property: a call first seen dialing or alerting is outgoing, one
    /// first seen connected is taken as incoming.
    static func apply(state: String, to snapshot: inout CallSnapshot) {
        switch state {
        case "dialing", "alerting":
            snapshot.isOutgoing = true
            snapshot.isOnHold = false
        case "active":
            snapshot.hasConnected = true
            snapshot.isOnHold = false
        case "held":
            snapshot.hasConnected = true
            snapshot.isOnHold = true
        case "disconnected":
            snapshot.hasEnded = true
            snapshot.isOnHold = false
        default:
            snapshot.isOnHold = false
        }
    }
}

/// Follows the calls of every oFono modem that has a voice call manager.
struct OfonoTracker: CallTracker {
    /// The modems whose voice call manager has been read, and their calls.
    private var table = CallTable()
    private var freshness = Freshness()

    let backend = Telephony.Backend.ofono

    var hasVoiceModem: Bool { table.hasVoiceModem }

    var snapshots: [CallSnapshot] { table.snapshots }

    static let matchRules = [
        "type='signal',sender='\(Ofono.service)',interface='\(Ofono.manager)'",
        "type='signal',sender='\(Ofono.service)',interface='\(Ofono.modem)',member='PropertyChanged'",
        "type='signal',sender='\(Ofono.service)',interface='\(Ofono.voiceCallManager)'",
        "type='signal',sender='\(Ofono.service)',interface='\(Ofono.voiceCall)',member='PropertyChanged'",
    ]

    mutating func resync(_ bus: any TelephonyBus) throws(Telephony.Error) {
        table.removeAll()
        freshness = Freshness()
        let reply = try bus.call(BusMethodCall(destination: Ofono.service, path: "/", interface: Ofono.manager, member: "GetModems"))
        freshness.readAll(from: reply)
        guard let list = reply.argument(0)?.elements else {
            throw .unexpectedReply("GetModems returned \(reply.arguments)")
        }
        for entry in list {
            guard let fields = entry.elements, fields.count == 2, let path = fields[0].text else { continue }
            modemProperties(path, fields[1].properties ?? [:], bus)
        }
    }

    mutating func handle(_ message: BusMessage, _ bus: any TelephonyBus) {
        guard message.kind == .signal, !freshness.isStale(message) else { return }
        switch (message.interface, message.member) {
        case (Ofono.manager, "ModemAdded"):
            guard let path = message.argument(0)?.text else { return }
            modemProperties(path, message.argument(1)?.properties ?? [:], bus)
        case (Ofono.manager, "ModemRemoved"):
            guard let path = message.argument(0)?.text else { return }
            table.removeModem(path)
        case (Ofono.modem, "PropertyChanged"):
            guard message.argument(0)?.text == "Interfaces", let interfaces = message.argument(1)?.texts else { return }
            modemProperties(message.path, ["Interfaces": .array(interfaces.map(BusValue.string))], bus)
        case (Ofono.voiceCallManager, "CallAdded"):
            guard let path = message.argument(0)?.text else { return }
            freshness.read(path, from: message)
            let state = message.argument(1)?.properties?["State"]?.text ?? ""
            var snapshot = CallSnapshot(id: CallID(path))
            OfonoCallState.apply(state: state, to: &snapshot)
            table.setCall(path, modem: message.path, snapshot)
        case (Ofono.voiceCallManager, "CallRemoved"):
            guard let path = message.argument(0)?.text else { return }
            table.removeCall(path, from: message.path)
        case (Ofono.voiceCall, "PropertyChanged"):
            guard message.argument(0)?.text == "State", let state = message.argument(1)?.text else { return }
            table.updateCall(message.path) { OfonoCallState.apply(state: state, to: &$0) }
        default:
            break
        }
    }

    /// Reads a modem's calls when its voice call manager appears, ends them when it goes (the
    /// modem was switched off or lost its connection).
    private mutating func modemProperties(_ path: String, _ properties: [String: BusValue], _ bus: any TelephonyBus) {
        guard let interfaces = properties["Interfaces"]?.texts else { return }
        let hasVoice = interfaces.contains(Ofono.voiceCallManager)
        if !hasVoice {
            table.removeModem(path)
            return
        }
        guard !table.hasModem(path) else { return }
        table.addModem(path)
        let reply: BusMessage
        do {
            reply = try bus.call(BusMethodCall(destination: Ofono.service, path: path, interface: Ofono.voiceCallManager, member: "GetCalls"))
        } catch {
            // The manager went away again before it could be read; its signal follows.
            table.removeModem(path)
            return
        }
        for entry in reply.argument(0)?.elements ?? [] {
            guard let fields = entry.elements, fields.count == 2, let call = fields[0].text else { continue }
            freshness.read(call, from: reply)
            var snapshot = table.snapshot(of: call)
            OfonoCallState.apply(state: fields[1].properties?["State"]?.text ?? "", to: &snapshot)
            table.setCall(call, modem: path, snapshot)
        }
    }
}
#endif

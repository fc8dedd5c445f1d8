// The D-Bus telephony mapping without daemons: recorded message sequences of ModemManager 1.20
// and oFono 1.31 (shapes, serials and orders as dbus-monitor showed them in the end-to-end lab)
// are played into the session, and each test asserts the exact statuses and call batches out.

// The telephony types are compiled only on Linux.
#if os(Linux)

import Foundation
import Testing
@testable import hnb
import hnbTesting

/// A bus that answers method calls from a recording, in order, and fails the test on any call
/// the recording does not expect.
final class RecordedBus: TelephonyBus {
    private var script: [(BusMethodCall, Result<BusMessage, Telephony.Error>)]
    private let sourceLocation: SourceLocation

    init(_ script: [(BusMethodCall, Result<BusMessage, Telephony.Error>)] = [], sourceLocation: SourceLocation = #_sourceLocation) {
        self.script = script
        self.sourceLocation = sourceLocation
    }

    /// Adds the replies for the next step of a test.
    func expect(_ calls: [(BusMethodCall, Result<BusMessage, Telephony.Error>)]) {
        script += calls
    }

    func call(_ call: BusMethodCall) throws(Telephony.Error) -> BusMessage {
        guard !script.isEmpty else {
            Issue.record("unexpected call \(call)", sourceLocation: sourceLocation)
            throw .callFailed(name: "test.Unexpected", message: "\(call)")
        }
        let (expected, reply) = script.removeFirst()
        #expect(call == expected, sourceLocation: sourceLocation)
        return try reply.get()
    }

    /// Checks that every recorded call was made.
    func verifyDone(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(script.isEmpty, "calls the code did not make: \(script.map(\.0))", sourceLocation: sourceLocation)
    }
}

// MARK: Building recorded messages

private let dbus = "org.freedesktop.DBus"
private let mmOwner = ":1.20"
private let ofonoOwner = ":1.9"
private let modem0 = "/org/freedesktop/ModemManager1/Modem/0"
private let call0 = "/org/freedesktop/ModemManager1/Call/0"
private let call1 = "/org/freedesktop/ModemManager1/Call/1"
private let phonesim = "/phonesim"
private let voicecall1 = "/phonesim/voicecall01"
private let voicecall2 = "/phonesim/voicecall02"

/// An `a{sv}`.
private func props(_ entries: KeyValuePairs<String, BusValue>) -> BusValue {
    .dictionary(entries.map { .init(key: .string($0.key), value: .variant($0.value)) })
}

/// An `a{sa{sv}}` (interfaces and their properties) or `a{oa{sa{sv}}}` (objects).
private func nested(_ entries: KeyValuePairs<String, BusValue>, paths: Bool = false) -> BusValue {
    .dictionary(entries.map { .init(key: paths ? .objectPath($0.key) : .string($0.key), value: $0.value) })
}

private func paths(_ list: String...) -> BusValue { .array(list.map(BusValue.objectPath)) }
private func strings(_ list: String...) -> BusValue { .array(list.map(BusValue.string)) }

private func nameHasOwner(_ name: String, _ owned: Bool) -> (BusMethodCall, Result<BusMessage, Telephony.Error>) {
    (BusMethodCall(destination: dbus, path: "/org/freedesktop/DBus", interface: dbus, member: "NameHasOwner", arguments: [name]),
     .success(.reply(dbus, 5, [.bool(owned)])))
}

private func nameOwnerChanged(_ serial: UInt32, _ name: String, _ old: String, _ new: String) -> BusMessage {
    .signal(dbus, serial, "/org/freedesktop/DBus", dbus, "NameOwnerChanged", [.string(name), .string(old), .string(new)])
}

private func managedObjects(_ serial: UInt32, _ objects: BusValue, owner: String = mmOwner) -> (BusMethodCall, Result<BusMessage, Telephony.Error>) {
    (BusMethodCall(destination: MM.service, path: MM.root, interface: MM.objectManager, member: "GetManagedObjects"),
     .success(.reply(owner, serial, [objects])))
}

/// A voice-capable modem as GetManagedObjects and InterfacesAdded list it.
private func voiceModem(calls: String...) -> BusValue {
    nested([
        MM.modem: props(["State": .integer(8)]),
        MM.voice: props(["Calls": .array(calls.map(BusValue.objectPath)), "EmergencyOnly": .bool(false)]),
    ])
}

private func callProperties(_ path: String, _ serial: UInt32, state: Int64, direction: Int64, owner: String = mmOwner) -> (BusMethodCall, Result<BusMessage, Telephony.Error>) {
    (BusMethodCall(destination: MM.service, path: path, interface: MM.properties, member: "GetAll", arguments: [MM.call]),
     .success(.reply(owner, serial, [props(["State": .integer(state), "Direction": .integer(direction), "Number": .string("+15559999"), "StateReason": .integer(0)])])))
}

private func mmStateChanged(_ serial: UInt32, _ path: String, _ old: Int64, _ new: Int64, owner: String = mmOwner) -> BusMessage {
    .signal(owner, serial, path, MM.call, "StateChanged", [.integer(old), .integer(new), .integer(0)])
}

private func getModems(_ serial: UInt32, _ modems: [(String, [String])], owner: String = ofonoOwner) -> (BusMethodCall, Result<BusMessage, Telephony.Error>) {
    let list = modems.map { modem in
        BusValue.structure([.objectPath(modem.0), props(["Powered": .bool(true), "Interfaces": .array(modem.1.map(BusValue.string))])])
    }
    return (BusMethodCall(destination: Ofono.service, path: "/", interface: Ofono.manager, member: "GetModems"),
            .success(.reply(owner, serial, [.array(list)])))
}

private func getCalls(_ modem: String, _ serial: UInt32, _ calls: [(String, String)], owner: String = ofonoOwner) -> (BusMethodCall, Result<BusMessage, Telephony.Error>) {
    let list = calls.map { BusValue.structure([.objectPath($0.0), props(["State": .string($0.1), "LineIdentification": .string("+15559999")])]) }
    return (BusMethodCall(destination: Ofono.service, path: modem, interface: Ofono.voiceCallManager, member: "GetCalls"),
            .success(.reply(owner, serial, [.array(list)])))
}

private func ofonoState(_ serial: UInt32, _ path: String, _ state: String, owner: String = ofonoOwner) -> BusMessage {
    .signal(owner, serial, path, Ofono.voiceCall, "PropertyChanged", [.string("State"), .variant(.string(state))])
}

private func ofonoCallAdded(_ serial: UInt32, _ path: String, _ state: String) -> BusMessage {
    .signal(ofonoOwner, serial, phonesim, Ofono.voiceCallManager, "CallAdded", [.objectPath(path), props(["State": .string(state), "LineIdentification": .string("+15559999")])])
}

private func ofonoInterfaces(_ serial: UInt32, _ interfaces: String..., owner: String = ofonoOwner) -> BusMessage {
    .signal(owner, serial, phonesim, Ofono.modem, "PropertyChanged", [.string("Interfaces"), .variant(.array(interfaces.map(BusValue.string)))])
}

private let allOfono = ["org.ofono.SimManager", Ofono.voiceCallManager, "org.ofono.CallSettings"]

// MARK: Expected snapshots

private enum Shape { case ringing, connected, held, ended }

/// A call's snapshot; an ended call that had connected says so (`hasConnected` stays true).
private func snapshot(_ id: String, _ shape: Shape, outgoing: Bool = false, hadConnected: Bool = false) -> CallSnapshot {
    CallSnapshot(
        id: CallID(id),
        isOutgoing: outgoing,
        hasConnected: shape == .connected || shape == .held || hadConnected,
        isOnHold: shape == .held,
        hasEnded: shape == .ended
    )
}

private func changes(_ calls: CallSnapshot...) -> TelephonyOutput { .deliver(.changes(calls)) }
private func complete(_ calls: CallSnapshot...) -> TelephonyOutput { .deliver(.complete(calls)) }

// MARK: Choosing the daemon

@Suite("Telephony: choosing the daemon", .nothingLeftScheduled)
struct TelephonyChoiceTests {
    @Test("auto takes ModemManager when it is on the bus, without asking for oFono")
    func autoPrefersModemManager() {
        let bus = RecordedBus([nameHasOwner(MM.service, true), managedObjects(10, nested([:], paths: true))])
        var session = TelephonySession(choice: .auto)
        #expect(session.start(bus) == [.status(.watching(.modemManager)), complete()])
        bus.verifyDone()
    }

    @Test("auto takes oFono when ModemManager is not on the bus")
    func autoFallsBackToOfono() {
        let bus = RecordedBus([nameHasOwner(MM.service, false), nameHasOwner(Ofono.service, true), getModems(3, [])])
        var session = TelephonySession(choice: .auto)
        #expect(session.start(bus) == [.status(.watching(.ofono)), complete()])
        bus.verifyDone()
    }

    @Test("with neither daemon, auto reports no calls and waits, then takes the first to appear")
    func autoWaitsForEither() {
        let bus = RecordedBus([nameHasOwner(MM.service, false), nameHasOwner(Ofono.service, false)])
        var session = TelephonySession(choice: .auto)
        #expect(session.start(bus) == [.status(.waiting(for: [.modemManager, .ofono])), complete()])
        bus.expect([getModems(3, [(phonesim, allOfono)]), getCalls(phonesim, 4, [(voicecall1, "active")])])
        #expect(session.handle(nameOwnerChanged(20, Ofono.service, "", ofonoOwner), bus)
            == [.status(.watching(.ofono)), complete(snapshot(voicecall1, .connected))])
        // Chosen: ModemManager appearing later does not take over.
        #expect(session.handle(nameOwnerChanged(21, MM.service, "", mmOwner), bus) == [])
        bus.verifyDone()
    }

    @Test("a single backend ignores the other daemon")
    func onlyIgnoresTheOther() {
        let bus = RecordedBus([nameHasOwner(Ofono.service, false)])
        var session = TelephonySession(choice: .only(.ofono))
        #expect(session.start(bus) == [.status(.waiting(for: [.ofono])), complete()])
        #expect(session.handle(nameOwnerChanged(20, MM.service, "", mmOwner), bus) == [])
        #expect(session.matchRules.allSatisfy { !$0.contains("ModemManager1") })
        bus.verifyDone()
    }

    @Test("a bus that cannot be reached is a typed failure and an empty first list (no telephony)")
    func busUnavailableFallsBackToNoTelephony() {
        var session = TelephonySession(choice: .auto)
        let error = Telephony.Error.busUnavailable("org.freedesktop.DBus.Error.NoServer: no socket")
        #expect(session.busUnavailable(error, firstAttempt: true) == [.status(.failed(error)), complete()])
        #expect(session.busUnavailable(error, firstAttempt: false) == [.status(.failed(error))])
    }

    @Test("a D-Bus policy that denies access is reported as such, with no calls")
    func accessDenied() {
        let denied = Telephony.Error.accessDenied("Rejected send message, 1 matched rules")
        let bus = RecordedBus([
            nameHasOwner(MM.service, true),
            (BusMethodCall(destination: MM.service, path: MM.root, interface: MM.objectManager, member: "GetManagedObjects"), .failure(denied)),
        ])
        var session = TelephonySession(choice: .only(.modemManager))
        #expect(session.start(bus) == [.status(.failed(denied)), complete()])
        bus.verifyDone()
    }

    @Test("refused the oFono list by the bus policy, the source still follows oFono's broadcast signals")
    func accessDeniedStillFollowsSignals() {
        let denied = Telephony.Error.accessDenied("Rejected send message, 2 matched rules")
        let bus = RecordedBus([
            nameHasOwner(Ofono.service, true),
            (BusMethodCall(destination: Ofono.service, path: "/", interface: Ofono.manager, member: "GetModems"), .failure(denied)),
        ])
        var session = TelephonySession(choice: .only(.ofono))
        #expect(session.start(bus) == [.status(.failed(denied)), complete()])
        let added = BusMessage.signal(ofonoOwner, 50, phonesim, Ofono.voiceCallManager, "CallAdded", [.objectPath(voicecall1), props(["State": .string("incoming")])])
        #expect(session.handle(added, bus) == [changes(snapshot(voicecall1, .ringing))])
        bus.verifyDone()
    }
}

// MARK: ModemManager

@Suite("Telephony: ModemManager mapping", .nothingLeftScheduled)
struct ModemManagerMappingTests {
    /// A session watching ModemManager with one enabled voice modem and no calls.
    private func watching(_ bus: RecordedBus, calls: [String] = []) -> TelephonySession {
        var session = TelephonySession(choice: .only(.modemManager))
        bus.expect([nameHasOwner(MM.service, true), managedObjects(10, nested([modem0: voiceModem()], paths: true))])
        _ = session.start(bus)
        return session
    }

    @Test("an incoming call: ringing-in rings, active connects, held and resumed, terminated ends once")
    func incomingCall() {
        let bus = RecordedBus()
        var session = watching(bus)
        bus.expect([callProperties(call0, 53, state: 3, direction: 1)])
        #expect(session.handle(.signal(mmOwner, 52, modem0, MM.voice, "CallAdded", [.objectPath(call0)]), bus) == [changes(snapshot(call0, .ringing))])
        #expect(session.handle(mmStateChanged(60, call0, 3, 4), bus) == [changes(snapshot(call0, .connected))])
        #expect(session.handle(mmStateChanged(61, call0, 4, 5), bus) == [changes(snapshot(call0, .held))])
        #expect(session.handle(mmStateChanged(62, call0, 5, 4), bus) == [changes(snapshot(call0, .connected))])
        #expect(session.handle(mmStateChanged(70, call0, 4, 7), bus) == [changes(snapshot(call0, .ended, hadConnected: true))])
        #expect(session.handle(.signal(mmOwner, 71, modem0, MM.voice, "CallDeleted", [.objectPath(call0)]), bus) == [])
        bus.verifyDone()
    }

    @Test("an outgoing call rings from its creation (unknown, dialing, ringing-out) and connects as outgoing")
    func outgoingCall() {
        let bus = RecordedBus()
        var session = watching(bus)
        bus.expect([callProperties(call0, 41, state: 0, direction: 2)])
        #expect(session.handle(.signal(mmOwner, 40, modem0, MM.voice, "CallAdded", [.objectPath(call0)]), bus) == [changes(snapshot(call0, .ringing, outgoing: true))])
        #expect(session.handle(mmStateChanged(45, call0, 0, 1), bus) == [])
        #expect(session.handle(mmStateChanged(48, call0, 1, 2), bus) == [])
        #expect(session.handle(mmStateChanged(50, call0, 2, 4), bus) == [changes(snapshot(call0, .connected, outgoing: true))])
        bus.verifyDone()
    }

    @Test("a call already active at start is in the first, complete list; terminated leftovers are not")
    func callLiveAtStart() {
        let bus = RecordedBus([
            nameHasOwner(MM.service, true),
            managedObjects(10, nested([modem0: voiceModem(calls: call0, call1)], paths: true)),
            callProperties(call0, 11, state: 4, direction: 1),
            callProperties(call1, 12, state: 7, direction: 2),
        ])
        var session = TelephonySession(choice: .auto)
        #expect(session.start(bus) == [.status(.watching(.modemManager)), complete(snapshot(call0, .connected))])
        bus.verifyDone()
    }

    @Test("call waiting: a second call rings while the first is active; hold-and-accept swaps them")
    func callWaiting() {
        let bus = RecordedBus([
            nameHasOwner(MM.service, true),
            managedObjects(10, nested([modem0: voiceModem(calls: call0)], paths: true)),
            callProperties(call0, 11, state: 4, direction: 1),
        ])
        var session = TelephonySession(choice: .only(.modemManager))
        #expect(session.start(bus) == [.status(.watching(.modemManager)), complete(snapshot(call0, .connected))])
        bus.expect([callProperties(call1, 31, state: 6, direction: 1)])
        #expect(session.handle(.signal(mmOwner, 30, modem0, MM.voice, "CallAdded", [.objectPath(call1)]), bus) == [changes(snapshot(call1, .ringing))])
        #expect(session.handle(mmStateChanged(40, call0, 4, 5), bus) == [changes(snapshot(call0, .held))])
        #expect(session.handle(mmStateChanged(41, call1, 6, 4), bus) == [changes(snapshot(call1, .connected))])
        #expect(session.handle(mmStateChanged(50, call1, 4, 7), bus) == [changes(snapshot(call1, .ended, hadConnected: true))])
        bus.verifyDone()
    }

    @Test("the modem disappearing ends its calls")
    func modemRemoved() {
        let bus = RecordedBus([
            nameHasOwner(MM.service, true),
            managedObjects(10, nested([modem0: voiceModem(calls: call0)], paths: true)),
            callProperties(call0, 11, state: 3, direction: 1),
        ])
        var session = TelephonySession(choice: .only(.modemManager))
        _ = session.start(bus)
        let removed = BusMessage.signal(mmOwner, 63, MM.root, MM.objectManager, "InterfacesRemoved", [.objectPath(modem0), strings("org.freedesktop.ModemManager1.Modem.Simple", MM.modem, MM.voice)])
        #expect(session.handle(removed, bus) == [changes(snapshot(call0, .ended))])
        bus.verifyDone()
    }

    @Test("a modem added at run time is read, with its calls")
    func modemAdded() {
        let bus = RecordedBus([nameHasOwner(MM.service, true), managedObjects(10, nested([:], paths: true))])
        var session = TelephonySession(choice: .only(.modemManager))
        #expect(session.start(bus) == [.status(.watching(.modemManager)), complete()])
        bus.expect([callProperties(call0, 21, state: 3, direction: 1)])
        let added = BusMessage.signal(mmOwner, 20, MM.root, MM.objectManager, "InterfacesAdded", [.objectPath(modem0), voiceModem(calls: call0)])
        #expect(session.handle(added, bus) == [changes(snapshot(call0, .ringing))])
        bus.verifyDone()
    }

    @Test("restart mid-call: nothing ends while ModemManager is away; its return lists the calls as one complete batch")
    func daemonRestart() {
        let bus = RecordedBus([
            nameHasOwner(MM.service, true),
            managedObjects(10, nested([modem0: voiceModem(calls: call0)], paths: true)),
            callProperties(call0, 11, state: 4, direction: 1),
        ])
        var session = TelephonySession(choice: .only(.modemManager))
        _ = session.start(bus)
        #expect(session.handle(nameOwnerChanged(30, MM.service, mmOwner, ""), bus) == [.status(.lost(.modemManager))])
        // Signals of the old owner after it left change nothing.
        #expect(session.handle(mmStateChanged(99, call0, 4, 7), bus) == [])
        // Back, still probing its modem: the call is kept.
        bus.expect([managedObjects(3, nested([:], paths: true), owner: ":1.50")])
        #expect(session.handle(nameOwnerChanged(31, MM.service, "", ":1.50"), bus)
            == [.status(.watching(.modemManager)), complete(snapshot(call0, .connected))])
        // The modem is back and ModemManager lists no call on it. It gets the grace period to
        // find the call; then its list is believed.
        let added = BusMessage.signal(":1.50", 20, MM.root, MM.objectManager, "InterfacesAdded", [.objectPath(modem0), voiceModem()])
        #expect(session.handle(added, bus, now: 1_000) == [])
        #expect(session.tick(now: 1_000 + TelephonySession.orphanGrace - 1) == [])
        #expect(session.tick(now: 1_000 + TelephonySession.orphanGrace) == [complete()])
        #expect(session.tick(now: 1_000 + 2 * TelephonySession.orphanGrace) == [])
        bus.verifyDone()
    }

    @Test("a signal older than the reply that read the call is skipped")
    func staleSignalSkipped() {
        let bus = RecordedBus()
        var session = watching(bus)
        // CallAdded (52) is handled after StateChanged 3->4 (55) was already queued; GetAll (58)
        // saw the call active, so the queued 3->4 is old news and ringing is never reported.
        bus.expect([callProperties(call0, 58, state: 4, direction: 1)])
        #expect(session.handle(.signal(mmOwner, 52, modem0, MM.voice, "CallAdded", [.objectPath(call0)]), bus) == [changes(snapshot(call0, .connected))])
        #expect(session.handle(mmStateChanged(55, call0, 3, 4), bus) == [])
        #expect(session.handle(mmStateChanged(56, call0, 4, 5), bus) == [])
        #expect(session.handle(mmStateChanged(60, call0, 4, 5), bus) == [changes(snapshot(call0, .held))])
        bus.verifyDone()
    }

    @Test("fail closed: an unknown state rings, an unreadable call rings, a StateChanged for an unknown call reads it")
    func failClosed() {
        let bus = RecordedBus()
        var session = watching(bus)
        bus.expect([callProperties(call0, 41, state: 42, direction: 1)])
        #expect(session.handle(.signal(mmOwner, 40, modem0, MM.voice, "CallAdded", [.objectPath(call0)]), bus) == [changes(snapshot(call0, .ringing))])
        bus.expect([(BusMethodCall(destination: MM.service, path: call1, interface: MM.properties, member: "GetAll", arguments: [MM.call]),
                     .failure(.callFailed(name: "org.freedesktop.DBus.Error.UnknownObject", message: "gone")))])
        #expect(session.handle(.signal(mmOwner, 42, modem0, MM.voice, "CallAdded", [.objectPath(call1)]), bus) == [changes(snapshot(call1, .ringing))])
        bus.expect([callProperties("/org/freedesktop/ModemManager1/Call/9", 51, state: 4, direction: 2)])
        #expect(session.handle(mmStateChanged(50, "/org/freedesktop/ModemManager1/Call/9", 3, 4), bus)
            == [changes(snapshot("/org/freedesktop/ModemManager1/Call/9", .connected, outgoing: true))])
        bus.verifyDone()
    }
}

// MARK: oFono

@Suite("Telephony: oFono mapping", .nothingLeftScheduled)
struct OfonoMappingTests {
    private func watching(_ bus: RecordedBus, calls: [(String, String)] = []) -> (TelephonySession, [TelephonyOutput]) {
        var session = TelephonySession(choice: .only(.ofono))
        bus.expect([nameHasOwner(Ofono.service, true), getModems(40, [(phonesim, allOfono)]), getCalls(phonesim, 41, calls)])
        let outputs = session.start(bus)
        return (session, outputs)
    }

    @Test("an incoming call: incoming rings, active connects, held and resumed, disconnected ends once")
    func incomingCall() {
        let bus = RecordedBus()
        var (session, first) = watching(bus)
        #expect(first == [.status(.watching(.ofono)), complete()])
        #expect(session.handle(ofonoCallAdded(50, voicecall1, "incoming"), bus) == [changes(snapshot(voicecall1, .ringing))])
        #expect(session.handle(ofonoState(51, voicecall1, "active"), bus) == [changes(snapshot(voicecall1, .connected))])
        #expect(session.handle(.signal(ofonoOwner, 52, voicecall1, Ofono.voiceCall, "PropertyChanged", [.string("StartTime"), .variant(.string("2026-11-30T08:25:16+0000"))]), bus) == [])
        #expect(session.handle(ofonoState(53, voicecall1, "held"), bus) == [changes(snapshot(voicecall1, .held))])
        #expect(session.handle(ofonoState(54, voicecall1, "active"), bus) == [changes(snapshot(voicecall1, .connected))])
        #expect(session.handle(ofonoState(55, voicecall1, "disconnected"), bus) == [changes(snapshot(voicecall1, .ended, hadConnected: true))])
        #expect(session.handle(.signal(ofonoOwner, 56, phonesim, Ofono.voiceCallManager, "CallRemoved", [.objectPath(voicecall1)]), bus) == [])
        bus.verifyDone()
    }

    @Test("an outgoing call: dialing and alerting ring as outgoing, active connects")
    func outgoingCall() {
        let bus = RecordedBus()
        var (session, _) = watching(bus)
        #expect(session.handle(ofonoCallAdded(50, voicecall1, "dialing"), bus) == [changes(snapshot(voicecall1, .ringing, outgoing: true))])
        #expect(session.handle(ofonoState(51, voicecall1, "alerting"), bus) == [])
        #expect(session.handle(ofonoState(52, voicecall1, "active"), bus) == [changes(snapshot(voicecall1, .connected, outgoing: true))])
        bus.verifyDone()
    }

    @Test("a call already active at start is in the first, complete list")
    func callLiveAtStart() {
        let bus = RecordedBus()
        let (_, first) = watching(bus, calls: [(voicecall1, "active")])
        #expect(first == [.status(.watching(.ofono)), complete(snapshot(voicecall1, .connected))])
        bus.verifyDone()
    }

    @Test("call waiting: the second call rings as waiting; hold-and-answer swaps them")
    func callWaiting() {
        let bus = RecordedBus()
        var (session, _) = watching(bus, calls: [(voicecall1, "active")])
        #expect(session.handle(ofonoCallAdded(60, voicecall2, "waiting"), bus) == [changes(snapshot(voicecall2, .ringing))])
        #expect(session.handle(ofonoState(61, voicecall1, "held"), bus) == [changes(snapshot(voicecall1, .held))])
        #expect(session.handle(ofonoState(62, voicecall2, "active"), bus) == [changes(snapshot(voicecall2, .connected))])
        bus.verifyDone()
    }

    @Test("the modem losing its voice call manager (switched off, connection lost) ends its calls")
    func modemDisappears() {
        let bus = RecordedBus()
        var (session, _) = watching(bus, calls: [(voicecall1, "active")])
        #expect(session.handle(ofonoInterfaces(70), bus) == [changes(snapshot(voicecall1, .ended, hadConnected: true))])
        #expect(session.handle(.signal(ofonoOwner, 71, "/", Ofono.manager, "ModemRemoved", [.objectPath(phonesim)]), bus) == [])
        bus.verifyDone()
    }

    @Test("a modem that gains its voice call manager later is read then")
    func modemPoweredLater() {
        let bus = RecordedBus([nameHasOwner(Ofono.service, true), getModems(40, [(phonesim, [])])])
        var session = TelephonySession(choice: .only(.ofono))
        #expect(session.start(bus) == [.status(.watching(.ofono)), complete()])
        #expect(session.handle(ofonoInterfaces(50, "org.ofono.SimManager"), bus) == [])
        bus.expect([getCalls(phonesim, 52, [(voicecall1, "incoming")])])
        #expect(session.handle(ofonoInterfaces(51, "org.ofono.SimManager", Ofono.voiceCallManager), bus) == [changes(snapshot(voicecall1, .ringing))])
        bus.verifyDone()
    }

    @Test("restart mid-call: the call is kept while oFono is away and until its modem is read again")
    func daemonRestart() {
        let bus = RecordedBus()
        var (session, _) = watching(bus, calls: [(voicecall1, "active")])
        #expect(session.handle(nameOwnerChanged(30, Ofono.service, ofonoOwner, ""), bus) == [.status(.lost(.ofono))])
        bus.expect([getModems(7, [(phonesim, [])], owner: ":1.60")])
        #expect(session.handle(nameOwnerChanged(31, Ofono.service, "", ":1.60"), bus)
            == [.status(.watching(.ofono)), complete(snapshot(voicecall1, .connected))])
        bus.expect([getCalls(phonesim, 12, [(voicecall1, "active")], owner: ":1.60")])
        #expect(session.handle(ofonoInterfaces(11, Ofono.voiceCallManager, owner: ":1.60"), bus) == [complete(snapshot(voicecall1, .connected))])
        // From now on, changes again.
        #expect(session.handle(ofonoState(13, voicecall1, "disconnected", owner: ":1.60"), bus) == [changes(snapshot(voicecall1, .ended, hadConnected: true))])
        bus.verifyDone()
    }

    @Test("restart mid-call: a modem read before oFono has found the call again does not end it")
    func daemonRestartCallFoundLate() {
        let bus = RecordedBus()
        var (session, _) = watching(bus, calls: [(voicecall1, "active")])
        #expect(session.handle(nameOwnerChanged(30, Ofono.service, ofonoOwner, ""), bus) == [.status(.lost(.ofono))])
        bus.expect([getModems(7, [(phonesim, [])], owner: ":1.60")])
        #expect(session.handle(nameOwnerChanged(31, Ofono.service, "", ":1.60"), bus)
            == [.status(.watching(.ofono)), complete(snapshot(voicecall1, .connected))])
        bus.expect([getCalls(phonesim, 12, [], owner: ":1.60")])
        #expect(session.handle(ofonoInterfaces(11, Ofono.voiceCallManager, owner: ":1.60"), bus, now: 0) == [])
        #expect(session.tick(now: TelephonySession.orphanGrace / 2) == [])
        let found = BusMessage.signal(":1.60", 14, phonesim, Ofono.voiceCallManager, "CallAdded", [.objectPath(voicecall1), props(["State": .string("active")])])
        #expect(session.handle(found, bus, now: TelephonySession.orphanGrace / 2) == [complete(snapshot(voicecall1, .connected))])
        #expect(session.tick(now: TelephonySession.orphanGrace) == [])
        bus.verifyDone()
    }

    @Test("a call never seen ringing or connected that is already disconnected is not reported")
    func unseenEndedCall() {
        let bus = RecordedBus()
        var (session, _) = watching(bus)
        #expect(session.handle(ofonoState(50, voicecall2, "disconnected"), bus) == [])
        bus.verifyDone()
    }
}

// MARK: Replaying recordings of the real daemons

/// A bus that answers from a recording made with `CALLMONITOR_DBUS_RECORD` against the real
/// daemons (Tests/TelephonyE2E/Recordings): each method call must be the next one recorded.
final class ReplayBus: TelephonyBus {
    let records: [BusRecord]
    private(set) var cursor = 0

    init(_ records: [BusRecord]) { self.records = records }

    func call(_ call: BusMethodCall) throws(Telephony.Error) -> BusMessage {
        guard cursor < records.count, let recorded = records[cursor].call else {
            Issue.record("the session made a call the recording does not have next: \(call)")
            throw .callFailed(name: "test.Unexpected", message: "\(call)")
        }
        cursor += 1
        #expect(call == recorded)
        if let reply = records[cursor - 1].reply { return reply }
        throw .callFailed(name: "recorded", message: records[cursor - 1].error ?? "")
    }

    /// The next signal of the recording, if the next record is one.
    func nextSignal() -> (Int64, BusMessage)? {
        guard cursor < records.count, let signal = records[cursor].signal else { return nil }
        cursor += 1
        return (records[cursor - 1].t, signal)
    }
}

@Suite("Telephony: replayed recordings of real ModemManager 1.20 and oFono 1.31", .nothingLeftScheduled)
struct RecordedDaemonTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TelephonyE2E/Recordings")

    /// Plays a recording through a fresh session, as the source's thread would (ticks included,
    /// and a last one once the orphan grace is over), and returns every output.
    private func replay(_ name: String, _ backend: Telephony.Backend) throws -> [TelephonyOutput] {
        let text = try String(contentsOf: Self.directory.appendingPathComponent("\(name)-\(backend).jsonl"), encoding: .utf8)
        let decoder = JSONDecoder()
        let records = try text.split(separator: "\n").map { try decoder.decode(BusRecord.self, from: Data($0.utf8)) }
        let bus = ReplayBus(records)
        var session = TelephonySession(choice: .only(backend))
        var outputs = session.start(bus, now: records.first?.t ?? 0)
        var last: Int64 = 0
        while let (t, signal) = bus.nextSignal() {
            outputs += session.tick(now: t)
            outputs += session.handle(signal, bus, now: t)
            last = t
        }
        outputs += session.tick(now: last + TelephonySession.orphanGrace)
        #expect(bus.cursor == records.count, "records the session did not use: \(records[bus.cursor...])")
        return outputs
    }

    private func ids(_ backend: Telephony.Backend) -> (String, String) {
        switch backend {
        case .modemManager: ("/org/freedesktop/ModemManager1/Call/0", "/org/freedesktop/ModemManager1/Call/1")
        case .ofono: ("/phonesim/voicecall01", "/phonesim/voicecall02")
        }
    }

    @Test("a call already live at start, then hung up", arguments: Telephony.Backend.allCases)
    func callLiveAtStart(backend: Telephony.Backend) throws {
        let (a, _) = ids(backend)
        #expect(try replay("callLiveAtStart", backend) == [
            .status(.watching(backend)), complete(snapshot(a, .connected)),
            changes(snapshot(a, .ended, hadConnected: true)),
        ])
    }

    @Test("incoming, answered, held, resumed, hung up", arguments: Telephony.Backend.allCases)
    func holdAndResume(backend: Telephony.Backend) throws {
        let (a, _) = ids(backend)
        #expect(try replay("holdAndResume", backend) == [
            .status(.watching(backend)), complete(),
            changes(snapshot(a, .ringing)), changes(snapshot(a, .connected)),
            changes(snapshot(a, .held)), changes(snapshot(a, .connected)),
            changes(snapshot(a, .ended, hadConnected: true)),
        ])
    }

    @Test("outgoing, answered by the far end, hung up", arguments: Telephony.Backend.allCases)
    func outgoingCall(backend: Telephony.Backend) throws {
        let (a, _) = ids(backend)
        #expect(try replay("outgoingCall", backend) == [
            .status(.watching(backend)), complete(),
            changes(snapshot(a, .ringing, outgoing: true)), changes(snapshot(a, .connected, outgoing: true)),
            changes(snapshot(a, .ended, outgoing: true, hadConnected: true)),
        ])
    }

    @Test("call waiting: the second call rings, hold-and-answer swaps, each hangs up", arguments: Telephony.Backend.allCases)
    func callWaiting(backend: Telephony.Backend) throws {
        let (a, b) = ids(backend)
        #expect(try replay("callWaiting", backend) == [
            .status(.watching(backend)), complete(),
            changes(snapshot(a, .ringing)), changes(snapshot(a, .connected)),
            changes(snapshot(b, .ringing)),
            changes(snapshot(a, .held)), changes(snapshot(b, .connected)),
            changes(snapshot(b, .ended, hadConnected: true)), changes(snapshot(a, .ended, hadConnected: true)),
        ])
    }

    @Test("the modem disappearing mid-call", arguments: Telephony.Backend.allCases)
    func modemDisappears(backend: Telephony.Backend) throws {
        let (a, _) = ids(backend)
        #expect(try replay("modemDisappears", backend) == [
            .status(.watching(backend)), complete(),
            changes(snapshot(a, .ringing)), changes(snapshot(a, .connected)),
            changes(snapshot(a, .ended, hadConnected: true)),
        ])
    }

    @Test("ModemManager killed mid-call and restarted: kept while away, given up after the grace (it lists no call)")
    func modemManagerRestart() throws {
        let (a, _) = ids(.modemManager)
        #expect(try replay("daemonRestart", .modemManager) == [
            .status(.watching(.modemManager)), complete(),
            changes(snapshot(a, .ringing)), changes(snapshot(a, .connected)),
            .status(.lost(.modemManager)),
            .status(.watching(.modemManager)), complete(snapshot(a, .connected)),
            complete(),
        ])
    }

    @Test("oFono killed mid-call and restarted: its voice manager appears before it lists the call again, which is kept")
    func ofonoRestart() throws {
        let (a, _) = ids(.ofono)
        #expect(try replay("daemonRestart", .ofono) == [
            .status(.watching(.ofono)), complete(),
            changes(snapshot(a, .ringing)), changes(snapshot(a, .connected)),
            .status(.lost(.ofono)),
            .status(.watching(.ofono)), complete(snapshot(a, .connected)),
            complete(snapshot(a, .connected)),
            changes(snapshot(a, .ended, hadConnected: true)),
        ])
    }
}
#endif

@Suite("Telephony: the modem and call table both trackers share", .nothingLeftScheduled)
struct CallTableTests {
    @Test("a call stored before any modem listed it (its CallAdded was missed) still ends with the modem that lists it later")
    func callListedLaterEndsWithModem() {
        var table = CallTable()
        table.updateCall("/call/1") { $0.hasConnected = true }
        #expect(!table.hasVoiceModem)
        table.listCalls(["/call/1"], on: "/modem/0")
        #expect(table.hasVoiceModem)
        table.removeModem("/modem/0")
        #expect(table.snapshots.isEmpty)
        #expect(!table.hasVoiceModem)
    }

    @Test("a modem's calls end with it, other modems' calls stay; a removed call leaves its modem known")
    func modemsAndCalls() {
        var table = CallTable()
        table.addModem("/modem/0")
        table.setCall("/call/1", modem: "/modem/0", CallSnapshot(id: CallID("/call/1")))
        table.setCall("/call/2", modem: "/modem/1", CallSnapshot(id: CallID("/call/2"), hasConnected: true))
        table.setCall("/call/3", modem: "/modem/0", CallSnapshot(id: CallID("/call/3")))
        table.removeCall("/call/3", from: "/modem/0")
        #expect(table.hasModem("/modem/0") && table.hasModem("/modem/1"))
        table.removeModem("/modem/0")
        #expect(table.snapshots == [CallSnapshot(id: CallID("/call/2"), hasConnected: true)])
        #expect(!table.hasModem("/modem/0"))
        #expect(table.snapshot(of: "/call/9") == CallSnapshot(id: CallID("/call/9")))
        table.removeAll()
        #expect(table.snapshots.isEmpty && !table.hasVoiceModem)
    }
}

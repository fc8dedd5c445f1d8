// Edges of the D-Bus mapping the recorded sequences of TelephonyMappingTests.swift do not reach:
// ModemManager removing only the Voice interface, a restarted daemon that lists only some of the
// calls it had, and an oFono call first seen alerting.

// The telephony types are compiled only on Linux.
#if os(Linux)
import Testing
@testable import hnb

private let owner = ":1.20"
private let ofonoOwner = ":1.9"
private let dbusName = "org.freedesktop.DBus"
private let modem = "/org/freedesktop/ModemManager1/Modem/0"
private let callA = "/org/freedesktop/ModemManager1/Call/0"
private let callB = "/org/freedesktop/ModemManager1/Call/1"
private let phonesim = "/phonesim"
private let voicecall = "/phonesim/voicecall01"

private func properties(_ entries: KeyValuePairs<String, BusValue>) -> BusValue {
    .dictionary(entries.map { .init(key: .string($0.key), value: .variant($0.value)) })
}

private func owned(_ name: String) -> (BusMethodCall, Result<BusMessage, Telephony.Error>) {
    (BusMethodCall(destination: dbusName, path: "/org/freedesktop/DBus", interface: dbusName, member: "NameHasOwner", arguments: [name]),
     .success(.reply(dbusName, 5, [.bool(true)])))
}

/// GetManagedObjects listing one voice modem with `calls`.
private func objects(_ serial: UInt32, calls: [String], from sender: String = owner) -> (BusMethodCall, Result<BusMessage, Telephony.Error>) {
    let voiceModem = BusValue.dictionary([
        .init(key: .string(MM.modem), value: properties(["State": .integer(8)])),
        .init(key: .string(MM.voice), value: properties(["Calls": .array(calls.map(BusValue.objectPath))])),
    ])
    return (BusMethodCall(destination: MM.service, path: MM.root, interface: MM.objectManager, member: "GetManagedObjects"),
            .success(.reply(sender, serial, [.dictionary([.init(key: .objectPath(modem), value: voiceModem)])])))
}

private func active(_ path: String, _ serial: UInt32, from sender: String = owner) -> (BusMethodCall, Result<BusMessage, Telephony.Error>) {
    (BusMethodCall(destination: MM.service, path: path, interface: MM.properties, member: "GetAll", arguments: [MM.call]),
     .success(.reply(sender, serial, [properties(["State": .integer(4), "Direction": .integer(1)])])))
}

private func connected(_ path: String, ended: Bool = false) -> CallSnapshot {
    CallSnapshot(id: CallID(path), hasConnected: true, hasEnded: ended)
}

@Suite("Telephony: mapping edges", .nothingLeftScheduled)
struct TelephonyMappingEdgeTests {
    @Test("InterfacesRemoved with only the Voice interface ends the modem's calls")
    func voiceInterfaceRemovedEndsCalls() {
        let bus = RecordedBus([owned(MM.service), objects(10, calls: [callA]), active(callA, 11)])
        var session = TelephonySession(choice: .only(.modemManager))
        #expect(session.start(bus) == [.status(.watching(.modemManager)), .deliver(.complete([connected(callA)]))])
        let removed = BusMessage.signal(owner, 40, MM.root, MM.objectManager, "InterfacesRemoved", [.objectPath(modem), .array([.string(MM.voice)])])
        #expect(session.handle(removed, bus) == [.deliver(.changes([connected(callA, ended: true)]))])
        bus.verifyDone()
    }

    @Test("Calls kept from a restarted daemon stay until the grace period when it lists only some of them")
    func orphansStayUntilGraceWhenOneIsListed() {
        let bus = RecordedBus([owned(MM.service), objects(10, calls: [callA, callB]), active(callA, 11), active(callB, 12)])
        var session = TelephonySession(choice: .only(.modemManager))
        #expect(session.start(bus) == [.status(.watching(.modemManager)), .deliver(.complete([connected(callA), connected(callB)]))])
        let gone = BusMessage.signal(dbusName, 30, "/org/freedesktop/DBus", dbusName, "NameOwnerChanged", [.string(MM.service), .string(owner), .string("")])
        #expect(session.handle(gone, bus) == [.status(.lost(.modemManager))])
        // Back, it lists its voice modem with only A: B is kept for the grace period.
        let back = BusMessage.signal(dbusName, 31, "/org/freedesktop/DBus", dbusName, "NameOwnerChanged", [.string(MM.service), .string(""), .string(":1.50")])
        bus.expect([objects(3, calls: [callA], from: ":1.50"), active(callA, 4, from: ":1.50")])
        #expect(session.handle(back, bus, now: 1_000)
            == [.status(.watching(.modemManager)), .deliver(.complete([connected(callA), connected(callB)]))])
        #expect(session.tick(now: 1_000 + TelephonySession.orphanGrace - 1) == [])
        #expect(session.tick(now: 1_000 + TelephonySession.orphanGrace) == [.deliver(.complete([connected(callA)]))])
        bus.verifyDone()
    }

    @Test("An oFono call first seen alerting is outgoing: in CallAdded, in the first list and in a lone PropertyChanged")
    func ofonoAlertingIsOutgoing() {
        let getModems = (BusMethodCall(destination: Ofono.service, path: "/", interface: Ofono.manager, member: "GetModems"),
                         Result<BusMessage, Telephony.Error>.success(.reply(ofonoOwner, 40, [.array([
                             .structure([.objectPath(phonesim), properties(["Interfaces": .array([.string(Ofono.voiceCallManager)])])]),
                         ])])))
        let getCalls = (BusMethodCall(destination: Ofono.service, path: phonesim, interface: Ofono.voiceCallManager, member: "GetCalls"),
                        Result<BusMessage, Telephony.Error>.success(.reply(ofonoOwner, 41, [.array([
                            .structure([.objectPath("/phonesim/voicecall09"), properties(["State": .string("alerting")])]),
                        ])])))
        let bus = RecordedBus([owned(Ofono.service), getModems, getCalls])
        var session = TelephonySession(choice: .only(.ofono))
        let outgoing = { (path: String) in CallSnapshot(id: CallID(path), isOutgoing: true) }
        #expect(session.start(bus) == [.status(.watching(.ofono)), .deliver(.complete([outgoing("/phonesim/voicecall09")]))])
        let added = BusMessage.signal(ofonoOwner, 50, phonesim, Ofono.voiceCallManager, "CallAdded", [.objectPath(voicecall), properties(["State": .string("alerting")])])
        #expect(session.handle(added, bus) == [.deliver(.changes([outgoing(voicecall)]))])
        let lone = BusMessage.signal(ofonoOwner, 51, "/phonesim/voicecall02", Ofono.voiceCall, "PropertyChanged", [.string("State"), .variant(.string("alerting"))])
        #expect(session.handle(lone, bus) == [.deliver(.changes([outgoing("/phonesim/voicecall02")]))])
        bus.verifyDone()
    }
}
#endif

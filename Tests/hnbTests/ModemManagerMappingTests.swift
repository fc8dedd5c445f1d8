// Split out of TelephonyMappingTests.swift so that each file holds one suite, named as the file (issue 39).

#if os(Linux)
// The telephony types are compiled only on Linux.
import Foundation

import Testing
@testable import hnb
import hnbTesting

private let modem0 = "/org/freedesktop/ModemManager1/Modem/0"

private let call0 = "/org/freedesktop/ModemManager1/Call/0"

private let call1 = "/org/freedesktop/ModemManager1/Call/1"

private func strings(_ list: String...) -> BusValue { .array(list.map(BusValue.string)) }

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

#endif

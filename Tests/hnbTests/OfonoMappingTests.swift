// Split out of TelephonyMappingTests.swift so that each file holds one suite, named as the file (issue 39).

#if os(Linux)
// The telephony types are compiled only on Linux.
import Foundation

import Testing
@testable import hnb
import hnbTesting

private let ofonoOwner = ":1.9"

private let phonesim = "/phonesim"

private let voicecall2 = "/phonesim/voicecall02"

private func ofonoState(_ serial: UInt32, _ path: String, _ state: String, owner: String = ofonoOwner) -> BusMessage {
    .signal(owner, serial, path, Ofono.voiceCall, "PropertyChanged", [.string("State"), .variant(.string(state))])
}

private func ofonoCallAdded(_ serial: UInt32, _ path: String, _ state: String) -> BusMessage {
    .signal(ofonoOwner, serial, phonesim, Ofono.voiceCallManager, "CallAdded", [.objectPath(path), props(["State": .string(state), "LineIdentification": .string("+15559999")])])
}

private func ofonoInterfaces(_ serial: UInt32, _ interfaces: String..., owner: String = ofonoOwner) -> BusMessage {
    .signal(owner, serial, phonesim, Ofono.modem, "PropertyChanged", [.string("Interfaces"), .variant(.array(interfaces.map(BusValue.string)))])
}

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

#endif

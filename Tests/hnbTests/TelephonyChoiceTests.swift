// Split out of TelephonyMappingTests.swift so that each file holds one suite, named as the file (issue 39).

#if os(Linux)
// The telephony types are compiled only on Linux.
import Foundation

import Testing
@testable import hnb
import hnbTesting

private let ofonoOwner = ":1.9"

private let phonesim = "/phonesim"

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

#endif

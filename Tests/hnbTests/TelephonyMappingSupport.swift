// The D-Bus telephony mapping without daemons: recorded message sequences of ModemManager 1.20
// and oFono 1.31 (shapes, serials and orders as dbus-monitor showed them in the end-to-end lab)
// are played into the session, and each test asserts the exact statuses and call batches out.

#if os(Linux)
// The telephony types are compiled only on Linux.
import Foundation

import Testing
@testable import hnb
import hnbTesting

/// The oFono daemon's bus name in the recordings (each suite file that uses it keeps its own copy).
private let ofonoOwner = ":1.9"

/// A bus that answers method calls from a recording, in order, and fails the test on any call
/// the recording does not expect.
final class RecordedBus: TelephonyBus {
    var script: [(BusMethodCall, Result<BusMessage, Telephony.Error>)]
    let sourceLocation: SourceLocation

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

let dbus = "org.freedesktop.DBus"

let mmOwner = ":1.20"

let voicecall1 = "/phonesim/voicecall01"

/// An `a{sv}`.
func props(_ entries: KeyValuePairs<String, BusValue>) -> BusValue {
    .dictionary(entries.map { .init(key: .string($0.key), value: .variant($0.value)) })
}

/// An `a{sa{sv}}` (interfaces and their properties) or `a{oa{sa{sv}}}` (objects).
func nested(_ entries: KeyValuePairs<String, BusValue>, paths: Bool = false) -> BusValue {
    .dictionary(entries.map { .init(key: paths ? .objectPath($0.key) : .string($0.key), value: $0.value) })
}

func paths(_ list: String...) -> BusValue { .array(list.map(BusValue.objectPath)) }

func nameHasOwner(_ name: String, _ owned: Bool) -> (BusMethodCall, Result<BusMessage, Telephony.Error>) {
    (BusMethodCall(destination: dbus, path: "/org/freedesktop/DBus", interface: dbus, member: "NameHasOwner", arguments: [name]),
     .success(.reply(dbus, 5, [.bool(owned)])))
}

func nameOwnerChanged(_ serial: UInt32, _ name: String, _ old: String, _ new: String) -> BusMessage {
    .signal(dbus, serial, "/org/freedesktop/DBus", dbus, "NameOwnerChanged", [.string(name), .string(old), .string(new)])
}

func managedObjects(_ serial: UInt32, _ objects: BusValue, owner: String = mmOwner) -> (BusMethodCall, Result<BusMessage, Telephony.Error>) {
    (BusMethodCall(destination: MM.service, path: MM.root, interface: MM.objectManager, member: "GetManagedObjects"),
     .success(.reply(owner, serial, [objects])))
}

func getModems(_ serial: UInt32, _ modems: [(String, [String])], owner: String = ofonoOwner) -> (BusMethodCall, Result<BusMessage, Telephony.Error>) {
    let list = modems.map { modem in
        BusValue.structure([.objectPath(modem.0), props(["Powered": .bool(true), "Interfaces": .array(modem.1.map(BusValue.string))])])
    }
    return (BusMethodCall(destination: Ofono.service, path: "/", interface: Ofono.manager, member: "GetModems"),
            .success(.reply(owner, serial, [.array(list)])))
}

func getCalls(_ modem: String, _ serial: UInt32, _ calls: [(String, String)], owner: String = ofonoOwner) -> (BusMethodCall, Result<BusMessage, Telephony.Error>) {
    let list = calls.map { BusValue.structure([.objectPath($0.0), props(["State": .string($0.1), "LineIdentification": .string("+15559999")])]) }
    return (BusMethodCall(destination: Ofono.service, path: modem, interface: Ofono.voiceCallManager, member: "GetCalls"),
            .success(.reply(owner, serial, [.array(list)])))
}

let allOfono = ["org.ofono.SimManager", Ofono.voiceCallManager, "org.ofono.CallSettings"]

// MARK: Expected snapshots

enum Shape { case ringing, connected, held, ended }

/// A call's snapshot; an ended call that had connected says so (`hasConnected` stays true).
func snapshot(_ id: String, _ shape: Shape, outgoing: Bool = false, hadConnected: Bool = false) -> CallSnapshot {
    CallSnapshot(
        id: CallID(id),
        isOutgoing: outgoing,
        hasConnected: shape == .connected || shape == .held || hadConnected,
        isOnHold: shape == .held,
        hasEnded: shape == .ended
    )
}

func changes(_ calls: CallSnapshot...) -> TelephonyOutput { .deliver(.changes(calls)) }

func complete(_ calls: CallSnapshot...) -> TelephonyOutput { .deliver(.complete(calls)) }

// MARK: Choosing the daemon

// MARK: ModemManager

// MARK: oFono

// MARK: Replaying recordings of the real daemons

#endif

// Split out of TelephonyMappingTests.swift so that each file holds one suite, named as the file (issue 39).

#if os(Linux)
// The telephony types are compiled only on Linux.
import Foundation

import Testing
@testable import hnb
import hnbTesting

private let phonesim = "/phonesim"

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

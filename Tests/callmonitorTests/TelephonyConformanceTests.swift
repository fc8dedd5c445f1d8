// Split out of TelephonyEndToEndTests.swift so that each file holds one suite, named as the file
// (issue 39); it uses that file's lab helpers (withLab, telephonyLabRuns).

// The telephony types are compiled only on Linux.
#if os(Linux)

import Foundation
import Testing
#if Telephony && os(Linux)
import hnb
import hnbTesting
#endif

#if Telephony && os(Linux)

/// Places and ends calls for the call-source conformance checks through the fake network and the
/// daemon: the first call is answered, the second answered with the first put on hold, the third
/// left waiting (as many calls as GSM allows at once). Every new source starts from no calls.
@MainActor
final class ConformanceCalls {
    private let lab: TelephonyLab
    private var numbers: [CallID: String] = [:]
    private var placed = 0

    init(_ lab: TelephonyLab) { self.lab = lab }

    /// Polls `condition` every 100 ms for up to ``Patience/seconds``; a timeout is an error.
    private func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        if await Patience.wait(every: 0.1, until: { (try? await condition()) == true }) { return }
        let calls = (try? await lab.calls()).map { "\($0)" } ?? "(the call list could not be read)"
        throw LabError("timed out after \(Int(Patience.seconds)) s waiting for \(what); the daemon lists \(calls)")
    }

    /// Hangs everything up and waits until the daemon lists no live call.
    func reset() async throws {
        try await lab.network("hangup")
        try await waitUntil("the daemon to list no live call") {
            try await self.lab.calls().allSatisfy { $0.state == "terminated" }
        }
        numbers = [:]
        placed = 0
    }

    func place() async throws -> CallID {
        placed += 1
        let before = Set(try await lab.calls().map(\.path))
        let number = "+1555100\(placed)"
        try await lab.network("ring \(number)")
        var path = ""
        try await waitUntil("the new call") {
            path = try await self.lab.calls().first { !before.contains($0.path) }?.path ?? ""
            return !path.isEmpty
        }
        switch placed {
        case 1: try await lab.answer()
        case 2: try await lab.holdAndAnswer()
        default: break
        }
        if placed <= 2 {
            try await waitUntil("call \(placed) to be active") {
                try await self.lab.calls().contains { $0.path == path && $0.state == "active" }
            }
        }
        numbers[CallID(path)] = number
        return CallID(path)
    }

    /// The far end hangs up this call.
    func end(_ id: CallID) async throws {
        let list = try await lab.network("list")
        let calls = try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [String: [String: Any]] ?? [:]
        guard let index = calls.first(where: { $0.value["number"] as? String == numbers[id] })?.key else {
            throw LabError("the fake modem has no call \(id) (\(numbers[id] ?? "?")): \(list)")
        }
        try await lab.network("hangup \(index)")
    }
}

@Suite("Telephony end to end: call source conformance", .serialized, .enabled(if: telephonyLabRuns, "needs root and the telephony packages; see the availability test"))
struct TelephonyConformanceTests {
    @Test("TelephonyCallSource passes the call-source conformance checks against each real daemon", arguments: TelephonyLab.Daemon.allCases)
    func conformance(daemon: TelephonyLab.Daemon) async throws {
        try await withLab(daemon, runsWatch: false) { lab in
            let backend: Telephony.Backend = daemon == .ofono ? .ofono : .modemManager
            let results = await MainActor.run { ConformanceCalls(lab) }.run(backend, lab.busAddress)
            #expect(results.map(\.description) == [
                "PASS the first delivery after start is a complete list",
                "PASS start delivers the calls already in progress",
                "PASS a call placed and ended while started is reported",
                "PASS stop then start reports the calls in progress again",
                "PASS nothing is delivered after stop",
                "PASS deliveries never overlap",
            ])
        }
    }
}

extension ConformanceCalls {
    func run(_ backend: Telephony.Backend, _ busAddress: String) async -> [CallSourceConformance.Result] {
        await CallSourceConformance.run(CallSourceConformance.Driver(
            makeSource: {
                try await self.reset()
                return TelephonyCallSource(backend: .only(backend), busAddress: busAddress)
            },
            placeCall: { _ in try await self.place() },
            endCall: { _, id in try await self.end(id) },
            quietPeriod: 10
        ))
    }
}

#endif

#endif

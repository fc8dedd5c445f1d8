// Fuzz target: D-Bus messages from ModemManager and oFono, as plain `BusMessage` values, through
// the session and both trackers. The input is a recording in the format of
// CALLMONITOR_DBUS_RECORD (one JSON `BusRecord` a line; lines that do not decode are skipped):
// its method replies answer the session's calls in order, its signals are handled at their
// times, with the orphan ticks in between. Every choice of daemon is tried. Besides crashes,
// it checks what the monitor relies on: a batch never names a call twice.
// Built by scripts/fuzz (compiled into module hnb, so internal types are reachable).

import Foundation

/// Answers each method call with the next recorded reply or error, whatever the call; past the
/// end of the recording, every call fails as an unreachable daemon would.
private final class FuzzBus: TelephonyBus {
    private let answers: [BusRecord]
    private var next = 0
    init(_ answers: [BusRecord]) { self.answers = answers }

    func call(_ call: BusMethodCall) throws(Telephony.Error) -> BusMessage {
        guard next < answers.count else { throw .callFailed(name: "fuzz.NoReply", message: call.member) }
        let answer = answers[next]
        next += 1
        if let reply = answer.reply { return reply }
        throw .callFailed(name: "fuzz.Error", message: answer.error ?? "")
    }
}

private func check(_ outputs: [TelephonyOutput]) {
    for case .deliver(let batch) in outputs {
        let ids = batch.calls.map(\.id)
        if Set(ids).count != ids.count { fatalError("a batch names a call twice: \(batch)") }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDBusOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    let decoder = JSONDecoder()
    let records = data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(BusRecord.self, from: Data($0)) }
    guard !records.isEmpty else { return 0 }
    let answers = records.filter { $0.signal == nil }
    let signals = records.compactMap { record in record.signal.map { (record.t, $0) } }
    for choice in [Telephony.BackendChoice.auto, .only(.modemManager), .only(.ofono)] {
        let bus = FuzzBus(answers)
        var session = TelephonySession(choice: choice)
        check(session.start(bus, now: records[0].t))
        var last: Int64 = 0
        for (t, signal) in signals {
            check(session.tick(now: t))
            check(session.handle(signal, bus, now: t))
            // Accessors the trackers do not all reach, on every argument.
            for index in 0..<min(signal.arguments.count, 8) {
                let value = signal.argument(index)
                _ = (value?.text, value?.texts, value?.elements, value?.properties, value?.integer, value?.bool)
            }
            last = t
        }
        let (end, overflow) = last.addingReportingOverflow(TelephonySession.orphanGrace)
        check(session.tick(now: overflow ? .max : end))
    }
    return 0
}

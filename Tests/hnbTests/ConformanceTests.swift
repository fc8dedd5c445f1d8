// Every call source the library ships passes CallSourceConformance; a source that breaks the
// contract (the old ExternalCallSource, which forgot its calls on restart) fails it.

import Dispatch
import Testing
@testable import hnb
import hnbTesting

/// Hands out call identifiers for the drivers.
@MainActor
final class CallNames {
    private var next = 0
    func make() -> String {
        next += 1
        return "call-\(next)"
    }
}

/// The old ExternalCallSource: its start delivered an empty list whatever calls were live.
@MainActor
final class ForgetfulCallSource: CallSource {
    private var deliver: (@Sendable (CallBatch) -> Void)?
    func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) {
        self.deliver = deliver
        deliver(.complete([]))
    }
    func stop() { deliver = nil }
    func send(_ batch: CallBatch) { deliver?(batch) }
}

@MainActor
@Suite("Call source conformance", .nothingLeftScheduled)
struct ConformanceTests {
    static let allChecks = [
        "PASS the first delivery after start is a complete list",
        "PASS start delivers the calls already in progress",
        "PASS a call placed and ended while started is reported",
        "PASS stop then start reports the calls in progress again",
        "PASS nothing is delivered after stop",
        "PASS deliveries never overlap",
    ]

    @Test("SimulatedCallSource passes every check")
    func simulated() async {
        let names = CallNames()
        let results = await CallSourceConformance.run(CallSourceConformance.Driver(
            makeSource: { SimulatedCallSource() },
            placeCall: { source in
                let id = names.make()
                try (source as! SimulatedCallSource).incoming(id)
                return CallID(id)
            },
            endCall: { source, id in try (source as! SimulatedCallSource).end(id.rawValue) },
            quietPeriod: 0.05
        ))
        #expect(results.map(\.description) == Self.allChecks)
    }

    @Test("ExternalCallSource, fed from another thread, passes every check")
    func external() async {
        let names = CallNames()
        let results = await CallSourceConformance.run(CallSourceConformance.Driver(
            makeSource: { ExternalCallSource() },
            placeCall: { source in
                let external = source as! ExternalCallSource
                let id = CallID(names.make())
                await Task.detached { external.send([CallSnapshot(id: id, hasConnected: true)]) }.value
                return id
            },
            endCall: { source, id in
                let external = source as! ExternalCallSource
                await Task.detached { external.send([CallSnapshot(id: id, hasConnected: true, hasEnded: true)]) }.value
            },
            quietPeriod: 0.05
        ))
        #expect(results.map(\.description) == Self.allChecks)
    }

    @Test("NoTelephonyCallSource passes the checks that need no call")
    func noTelephony() async {
        let results = await CallSourceConformance.run(CallSourceConformance.Driver(
            makeSource: { NoTelephonyCallSource() },
            quietPeriod: 0.05
        ))
        #expect(results.map(\.description) == [
            "PASS the first delivery after start is a complete list",
            "PASS nothing is delivered after stop",
        ])
    }

    @Test("A source that forgets its calls on restart fails exactly the checks it breaks")
    func forgetfulSourceFails() async {
        let names = CallNames()
        let results = await CallSourceConformance.run(CallSourceConformance.Driver(
            makeSource: { ForgetfulCallSource() },
            placeCall: { source in
                let forgetful = source as! ForgetfulCallSource
                let id = CallID(names.make())
                forgetful.send(.changes([CallSnapshot(id: id)]))
                return id
            },
            endCall: { source, id in (source as! ForgetfulCallSource).send(.changes([CallSnapshot(id: id, hasEnded: true)])) },
            quietPeriod: 0.05
        ))
        #expect(results.map(\.description) == [
            "PASS the first delivery after start is a complete list",
            "FAIL start delivers the calls already in progress: call call-1 is missing from CallBatch(calls: [], isComplete: true)",
            "PASS a call placed and ended while started is reported",
            "FAIL stop then start reports the calls in progress again: call call-3 was forgotten on restart: CallBatch(calls: [], isComplete: true)",
            "PASS nothing is delivered after stop",
            "PASS deliveries never overlap",
        ])
    }
}

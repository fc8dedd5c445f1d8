// The scripted call source of hnbTesting: the snapshots it reports, its start batch, and the
// impossible changes it refuses.

import Testing
import hnb
import hnbTesting

@MainActor
@Suite("Simulated call source", .nothingLeftScheduled)
struct SimulatedCallSourceTests {
    @Test("Snapshots follow the call: incoming, outgoing, connected, held, resumed, ended")
    func snapshots() throws {
        let source = SimulatedCallSource()
        let seen = SnapshotLog()
        source.start { batch in MainActor.assumeIsolated { seen.batches.append(batch) } }
        try source.incoming("A")
        try source.outgoing("B")
        try source.connect("A")
        try source.hold("A")
        try source.resume("A")
        try source.end("A")
        let a = CallID("A")
        #expect(seen.batches == [
            .complete([]),
            .changes([CallSnapshot(id: a)]),
            .changes([CallSnapshot(id: CallID("B"), isOutgoing: true)]),
            .changes([CallSnapshot(id: a, hasConnected: true)]),
            .changes([CallSnapshot(id: a, hasConnected: true, isOnHold: true)]),
            .changes([CallSnapshot(id: a, hasConnected: true)]),
            .changes([CallSnapshot(id: a, hasConnected: true, hasEnded: true)]),
        ])
        #expect(source.liveCalls.map(\.id) == [CallID("B")])
    }

    @Test("Calls in progress are delivered as one complete batch at start, ended ones left out")
    func startBatch() throws {
        let source = SimulatedCallSource()
        try source.incoming("A")
        try source.outgoing("B")
        try source.connect("B")
        try source.end("A")
        let seen = SnapshotLog()
        source.start { batch in MainActor.assumeIsolated { seen.batches.append(batch) } }
        #expect(seen.batches == [.complete([CallSnapshot(id: CallID("B"), isOutgoing: true, hasConnected: true)])])
    }

    @Test("Impossible changes are refused with a reason")
    func errors() throws {
        let source = SimulatedCallSource()
        try source.incoming("A")
        #expect(throws: SimulatedCallSource.ScriptError.duplicateCall("A")) { try source.incoming("A") }
        #expect(throws: SimulatedCallSource.ScriptError.unknownCall("Q")) { try source.connect("Q") }
        #expect(throws: SimulatedCallSource.ScriptError.invalidTransition("A", "has not connected, so it cannot be held")) { try source.hold("A") }
        #expect(throws: SimulatedCallSource.ScriptError.invalidTransition("A", "is not on hold")) { try source.resume("A") }
        try source.connect("A")
        #expect(throws: SimulatedCallSource.ScriptError.invalidTransition("A", "is already connected")) { try source.connect("A") }
        try source.end("A")
        #expect(throws: SimulatedCallSource.ScriptError.callEnded("A")) { try source.connect("A") }
        #expect(throws: SimulatedCallSource.ScriptError.callEnded("A")) { try source.end("A") }
    }
}

@MainActor
final class SnapshotLog {
    var batches: [CallBatch] = []
}

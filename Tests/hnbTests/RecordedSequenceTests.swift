// Issue 29 on the random-sequence suite: recording changes nothing the monitor does, and every
// recording replays in the simulator to exactly the outputs it recorded.

import Foundation
import Testing
@testable import hnb
@testable import ScenarioLanguage
import hnbTesting
import hnbRecording
@testable import callmonitor

@MainActor
@Suite("Recorded random sequences", .nothingLeftScheduled)
struct RecordedSequenceTests {
    /// 300 of the suite's sequences of 200 steps (the same seeds, in the same order);
    /// `CALLMONITOR_RECORDED_SEQUENCES` runs more.
    @Test("Recording on or off changes no observation of a random sequence, and each recording replays to its own outputs")
    func recordedSequencesReplay() async throws {
        let env = ProcessInfo.processInfo.environment
        let sequences = env["CALLMONITOR_RECORDED_SEQUENCES"].flatMap(Int.init) ?? 300
        let steps = env["CALLMONITOR_RANDOM_STEPS"].flatMap(Int.init) ?? 200
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-recorded-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files = 0
        var outputs = 0
        for seed in (0..<UInt64(sequences)).map({ $0 &* 0x2545_F491_4F6C_DD1D &+ 1 }) {
            var plain = RandomRun(seed: seed, steps: steps)
            plain.checker.log = []
            let plainViolations = await plain.run()
            var recorded = RandomRun(seed: seed, steps: steps, recordingTo: directory)
            recorded.checker.log = []
            let recordedViolations = await recorded.run()
            recorded.monitor.finishRecording()
            #expect(recordedViolations == plainViolations, "seed \(seed)")
            guard recorded.checker.log == plain.checker.log else {
                Issue.record("seed \(seed): recording changed what the monitor did")
                return
            }
            for file in recorded.recordings {
                files += 1
                let text = try String(contentsOf: file, encoding: .utf8)
                outputs += RecordingCheck.outputs(text).count
                let steps = try ScenarioParser.parse(text)
                let simulation = Simulation(strings: .english)
                let again = file.appendingPathExtension("replayed")
                simulation.startRecording(toPath: again.path)
                _ = try simulation.run(steps)
                simulation.finishRecording()
                simulation.stopMonitoring()
                let replayed = try String(contentsOf: again, encoding: .utf8)
                if let difference = RecordingCheck.firstDifference(recorded: text, replayed: replayed) {
                    // Kept for `callmonitor replay FILE --check`.
                    let kept = FileManager.default.temporaryDirectory.appendingPathComponent(file.lastPathComponent)
                    try? FileManager.default.removeItem(at: kept)
                    try? FileManager.default.copyItem(at: file, to: kept)
                    Issue.record("seed \(seed) \(file.lastPathComponent):\(difference.line): recorded \(difference.recorded ?? "(nothing)"), replayed \(difference.replayed ?? "(nothing)")")
                    return
                }
                try? FileManager.default.removeItem(at: file)
                try? FileManager.default.removeItem(at: again)
            }
        }
        // The recordings must hold the sessions, or the comparison proves little.
        #expect(outputs > sequences * 20, "only \(outputs) outputs in \(files) recordings")
        print("recorded random sequences: \(sequences) × \(steps) steps, \(files) recordings, \(outputs) outputs, all replayed to the same outputs")
    }
}

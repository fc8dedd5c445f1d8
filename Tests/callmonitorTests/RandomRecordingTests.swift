// Issue 37, item 11: random scenarios (fixed seeds) recorded with `simulate --record` replay to
// the same transcript, refused taps included, and `replay --check` refuses a recording that holds
// nothing to compare.

import Foundation
import Testing

/// SplitMix64: a small generator whose sequence is fixed by its seed on every platform, so each
/// scenario below is the same on every run (the system generator is not seedable).
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A random scenario the simulator runs without a script error: the calls' commands follow each
/// call's state, protections close only what is open. It begins with a policy and a ringing call,
/// so the monitor always does something a recording holds; taps are frequent and come at any
/// moment (before the button, with nothing on screen, on a released delegate), which is where
/// refused taps come from.
func randomScenario(seed: UInt64) -> String {
    var random = SeededGenerator(seed: seed)
    func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }
    func flow() -> String { pick(["terminate", "acknowledge"]) }
    var time = 0.0
    var lines = ["0 start \(flow()) \(1 + random.next() % 6)", "0 incoming C0"]
    var calls = ["C0": "ringing"]
    var callsMade = 0
    var protections: [String] = []
    var protectionsMade = 0
    for _ in 0..<(10 + Int(random.next() % 30)) {
        time += pick([0, 0, 0.25, 0.5, 1, 2, 3])
        let live = calls.filter { $0.value != "ended" }.keys.sorted()
        let roll = random.next() % 100
        var command: String?
        switch roll {
        case 0..<6: command = "start \(flow()) \(random.next() % 7)"
        case 6..<8: command = pick(["stop", "start observe"])
        case 8..<18:
            callsMade += 1
            let outgoing = random.next() % 3 == 0
            calls["C\(callsMade)"] = outgoing ? "dialing" : "ringing"
            command = "\(outgoing ? "outgoing" : "incoming") C\(callsMade)"
        case 18..<26:
            let ringing = calls.filter { $0.value == "ringing" || $0.value == "dialing" }.keys.sorted()
            if let id = ringing.isEmpty ? nil : pick(ringing) { calls[id] = "connected"; command = "connect \(id)" }
        case 26..<30:
            let connected = calls.filter { $0.value == "connected" }.keys.sorted()
            let held = calls.filter { $0.value == "held" }.keys.sorted()
            if random.next() % 2 == 0, !connected.isEmpty {
                let id = pick(connected); calls[id] = "held"; command = "hold \(id)"
            } else if !held.isEmpty {
                let id = pick(held); calls[id] = "connected"; command = "resume \(id)"
            }
        case 30..<38:
            if !live.isEmpty { let id = pick(live); calls[id] = "ended"; command = "end \(id)" }
        case 38..<56: command = "tap"
        case 56..<62: command = pick(["delegate custom", "delegate custom", "delegate none", "delegate release"])
        case 62..<67: command = pick(["background", "foreground"])
        case 67..<72: command = pick(["capture on", "capture off", "capture rule on", "capture rule off"])
        case 72..<75: command = pick(["callback off", "callback on"])
        case 75..<78: command = pick(["detection off", "detection on", "detection on"])
        case 78..<81: if !live.isEmpty { command = "\(pick(["exempt", "unexempt"])) \(pick(live))" }
        case 81..<86:
            if !protections.isEmpty, random.next() % 2 == 0 {
                let name = pick(protections)
                protections.removeAll { $0 == name }
                command = "unprotect \(name)"
            } else {
                protectionsMade += 1
                protections.append("S\(protectionsMade)")
                command = "protect S\(protectionsMade) \(flow()) \(random.next() % 6)"
            }
        case 86..<89: command = pick(["verdict bank", "verdict notbank", "verdict late 2", "verdict off"])
        default: command = "wait"
        }
        if let command { lines.append("\(time) \(command)") }
    }
    lines.append("\(time + 10) wait")
    return lines.joined(separator: "\n") + "\n"
}

extension CommandLineTests {
    @Suite("callmonitor replay: random recordings (issue 37)")
    struct RandomRecordingTests {
        @Test("60 random scenarios recorded with simulate --record replay to the same transcript, refused taps included, and pass --check")
        func randomScenariosReplayIdentically() async throws {
            var identical = 0
            var refusedTaps = 0
            var differing: [UInt64] = []
            // The 60 seeds run as many at a time as there are cores: each is two launches of the
            // tool, which are all of the test's time (a second each under CI's Thread Sanitizer
            // step, whose filter matches this suite). The children only read the files they are
            // given and all exit, so a pipe end one of them inherits from a sibling (the suite's
            // reason to run one test at a time) can only delay that sibling's end of output,
            // never hold it for ever. The totals are the same sums as one after another.
            let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
            try await withThrowingTaskGroup(of: SeedResult.self) { group in
                var seeds = (UInt64(1)...60).makeIterator()
                for _ in 0..<width {
                    if let seed = seeds.next() { group.addTask { try await Self.recordAndReplay(seed: seed) } }
                }
                while let result = try await group.next() {
                    if result.identical { identical += 1 } else { differing.append(result.seed) }
                    refusedTaps += result.refusedTaps
                    if let seed = seeds.next() { group.addTask { try await Self.recordAndReplay(seed: seed) } }
                }
            }
            differing.sort()
            #expect(differing == [], "seeds whose replay differs")
            #expect(identical == 60)
            // The scenarios do refuse taps (else the test would prove nothing about them).
            #expect(refusedTaps > 60, "only \(refusedTaps) refused taps in 60 scenarios")
            print("random recordings: \(identical) of 60 replay identically; \(refusedTaps) refused taps among them")
        }

        /// What one seed's scenario gave: whether its replay was identical, and its refused taps.
        struct SeedResult: Sendable {
            let seed: UInt64
            let identical: Bool
            let refusedTaps: Int
        }

        /// Simulates seed `seed`'s scenario with `--record`, then replays the recording with
        /// `--check`: identical when the check passes silently with the simulation's transcript.
        static func recordAndReplay(seed: UInt64) async throws -> SeedResult {
            let scenario = temporaryFile("random-\(seed).scenario")
            let recording = temporaryFile("random-\(seed).recording")
            defer {
                try? FileManager.default.removeItem(at: scenario)
                try? FileManager.default.removeItem(at: recording)
            }
            try randomScenario(seed: seed).write(to: scenario, atomically: true, encoding: .utf8)
            let simulated = try await runTool(["simulate", scenario.path, "--record", recording.path])
            try #require(simulated.status == 0, "seed \(seed): \(simulated.stderr)")
            let replayed = try await runTool(["replay", recording.path, "--check"])
            let identical = replayed.status == 0 && replayed.stderr == "" && replayed.stdout == simulated.stdout
            let refusedTaps = simulated.stdout.split(separator: "\n").filter { $0.contains("\"kind\":\"tap\",\"accepted\":false") }.count
            return SeedResult(seed: seed, identical: identical, refusedTaps: refusedTaps)
        }

        @Test("replay --check of an empty recording, or of one with no output line, fails and says why", arguments: [
            ("", "the recording is empty: there is nothing to check"),
            ("\n  \n", "the recording is empty: there is nothing to check"),
            ("0 recording\n0 start terminate 3\n1 calls\n", "the recording has no output line ('#> ...'): there is nothing to check the replay against"),
            ("# hnb session recording\n0 recording\n# recording stopped by the app\n", "the recording has no output line ('#> ...'): there is nothing to check the replay against"),
        ])
        func nothingToCheckFails(text: String, reason: String) async throws {
            let recording = temporaryFile("empty-\(text.utf8.count).recording")
            defer { try? FileManager.default.removeItem(at: recording) }
            try text.write(to: recording, atomically: true, encoding: .utf8)
            let checked = try await runTool(["replay", recording.path, "--check"])
            #expect(checked.status == 1)
            #expect(checked.stdout == "")
            #expect(checked.stderr == "\(recording.path): \(reason)\n")
            let piped = try await runTool(["replay", "-", "--check"], input: text)
            #expect(piped.status == 1)
            #expect(piped.stderr == "standard input: \(reason)\n")
            // Without --check there is nothing to compare, and the replay only runs.
            let replayed = try await runTool(["replay", recording.path])
            #expect(replayed.status == 0)
        }
    }
}

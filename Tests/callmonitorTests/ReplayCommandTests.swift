// `callmonitor simulate --record FILE` and `callmonitor replay FILE --check` (issue 29), run as a
// user would: the simulator agrees with itself, and an edited output line fails the check.

import Foundation
import Testing

/// A file of its own in the temporary directory for one test.
func temporaryFile(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("callmonitor-\(getpid())-\(name)")
}

/// Whether scenario `name` uses coaching signals (issue 40): its recording holds the coaching
/// questions and answers, and replays with the rest (CoachingScenarioTests checks their lines).
func scenarioUsesCoaching(_ name: String) -> Bool {
    let text = (try? String(contentsOf: scenarioDirectory.appendingPathComponent("\(name).scenario"), encoding: .utf8)) ?? ""
    return text.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first == "coaching" }
}

/// The scenarios that use the signed remote policy (`keys`, `policy`): a recording holds neither
/// the pinned keys nor the documents, so it cannot replay them (RecordingASession.md says so).
func scenarioUsesSignedPolicy(_ name: String) -> Bool {
    let text = (try? String(contentsOf: scenarioDirectory.appendingPathComponent("\(name).scenario"), encoding: .utf8)) ?? ""
    return text.split(separator: "\n").contains { line in
        let words = line.split(separator: " ")
        return words.count > 1 && (words[1] == "keys" || words[1] == "policy")
    }
}

extension CommandLineTests {
    @Suite("callmonitor replay and simulate --record")
    struct ReplayTests {
        @Test("A recorded scenario replays to the same transcript, its outputs pass --check, and recording the replay gives the same file",
              arguments: scenarioNames().filter { !scenarioUsesSignedPolicy($0) })
        func simulatorAgreesWithItself(name: String) async throws {
            let recording = temporaryFile("\(name).recording")
            let again = temporaryFile("\(name).again")
            defer {
                try? FileManager.default.removeItem(at: recording)
                try? FileManager.default.removeItem(at: again)
            }
            let scenario = scenarioDirectory.appendingPathComponent("\(name).scenario").path
            let simulated = try await runTool(["simulate", scenario, "--record", recording.path])
            #expect(simulated.status == 0)
            // A scenario in which the monitor does nothing (rule 2's silence while off) records
            // no output line, and a check with nothing to compare fails (issue 37); it still
            // replays to the same transcript.
            let silent = name == "rule02_silent_while_off"
            let checked = try await runTool(["replay", recording.path, "--check"])
            #expect(checked.status == (silent ? 1 : 0))
            #expect(checked.stderr == (silent ? "\(recording.path): the recording has no output line ('#> ...'): there is nothing to check the replay against\n" : ""))
            let replayed = silent ? try await runTool(["replay", recording.path]) : checked
            // Every line, refused taps included: a tap with nothing to press is written in the
            // recording, so the replay taps there too (issue 37).
            #expect(replayed.stdout == simulated.stdout)
            let rerecorded = try await runTool(["simulate", recording.path, "--record", again.path])
            #expect(rerecorded.status == 0)
            #expect(try String(contentsOf: again, encoding: .utf8) == String(contentsOf: recording, encoding: .utf8))
        }

        @Test("A recording of a scenario with a signed policy says where the documents were, and --check shows the first output they changed",
              arguments: scenarioNames().filter(scenarioUsesSignedPolicy))
        func signedPolicyIsNotReplayed(name: String) async throws {
            let recording = temporaryFile("\(name).policy-recording")
            defer { try? FileManager.default.removeItem(at: recording) }
            let scenario = scenarioDirectory.appendingPathComponent("\(name).scenario").path
            let simulated = try await runTool(["simulate", scenario, "--record", recording.path])
            #expect(simulated.status == 0)
            let text = try String(contentsOf: recording, encoding: .utf8)
            #expect(text.contains("# policy keys pinned (relaxation "))
            #expect(text.contains(": not replayed\n"))
            let replayed = try await runTool(["replay", recording.path, "--check"])
            #expect(replayed.status == 1)
            #expect(replayed.stderr.contains("recorded {"))
        }

        @Test("An edited output line makes --check exit 1, printing the recorded and the replayed line")
        func editedOutputFails() async throws {
            let recording = temporaryFile("edited.recording")
            defer { try? FileManager.default.removeItem(at: recording) }
            let scenario = scenarioDirectory.appendingPathComponent("rule05_terminate_countdown_ends_in_exit.scenario").path
            #expect(try await runTool(["simulate", scenario, "--record", recording.path]).status == 0)
            var lines = try String(contentsOf: recording, encoding: .utf8).components(separatedBy: "\n")
            let index = try #require(lines.firstIndex { $0.hasPrefix("#> ") && $0.contains("\"kind\":\"tick\"") })
            let original = lines[index]
            lines[index] = original.replacingOccurrences(of: "\"remaining\":", with: "\"remaining\":1")
            try lines.joined(separator: "\n").write(to: recording, atomically: true, encoding: .utf8)
            let result = try await runTool(["replay", recording.path, "--check"])
            #expect(result.status == 1)
            #expect(result.stderr == "\(recording.path):\(index + 1): recorded \(lines[index].dropFirst(3))\nreplayed \(original.dropFirst(3))\n")
            // Without --check the replay only prints its transcript.
            #expect(try await runTool(["replay", recording.path]).status == 0)
        }

        @Test("An output line whose time moved makes --check exit 1: the \"t\" of each output is compared too")
        func movedTimeFails() async throws {
            let recording = temporaryFile("moved.recording")
            defer { try? FileManager.default.removeItem(at: recording) }
            let scenario = scenarioDirectory.appendingPathComponent("rule05_terminate_countdown_ends_in_exit.scenario").path
            #expect(try await runTool(["simulate", scenario, "--record", recording.path]).status == 0)
            var lines = try String(contentsOf: recording, encoding: .utf8).components(separatedBy: "\n")
            let index = try #require(lines.firstIndex { $0.hasPrefix("#> ") && $0.contains("\"kind\":\"tick\"") })
            let original = lines[index]
            // Only the time changes: 1 becomes 11, and so on; every other field stays.
            lines[index] = original.replacingOccurrences(of: "{\"t\":", with: "{\"t\":1")
            #expect(lines[index] != original)
            try lines.joined(separator: "\n").write(to: recording, atomically: true, encoding: .utf8)
            let result = try await runTool(["replay", recording.path, "--check"])
            #expect(result.status == 1)
            #expect(result.stderr == "\(recording.path):\(index + 1): recorded \(lines[index].dropFirst(3))\nreplayed \(original.dropFirst(3))\n")
        }

        @Test("A recorded output the replay does not make, or one it makes that is not recorded, fails --check")
        func missingOrExtraOutputFails() async throws {
            let recording = temporaryFile("missing.recording")
            defer { try? FileManager.default.removeItem(at: recording) }
            let scenario = scenarioDirectory.appendingPathComponent("rule05_terminate_countdown_ends_in_exit.scenario").path
            #expect(try await runTool(["simulate", scenario, "--record", recording.path]).status == 0)
            let text = try String(contentsOf: recording, encoding: .utf8)
            let exitLine = try #require(text.components(separatedBy: "\n").first { $0.contains("\"kind\":\"exit\"") })
            try text.replacingOccurrences(of: exitLine + "\n", with: "").write(to: recording, atomically: true, encoding: .utf8)
            let dropped = try await runTool(["replay", recording.path, "--check"])
            #expect(dropped.status == 1)
            #expect(dropped.stderr.hasSuffix(": recorded (nothing)\nreplayed \(exitLine.dropFirst(3))\n"))
            try (text + "#> {\"t\":99,\"kind\":\"exit\",\"code\":0}\n").write(to: recording, atomically: true, encoding: .utf8)
            let extra = try await runTool(["replay", recording.path, "--check"])
            #expect(extra.status == 1)
            #expect(extra.stderr.hasSuffix(": recorded {\"t\":99,\"kind\":\"exit\",\"code\":0}\nreplayed (nothing)\n"))
        }

        @Test("Bad calls and changes lines are refused with the line and what is wrong", arguments: [
            ("0 calls A:ended\n", "line 1: unknown call state 'ended': expected ringing, dialing, connected, held"),
            ("0 calls A\n", "line 1: bad call 'A': 'calls' takes ID:STATE words (STATE: ringing, dialing, connected, held)"),
            ("0 changes\n", "line 1: 'changes' takes ID:STATE words (STATE: ringing, dialing, connected, held, ended); at least one"),
            ("0 calls A:ringing A:held\n", "line 1: call A appears twice in one 'calls' line"),
            ("0 calls A:conected\n", "line 1: unknown call state 'conected': did you mean connected?"),
            ("0 verdict answer 0 bank\n", "line 1: bad question '0': expected 1, 2, ... (the order the verifier was asked in)"),
            ("0 recording now\n", "line 1: unexpected 'now' after 'recording'; 'recording' takes no arguments"),
        ])
        func badListLines(scenario: String, message: String) async throws {
            let result = try await runTool(["simulate", "-"], input: scenario)
            #expect(result.status == 2)
            #expect(result.stdout == "")
            #expect(result.stderr == message + "\n")
        }

        @Test("A recording that cannot be written fails the command; replay needs one FILE")
        func usage() async throws {
            let bad = try await runTool(["simulate", "-", "--record", "/nonexistent/dir/x"], input: "0 wait\n")
            #expect(bad.status == 2)
            #expect(bad.stderr.contains("cannot record to /nonexistent/dir/x: No such file or directory"))
            #expect(try await runTool(["replay"]).status == 2)
            let help = try await runTool(["replay", "--help"])
            #expect(help.stdout.hasPrefix("usage: callmonitor replay FILE|- [--check] [--language CODE]\n"))
        }
    }
}

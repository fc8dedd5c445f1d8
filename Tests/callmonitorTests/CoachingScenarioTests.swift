// Issue 40 in the simulator: the coaching scenarios (rules 31 to 34) and what a recording of one
// holds. Recording and replaying coaching answers is not built yet, so a recording says where the
// coaching lines were, as comments, and the replay runs without a coaching source.

import Foundation
import Testing

@Suite("callmonitor: coaching scenarios (rules 31 to 34)")
struct CoachingScenarioTests {
    @Test("Rules 31 to 34 each have a scenario with its transcript")
    func coverage() {
        let names = scenarioNames().filter(scenarioUsesCoaching)
        for rule in 31...34 { #expect(names.contains { $0.hasPrefix("rule\(rule)_coaching_") }, "no coaching scenario for rule \(rule)") }
    }

    @Test("A recording of a coaching scenario writes its coaching lines as comments, not replayed",
          arguments: scenarioNames().filter(scenarioUsesCoaching))
    func recordingSaysNotReplayed(name: String) async throws {
        let recording = temporaryFile("\(name).coaching-recording")
        defer { try? FileManager.default.removeItem(at: recording) }
        let scenario = scenarioDirectory.appendingPathComponent("\(name).scenario").path
        #expect(try await runTool(["simulate", scenario, "--record", recording.path]).status == 0)
        let text = try String(contentsOf: recording, encoding: .utf8)
        #expect(text.contains("# coaching source app: not replayed\n"))
        #expect(text.contains("# coaching answer 1 "))
        // No coaching line the replay would run.
        #expect(!text.split(separator: "\n").contains { !$0.hasPrefix("#") && $0.split(separator: " ").dropFirst().first == "coaching" })
    }

    @Test("Bad coaching lines are refused with the line and what is expected", arguments: [
        ("0 coaching source maybe\n", "line 1: 'coaching' takes source app, source off, budget SECONDS or answer N LEVEL (unknown, medium, high or error)\n"),
        ("0 coaching answer 0 high\n", "line 1: bad question '0': expected 1, 2, ... (the order the coaching source was asked in)\n"),
        ("0 coaching answer 1 severe\n", "line 1: unknown coaching level 'severe': expected unknown, medium, high or error\n"),
        ("0 coaching budget soon\n", "line 1: bad seconds 'soon': expected seconds such as 5 or 0.5\n"),
    ])
    func badLines(input: String, message: String) async throws {
        let result = try await runTool(["simulate", "-"], input: input)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == message)
    }
}

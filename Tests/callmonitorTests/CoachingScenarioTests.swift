// Issue 40 in the simulator: the coaching scenarios (rules 31 to 34) and what a recording of one
// holds (rule 30): the coaching source, budget and policy, each question and report as output lines
// and each answer as the line that gives it again, so the replay asks and answers as the session did
// (ReplayCommandTests replays every coaching scenario with --check).

import Foundation
import Testing

@Suite("callmonitor: coaching scenarios (rules 31 to 34)")
struct CoachingScenarioTests {
    /// The scenario whose recording holds every kind of coaching line.
    static let recorded = "rule30_coaching_recorded_and_replayed"
    /// What a bad `coaching` line and a bad `coaching policy` line are told.
    static let usage = "'coaching' takes source app, source trustInsights, source off, budget SECONDS, policy medium RESPONSE high RESPONSE or answer N LEVEL (unknown, medium, high or error)"
    static let policyUsage = "'coaching policy' takes medium RESPONSE high RESPONSE (RESPONSE: off, evaluate or acknowledge SECONDS)"

    @Test("Rules 31 to 34 each have a scenario with its transcript")
    func coverage() {
        let names = scenarioNames().filter(scenarioUsesCoaching)
        for rule in 31...34 { #expect(names.contains { $0.hasPrefix("rule\(rule)_coaching_") }, "no coaching scenario for rule \(rule)") }
    }

    @Test("A recording of a coaching session writes the source, budget and policy, each question as asked, each answer as given and each report")
    func recordingHoldsQuestionsAndAnswers() async throws {
        let recording = temporaryFile("coaching-lines.recording")
        defer { try? FileManager.default.removeItem(at: recording) }
        let scenario = scenarioDirectory.appendingPathComponent("\(Self.recorded).scenario").path
        #expect(try await runTool(["simulate", scenario, "--record", recording.path]).status == 0)
        let lines = try String(contentsOf: recording, encoding: .utf8).split(separator: "\n").filter { $0.contains("coaching") }
        #expect(lines == [
            "0 coaching policy medium acknowledge 4 high acknowledge 8",
            "0 coaching budget 2",
            "0 coaching source trustInsights",
            #"#> {"t":0,"kind":"coachingAsk","question":1,"category":"payment","budgetEndsAt":2}"#,
            #"1 coaching answer 1 high evaluation "E-1" model "2026.1""#,
            #"#> {"t":1,"kind":"coachingReport","question":1,"status":"usedIncreasedFriction"}"#,
            #"#> {"t":2,"kind":"coachingAsk","question":2,"category":"account","budgetEndsAt":4}"#,
            #"2.5 coaching answer 2 medium evaluation "E-2""#,
            #"#> {"t":2.5,"kind":"coachingReport","question":2,"status":"usedUnchangedFriction"}"#,
            #"#> {"t":3,"kind":"coachingAsk","question":3,"category":"account","budgetEndsAt":5}"#,
            #"3.5 coaching answer 3 unknown model "2026.1""#,
            #"#> {"t":3.5,"kind":"coachingReport","question":3,"status":"usedUnchangedFriction"}"#,
            #"#> {"t":4,"kind":"coachingAsk","question":4,"category":"account","budgetEndsAt":6}"#,
            "4.5 coaching answer 4 error",
            #"#> {"t":4.5,"kind":"coachingReport","question":4,"status":"notUsedError"}"#,
            #"#> {"t":5,"kind":"coachingAsk","question":5,"category":"payment","budgetEndsAt":7}"#,
            // The budget's end is a `wait` (the replay's clock makes it), then the late answer.
            #"#> {"t":7,"kind":"coachingReport","question":5,"status":"notUsedError"}"#,
            "8 coaching answer 5 high",
            // The outcome's record holds the answers read while its event showed (issue 40), not
            // question 5's, which came after its budget.
            #"#> {"t":9,"kind":"outcome","ending":"acknowledged","flow":"acknowledge","startedAt":1,"lowestRemaining":0,"shownOn":"builtInDialog","captured":false,"verdict":"unknown","verdictAt":null,"coaching":"1 high usedIncreasedFriction,2 medium usedUnchangedFriction,3 unknown usedUnchangedFriction,4 unknown notUsedError"}"#,
            #"#> {"t":10,"kind":"coachingAsk","question":6,"category":"payment","budgetEndsAt":12}"#,
            #"#> {"t":11,"kind":"coachingReport","question":6,"status":"notUsedNotNeeded"}"#,
            "11.5 coaching answer 6 high",
            #"#> {"t":12,"kind":"coachingAsk","question":7,"category":"payment","budgetEndsAt":14}"#,
            "12.5 coaching source off",
            #"#> {"t":12.5,"kind":"coachingReport","question":7,"status":"notUsedError"}"#,
            "13 coaching source app",
            "13 coaching budget 5",
            #"#> {"t":14,"kind":"coachingAsk","question":8,"category":"account","budgetEndsAt":19}"#,
            #"#> {"t":17,"kind":"coachingReport","question":8,"status":"notUsedNotNeeded"}"#,
            #"#> {"t":17,"kind":"outcome","ending":"forceExit","flow":"terminate","startedAt":14,"lowestRemaining":0,"shownOn":"builtInDialog","captured":false,"verdict":"unknown","verdictAt":null,"coaching":""}"#,
        ])
        // Nothing of coaching is left as a comment the replay would skip.
        #expect(!lines.contains { $0.hasPrefix("# ") })
    }

    @Test("A recording whose answer line was altered fails replay --check at the first output the answer changed",
          arguments: [
            // A high answer made unknown: no warning, the answer changed nothing.
            (#"1 coaching answer 1 high evaluation "E-1" model "2026.1""#, "1 coaching answer 1 unknown", "present",
             #"{"t":1,"kind":"coachingReport","question":1,"status":"usedUnchangedFriction"}"#),
            // A failed answer made medium: read, and a stricter warning was already due.
            ("4.5 coaching answer 4 error", "4.5 coaching answer 4 medium", "coachingReport",
             #"{"t":4.5,"kind":"coachingReport","question":4,"status":"usedUnchangedFriction"}"#),
            // An answer given to another question, already answered: question 3 waits on.
            (#"3.5 coaching answer 3 unknown model "2026.1""#, "3.5 coaching answer 2 unknown", "coachingReport",
             #"{"t":4,"kind":"tick","remaining":5,"button":"hidden","surface":"builtInDialog"}"#),
          ])
    func alteredAnswerFailsCheck(original: String, altered: String, kind: String, replayed: String) async throws {
        let recording = temporaryFile("coaching-altered-\(original.prefix(3)).recording")
        defer { try? FileManager.default.removeItem(at: recording) }
        let scenario = scenarioDirectory.appendingPathComponent("\(Self.recorded).scenario").path
        #expect(try await runTool(["simulate", scenario, "--record", recording.path]).status == 0)
        var lines = try String(contentsOf: recording, encoding: .utf8).components(separatedBy: "\n")
        let answer = try #require(lines.firstIndex(of: original))
        lines[answer] = altered
        try lines.joined(separator: "\n").write(to: recording, atomically: true, encoding: .utf8)
        // The first output after the answer that the replay does not make.
        let first = try #require(lines.indices.first { $0 > answer && lines[$0].hasPrefix("#> ") && lines[$0].contains(#""kind":"\#(kind)""#) })
        let result = try await runTool(["replay", recording.path, "--check"])
        #expect(result.status == 1)
        #expect(result.stderr == "\(recording.path):\(first + 1): recorded \(lines[first].dropFirst(3))\nreplayed \(replayed)\n")
    }

    @Test("Bad coaching lines are refused with the line and what is expected", arguments: [
        ("0 coaching source maybe\n", "line 1: \(CoachingScenarioTests.usage)\n"),
        ("0 coaching answer 1\n", "line 1: \(CoachingScenarioTests.usage)\n"),
        ("0 coaching answer 1 high evaluation\n", "line 1: 'coaching answer N LEVEL' takes evaluation \"ID\" and model \"VERSION\" after the level, each at most once\n"),
        ("0 coaching answer 1 high model a model b\n", "line 1: 'coaching answer N LEVEL' takes evaluation \"ID\" and model \"VERSION\" after the level, each at most once\n"),
        ("0 coaching answer 1 high score 9\n", "line 1: 'coaching answer N LEVEL' takes evaluation \"ID\" and model \"VERSION\" after the level, each at most once\n"),
        ("0 coaching answer 1 error model a\n", "line 1: a failed answer ('error') has no evaluation or model\n"),
        ("0 coaching policy medium off\n", "line 1: \(CoachingScenarioTests.policyUsage)\n"),
        ("0 coaching policy high off medium off\n", "line 1: \(CoachingScenarioTests.policyUsage)\n"),
        ("0 coaching policy medium off high off extra\n", "line 1: \(CoachingScenarioTests.policyUsage)\n"),
        ("0 coaching policy medium acknowledge high off\n", "line 1: bad number 'high': expected a whole number of seconds\n"),
        ("0 coaching policy medium acknowledge\n", "line 1: \(CoachingScenarioTests.policyUsage)\n"),
        ("0 coaching policy medium warn high off\n", "line 1: unknown coaching response 'warn': expected off, evaluate or acknowledge SECONDS\n"),
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

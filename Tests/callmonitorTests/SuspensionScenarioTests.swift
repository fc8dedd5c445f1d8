// Issue 37: the scenario words for a suspension and the order a resumed process releases its
// work in, parsed, refused where no device could do it, and run in both orders.

import Testing
import hnb
@testable import ScenarioLanguage
import hnbTesting
@testable import callmonitor

@MainActor
@Suite("callmonitor simulate: suspend and resume (issue 37)")
struct SuspensionScenarioTests {
    @Test("suspend and resume parse; 'resume ID' with one word is still a held call coming off hold")
    func parses() throws {
        let steps = try ScenarioParser.parse("0 background\n1 suspend\n2 resume calls foreground timers\n3 resume A")
        #expect(steps.map(\.command) == [.background, .suspend, .resumeProcess([.calls, .foreground, .timers]), .resume("A")])
    }

    @Test("A suspension no device could make is refused with the line and what to write instead", arguments: [
        ("0 suspend", "line 1: 'suspend' needs the app in the background (iOS suspends only a background app): write 'background' first"),
        ("0 background\n1 suspend\n2 tap", "line 3: the app is suspended (line 2): only call changes, 'clock' and 'wait' can happen until 'resume timers calls'"),
        ("0 background\n1 suspend\n2 foreground", "line 3: the app is suspended (line 2): write the return in the resume, e.g. 'resume timers foreground calls'"),
        ("0 background\n1 suspend\n2 suspend", "line 3: already suspended (line 2)"),
        ("0 resume timers calls", "line 1: 'resume timers calls' without a 'suspend' before it"),
        ("0 background\n1 suspend\n2 resume timers foreground", "line 3: 'resume' of a suspended process names both timers and calls, in the order they run: resume timers calls [foreground]"),
        ("0 background\n1 suspend\n2 resume timers calls timers", "line 3: 'timers' appears twice in one 'resume'"),
        ("0 background\n1 suspend\n2 resume timer calls", "line 3: unknown release 'timer': did you mean timers?"),
        ("0 recording\n0 background\n1 suspend", "line 3: 'suspend' has no place in a recording: its lines already say the order things ran in after a suspension"),
    ])
    func refuses(text: String, message: String) {
        #expect(throws: (any Error).self) { try ScenarioParser.parse(text) }
        do {
            _ = try ScenarioParser.parse(text)
        } catch let error as ScenarioError {
            #expect("line \(error.line): \(error.message)" == message)
        } catch {
            Issue.record("not a ScenarioError: \(error)")
        }
    }

    /// The kinds and instants of a run's transcript lines after the countdown's first seconds.
    private func run(_ text: String) throws -> [String] {
        let simulation = Simulation(strings: .english)
        defer { simulation.stopMonitoring() }
        let lines = try simulation.run(try ScenarioParser.parse(text))
        return lines.compactMap { line -> String? in
            guard let t = line.firstMatch(of: /"t":([0-9.]+),"kind":"([a-z]+)"/) else { return nil }
            return "\(t.1) \(t.2)"
        }.filter { !$0.hasPrefix("1 ") && !$0.hasPrefix("2 ") && !$0.hasPrefix("3 ") }
    }

    private let story = "0 start terminate 10\n1 incoming A\n3 background\n4 suspend\n8 end A\n"

    @Test("While suspended nothing runs: the wake-ups and the call's end wait for the resume, which releases them in the order written")
    func ordersAreKept() throws {
        #expect(try run(story + "30 resume timers calls") == [
            "4 alert", "30 alert", "30 event", "30 dismiss", "30 outcome",
        ])
        #expect(try run(story + "30 resume calls timers") == ["4 alert", "30 event", "30 dismiss", "30 outcome"])
        // Still suspended at the end: nothing after 4 ever ran.
        #expect(try run(story + "30 wait") == ["4 alert"])
    }
}

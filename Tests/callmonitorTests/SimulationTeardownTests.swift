// A simulation lets go of everything it made once its scenario is over: a process that runs many
// (the scenario fuzz target) must not keep the graph of any of them. Every scenario input a fuzzer
// ever found (Fuzz/Regressions/scenario) runs here too, under `swift test`.

import Foundation
import Testing
import hnb
@testable import ScenarioLanguage
import hnbTesting
@testable import callmonitor

@Suite("A finished simulation leaves nothing alive")
@MainActor
struct SimulationTeardownTests {
    nonisolated static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions/scenario")

    nonisolated static var regressionFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: regressions.path)) ?? []
        return names.filter { $0.hasSuffix(".scenario") }.sorted()
    }

    /// Runs `text` as the fuzz target does (echo on, then the teardown) and reports which of the
    /// simulation's objects are still alive once it is dropped.
    static func survivors(of text: String) throws -> [String] {
        let steps = try ScenarioParser.parse(text)
        weak var scheduler: ManualScheduler?
        weak var verifier: ScriptedCallVerifier?
        weak var monitor: CallMonitor?
        do {
            let simulation = Simulation(strings: .english, echo: true)
            scheduler = simulation.scheduler
            verifier = simulation.verifier
            monitor = simulation.monitor
            _ = try? simulation.run(steps)
            simulation.stopMonitoring()
        }
        return [scheduler.map { _ in "scheduler" }, verifier.map { _ in "verifier" }, monitor.map { _ in "monitor" }].compactMap { $0 }
    }

    @Test("A verifier's answer still due when the scenario ends keeps nothing alive (the scenario fuzz target's leak)")
    func answerDueAfterTheEnd() throws {
        // Asked at 1 when the event begins; the answer is due at 5, after the last line. The
        // scheduler kept the answer, the answer kept the verifier and the verifier the scheduler.
        let text = "0 verdict late 4\n0 start terminate 9\n1 incoming A\n1 connect A\n2 wait\n"
        let alive = try Self.survivors(of: text)
        #expect(alive == [])
    }

    @Test("Rule 18: a scenario that ends with protections open, a countdown running and a call live leaves no monitor alive once torn down")
    func openProtectionsAtTheEnd() throws {
        let steps = try ScenarioParser.parse("""
            0 start acknowledge 2
            0 protect transfer terminate 5
            0 protect approval acknowledge 9
            1 incoming A
            2 wait
            """)
        weak var monitor: CallMonitor?
        // In a function of its own, so that the simulation and everything it holds are released
        // when it returns.
        func runAndTearDown() throws {
            let simulation = Simulation(strings: .english)
            #expect(try simulation.run(steps) == [
                #"{"t":1,"kind":"event","event":"ringing"}"#, Self.terminateAlert(at: 1, remaining: 5), Self.terminateAlert(at: 2, remaining: 4),
            ])
            monitor = simulation.monitor
            #expect(simulation.monitor.isMonitoring)
            simulation.stopMonitoring()
            #expect(!simulation.monitor.isMonitoring)
        }
        try runAndTearDown()
        // Rule 18: an open protection keeps the monitor monitoring, and a monitoring monitor keeps
        // itself alive; the teardown must end them all.
        #expect(monitor == nil, "the monitor outlived its simulation: monitoring \(monitor?.isMonitoring == true)")
    }

    @Test("Rules 10 and 25 (issue 26): a scenario that ends with a call live (its session would be followed after the stop) or the capture escalation set (it monitors while set) leaves nothing alive once torn down", arguments: [
        "0 start terminate 30\n0 incoming A\n1 wait",
        "0 capture escalate terminate 30\n0 incoming A\n1 wait",
        "0 protect P acknowledge 5\n0 incoming A\n1 unprotect P\n2 wait",
        "0 capture escalate acknowledge 5\n0 protect P terminate 30\n0 start observe\n0 incoming A\n0 connect A\n1 stop\n2 wait",
    ])
    func liveCallOrEscalationAtTheEnd(scenario: String) throws {
        let alive = try Self.survivors(of: scenario)
        #expect(alive == [])
    }

    /// The alert line of the built-in English terminate dialog with `remaining` seconds, as `simulate` writes it.
    private static func terminateAlert(at t: Int, remaining: Int) -> String {
        #"{"t":\#(t),"kind":"alert","flow":"terminate","title":"Security Policy","message":"Application access is disabled during active calls for your protection.","countdown":"App will close in \#(remaining) seconds.","button":"Close App","remaining":\#(remaining),"verdict":null,"context":null}"#
    }

    @Test("Every scenario input a fuzzer found runs and leaves nothing alive", arguments: regressionFiles)
    func regression(name: String) throws {
        let text = try String(contentsOf: Self.regressions.appendingPathComponent(name), encoding: .utf8)
        let alive = try Self.survivors(of: text)
        #expect(alive == [])
    }

    @Test("The regression folder holds the scenario fuzz target's findings")
    func regressionFolder() {
        #expect(Self.regressionFiles.contains("leak-answer-due-after-the-end.scenario"))
        #expect(Self.regressionFiles.count >= 3)
    }
}

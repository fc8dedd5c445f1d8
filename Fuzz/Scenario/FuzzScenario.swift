// Fuzz target: scenario files given to `callmonitor simulate`. Every input is parsed; one that
// parses and spans at most an hour of virtual time (so that a run takes milliseconds; a longer
// one only repeats countdown ticks) is also run through a real monitor, with the echo on, as
// `callmonitor simulate --echo` would. Built by scripts/fuzz, with the scenario language
// (Sources/ScenarioLanguage) and the tool's Simulation.swift compiled into module hnb.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenarioOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    let text = String(decoding: data, as: UTF8.self)
    let steps: [ScenarioStep]
    do { steps = try ScenarioParser.parse(text) } catch { return 0 }
    guard steps.count <= 400, (steps.last?.time ?? 0) <= 3_600_000_000_000 else { return 0 }
    // libFuzzer calls in on the process's main thread, where the monitor expects to run.
    MainActor.assumeIsolated {
        let simulation = Simulation(strings: .english, echo: true)
        _ = try? simulation.run(steps)
        // A monitor keeps itself alive while it monitors, by design; stop it so it can go.
        simulation.stopMonitoring()
    }
    return 0
}

// The simulator's side of `calls` and `changes` (their words are the scenario language's,
// Sources/ScenarioLanguage/CallLists.swift): handing the listed calls to the simulated source.

import ScenarioLanguage
import hnb
import hnbTesting

extension Simulation {
    /// Delivers a `calls` or `changes` line on `calls`; `false` for any other command.
    static func applyListCommand(_ command: ScenarioCommand, to calls: SimulatedCallSource) -> Bool {
        switch command {
        case .callList(let listed): calls.deliverList(listed.map { $0.snapshot(outgoing: calls.isOutgoing($0.id)) })
        case .callChanges(let listed): calls.deliverChanges(listed.map { $0.snapshot(outgoing: calls.isOutgoing($0.id)) })
        default: return false
        }
        return true
    }
}

// How a simulation refuses a scenario line that names a protection wrongly (Simulation.swift).

/// A scenario line that names a protection wrongly.
struct SimulationError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

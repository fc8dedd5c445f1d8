// The core's one seam for what watches its steps (issue 39): the recorder, a product of its own
// (hnbRecording), registers here to see every input the engine handled and the actions it
// returned. hnb holds no recorder; with no observer set, a step reads nothing extra.

/// Sees every step of a monitor's core, on the main actor, before its actions are carried out.
/// Nothing it does changes, delays or reorders a decision: it is told, never asked.
@MainActor
package protocol MonitorStepObserver: AnyObject, Sendable {
    /// The engine handled `input` at `now` and returned `actions`.
    ///
    /// - Parameters:
    ///   - sensed: What the engine read of the app and capture state in this step, if it did.
    ///   - shownToken: The token of the presentation on screen before the step, if any.
    func step(
        _ input: MonitorEngine.Input, now: Int64, sensed: MonitorEngine.Sensors?, shownToken: UInt64?, actions: [MonitorEngine.Action]
    )

    /// The next action is the force exit, whose live terminator does not return.
    func beforeExit()

    /// A tap reached no monitor code at `now` (the simulator's, with nothing to press);
    /// `presentationShown`: whether the engine has a presentation on screen.
    func tapWithNothingToPress(now: Int64, presentationShown: Bool)
}

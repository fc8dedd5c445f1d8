// The engine's vocabulary: the policy it enforces, the actions it returns and the names of what
// those carry (its inputs, the commands, are in MonitorEngine+Input.swift). The rules are in
// MonitorEngine.swift and its extensions; nothing here decides anything.

/// The policy a monitor enforces, with its seconds already clamped.
package struct MonitorPolicy: Equatable, Sendable {
    package let flow: CallMonitorFlow
    package let seconds: Int32

    /// Clamps as the reference says: at least 1 for terminate, at least 0 for acknowledge.
    /// Every `Int32` is accepted, so no input can make the policy invalid.
    package init(flow: CallMonitorFlow, requestedSeconds: Int32) {
        self.flow = flow
        switch flow {
        case .terminate: seconds = max(1, requestedSeconds)
        case .acknowledge: seconds = max(0, requestedSeconds)
        }
    }
}

/// The aggregate of all live calls (rule 1): the public ``CallMonitorCallState``, one model for
/// the engine and the risk getters.
typealias AggregateCallState = CallMonitorCallState

extension CallMonitorCallState {
    /// The callback event that entering this state reports.
    var event: CallEvent {
        switch self {
        case .idle: .ended
        case .ringing: .ringing
        case .started: .started
        }
    }
}

/// The facade that owns the core, held while the sources run so that dropping the last reference
/// to a monitoring monitor cannot stop the policy (a released monitor would go silent with a call
/// live). Equal by identity in debug builds, where the tests compare actions; the engine never
/// looks inside: it only hands it from the input that starts monitoring to the `startSources`
/// action it returns (`nil` in engine tests, which have no facade).
package struct MonitorOwner: Sendable {
    let object: any AnyObject & Sendable
}

extension MonitorEngine {
    package enum Action: Sendable {
        /// Tell the callback.
        case emit(CallEvent)
        /// Show the security UI on `surface`; the user action must carry `token`. `button` is the
        /// event's button at this moment (rules 5, 6 and 17), for the built-in dialog to draw as it
        /// is; `verdict` is the event's verdict so far (rule 24), for a surface that takes the
        /// event over to show it, and `tellsVerdict` whether a delegate is told it too (rule 24: a
        /// known verdict, on a delegate); `context` what the event's screen is about (rule 29). A
        /// first presentation and a hand-over look the same.
        case present(
            CallMonitorFlow, remaining: Int32, token: UInt64, button: Button, verdict: CallMonitorCallVerdict, tellsVerdict: Bool,
            context: CallMonitorContext? = nil, on: Surface
        )
        /// Update the countdown on `surface`, where the event is shown, with the button it has now.
        case tick(remaining: Int32, button: Button, on: Surface)
        /// Remove the security UI from `surface`, where the event was shown.
        case dismiss(on: Surface)
        /// Wake the engine at this instant (replaces any pending wake-up).
        case schedule(at: Int64)
        /// Drop the pending wake-up.
        case cancelWakeUp
        /// Start the app-state and capture sources, and the call source if `callDetection`; hold
        /// `owner` until `stopSources` (a released monitor must not go silent with a call live).
        case startSources(callDetection: Bool, owner: MonitorOwner?)
        /// Start the call source alone (detection switched on while monitoring, rule 22).
        case startCallSource
        /// Stop the call source alone; later deliveries from it are ignored (rule 22).
        case stopCallSource
        /// Ask the running call source to read its complete list again now (issue 37: a due exit
        /// waits for a list read after the last resume). A source that can (CallKit, the
        /// simulated one) delivers it before anything else queued on the main thread; one that
        /// cannot does nothing, and the exit's bound (``MonitorEngine/freshListGrace``) decides.
        case refreshCalls
        /// Stop the app-state and capture sources, and the call source if it runs (`callSource`:
        /// detection is on, rule 22); later deliveries are ignored; let the owner go after this step.
        case stopSources(callSource: Bool)
        /// Force-exit the app.
        case exit(code: Int32)
        /// A security event is over (rule 16): its record, complete, to hand to the outcome handler
        /// and the streams; comes after its UI was dismissed and, for the force exit, before `exit`.
        /// Indirect: the outcome holds `Date`s, resilient on Apple platforms, which would otherwise
        /// make every action's layout a run-time one; an outcome is rare, so its box costs nothing.
        indirect case outcome(CallMonitorOutcome)
        /// Start the watchdog that ends the app with `code` if the app code before the force exit
        /// (the outcome handler, the before-exit hook) overruns its budget; `exit` disarms it.
        case armExitWatchdog(code: Int32)
        /// The button of the event on `surface` changed without a tick: rule 17 now refuses the
        /// acknowledgement because the screen is captured, or accepts it again.
        case button(Button, on: Surface)
        /// Ask the verifier (question `request`) and wake the engine with
        /// `verdictBudgetExpired(request:)` at `budgetEndsAt`; replaces any question in flight
        /// (rule 23). Touches no other timer.
        case ask(request: UInt64, budgetEndsAt: Int64)
        /// Drop the budget timer of the question in flight (answered, or its event is over).
        case cancelAsk
        /// The event on screen has this verdict now (rule 24): the dialog's line, the verdict
        /// delegate, on `surface`, where the event is shown. Changes nothing else.
        case verdict(CallMonitorCallVerdict, on: Surface)
        /// The event on `surface` shows this context now (rule 29): the dialog's kind line and
        /// detail, the context delegate. Changes nothing else.
        case context(CallMonitorContext?, on: Surface)
        /// Give the part that uses it what the app handed over with a setting (its delegate, a
        /// closure, its verifier, the dialog's texts); always first among the step's actions, so
        /// the rest of the step already uses it.
        case install(AppObject)
        /// Wake the engine with `policyWake` at this instant, for the remote policy's next
        /// switch (rule 28); replaces the pending one. Touches no other timer.
        case schedulePolicyWake(at: Int64)
        /// Drop the remote policy's wake-up.
        case cancelPolicyWake
        /// Write the remote policy's record (rule 27).
        case persistPolicy(PolicyRecord)
        /// A document event (rules 26 to 28): the app's result, the transcript's line.
        case policy(PolicyEvent)
    }

    /// How a security event ended (rule 16): the public ``CallMonitorOutcomeEnding``. A hand-over
    /// to another surface is not an end.
    package typealias Ending = CallMonitorOutcomeEnding
    /// Where an event is drawn: a delegate or the built-in dialog.
    package typealias Surface = CallMonitorOutcome.Surface
    /// One presentation of an event (rule 16's record of hand-overs).
    package typealias Presentation = CallMonitorOutcome.Presentation
}

#if DEBUG
// Equality that only the tests use, left out of release builds (CONTRIBUTING, "Binary size").
extension MonitorOwner: Equatable {
    package static func == (lhs: MonitorOwner, rhs: MonitorOwner) -> Bool { lhs.object === rhs.object }
}
extension MonitorEngine.Action: Equatable {}
#endif

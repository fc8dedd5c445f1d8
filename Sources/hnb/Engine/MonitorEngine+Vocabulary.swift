// The engine's vocabulary: the policy it enforces, the actions it returns and the records of an
// event that those carry (its inputs, the commands, are in MonitorEngine+Input.swift). The rules
// are in MonitorEngine.swift and its extensions; nothing here decides anything.

/// The policy a monitor enforces, with its seconds already clamped.
struct MonitorPolicy: Equatable, Sendable {
    let flow: CallMonitorFlow
    let seconds: Int32

    /// Clamps as the reference says: at least 1 for terminate, at least 0 for acknowledge.
    /// Every `Int32` is accepted, so no input can make the policy invalid.
    init(flow: CallMonitorFlow, requestedSeconds: Int32) {
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
/// live). Equal by identity; the engine never looks inside: it only hands it from the input that
/// starts monitoring to the `startSources` action it returns (`nil` in engine tests, which have
/// no facade).
struct MonitorOwner: Equatable, Sendable {
    let object: any AnyObject & Sendable

    static func == (lhs: MonitorOwner, rhs: MonitorOwner) -> Bool { lhs.object === rhs.object }
}

extension MonitorEngine {
    enum Action: Equatable, Sendable {
        /// Tell the callback.
        case emit(CallEvent)
        /// Show the security UI on `surface`; the user action must carry `token`. `refused` is
        /// whether the acknowledgement is refused at this moment (rule 17), for the built-in
        /// dialog to say so; `verdict` is the event's verdict so far (rule 24), for a surface that
        /// takes the event over to show it, and `tellsVerdict` whether a delegate is told it too
        /// (rule 24: a known verdict, on a delegate). `beginsEvent`: the event's first
        /// presentation (its wall-clock start, rule 16), not a hand-over.
        case present(
            CallMonitorFlow, remaining: Int32, token: UInt64, refused: Bool, verdict: CallMonitorCallVerdict, tellsVerdict: Bool,
            beginsEvent: Bool, on: Surface
        )
        /// Update the countdown on `surface`, where the event is shown.
        case tick(remaining: Int32, on: Surface)
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
        /// Stop the app-state and capture sources, and the call source if it runs (`callSource`:
        /// detection is on, rule 22); later deliveries are ignored; let the owner go after this step.
        case stopSources(callSource: Bool)
        /// Force-exit the app.
        case exit(code: Int32)
        /// A security event is over (rule 16); comes after its UI was dismissed and, for the force
        /// exit, before `exit`.
        case outcome(EndedEvent)
        /// Start the watchdog that ends the app with `code` if the app code before the force exit
        /// (the outcome handler, the before-exit hook) overruns its budget; `exit` disarms it.
        case armExitWatchdog(code: Int32)
        /// The shown acknowledge event's action is now refused (`true`) because the screen is
        /// captured, or accepted again (`false`) (rule 17).
        case acknowledgementRefused(Bool)
        /// Ask the verifier (question `request`) and wake the engine with
        /// `verdictBudgetExpired(request:)` at `budgetEndsAt`; replaces any question in flight
        /// (rule 23). Touches no other timer.
        case ask(request: UInt64, budgetEndsAt: Int64)
        /// Drop the budget timer of the question in flight (answered, or its event is over).
        case cancelAsk
        /// The event on screen has this verdict now (rule 24): the dialog's line, the verdict
        /// delegate, on `surface`, where the event is shown. Changes nothing else.
        case verdict(CallMonitorCallVerdict, on: Surface)
        /// Give the part that uses it what the app handed over with a setting (its delegate, a
        /// closure, its verifier, the dialog's texts); always first among the step's actions, so
        /// the rest of the step already uses it.
        case install(AppObject)
    }

    /// How a security event ended (rule 16): the public ``CallMonitorOutcomeEnding``. A hand-over
    /// to another surface is not an end.
    typealias Ending = CallMonitorOutcomeEnding
    /// Where an event is drawn: a delegate or the built-in dialog.
    typealias Surface = CallMonitorOutcome.Surface
    /// One presentation of an event (rule 16's record of hand-overs).
    typealias Presentation = CallMonitorOutcome.Presentation

    /// What the engine knows of a security event that is over.
    struct EndedEvent: Equatable, Sendable {
        let ending: Ending
        let flow: CallMonitorFlow
        /// The countdown's length in seconds.
        let total: Int32
        let startedAt: Int64
        let endedAt: Int64
        /// The last (lowest) value the UI was given.
        let lowestRemaining: Int32
        /// Whether the screen was captured at any moment of the event.
        let wasScreenCaptured: Bool
        /// Every presentation in order: the first, then one per hand-over (rule 13).
        let presentations: [Presentation]
        /// The event's verdict and when it was recorded (rule 23); `nil`: none was.
        var verdict: CallMonitorCallVerdict = .unknown
        var verdictAt: Int64?
    }

    /// A security event on screen.
    struct Event: Equatable, Sendable {
        let flow: CallMonitorFlow
        /// The countdown's length in seconds.
        let total: Int32
        /// When the event began.
        let startedAt: Int64
        /// Where the countdown counts from: tick k is due at `origin + k s`. `startedAt`, except
        /// for a terminate event that inherits an earlier deadline of its session (rule 21).
        var origin: Int64
        /// The last value the UI was given.
        var remaining: Int32
        /// Identifies the current presentation; a user action with another token is stale.
        var token: UInt64
        /// Whether the screen was captured at any moment since the event began.
        var captured: Bool
    }
}

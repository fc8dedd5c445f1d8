// The engine's vocabulary: the policy it enforces, the inputs it takes, the actions it returns
// and the records of an event that those carry. The rules are in MonitorEngine.swift and its
// extensions; nothing here decides anything.

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
    enum Input: Equatable, Sendable {
        /// `startMonitoring(...)`, with the app state read at that moment; `owner` is held while
        /// monitoring (handed on in `startSources`).
        case start(MonitorPolicy, isForeground: Bool, owner: MonitorOwner? = nil)
        /// `stopMonitoring()`.
        case stop
        /// A batch of call snapshots from the call source: changes, or the complete list.
        case calls(CallBatch)
        /// The app entered (`true`) or left (`false`) the foreground.
        case appState(isForeground: Bool)
        /// A scheduled wake-up fired.
        case wake
        /// The user's primary action, for the presentation identified by the token.
        case userAction(token: UInt64)
        /// The app set the delegate (its identity) or cleared it (`nil`), or the delegate turned out
        /// released (`nil`). Rule 13: the same delegate again changes nothing.
        case delegateChanged(to: ObjectIdentifier?)
        /// The screen started (`true`) or stopped (`false`) being captured: recorded, mirrored or
        /// shared. Recorded in every phase, so a start knows the state it starts in.
        case screenCapture(isCaptured: Bool)
        /// Turns the opt-in capture rule (rule 17) on or off.
        case refusesAcknowledgementWhileScreenCaptured(Bool)
        /// `startMonitoring()`: the app-wide policy "observe" (rule 20), with the app state read
        /// at that moment.
        case observe(isForeground: Bool, owner: MonitorOwner? = nil)
        /// A protection began (rule 18); `id` is unique to it for the monitor's life.
        case beginProtection(id: UInt64, MonitorPolicy, isForeground: Bool, owner: MonitorOwner? = nil)
        /// A protection ended (rule 18); an unknown or already ended `id` changes nothing.
        case endProtection(id: UInt64)
        /// The app names a call of its own (rule 19).
        case exempt(CallID)
        /// The app takes a call's exemption back (rule 19).
        case removeExemption(CallID)
        /// Call detection switched on or off (rule 22); takes effect at once while monitoring.
        case callDetection(Bool)
        /// The app set (`true`) or removed (`false`) its call verifier (rule 23).
        case verifier(isSet: Bool)
        /// The verifier's budget, in nanoseconds (rule 23); applies from the next question.
        case verdictBudget(Int64)
        /// The verifier answered question `request` (rule 23); stale or repeated answers are ignored.
        case verdictArrived(request: UInt64, CallMonitorCallVerdict)
        /// The budget of question `request` ran out (rule 23).
        case verdictBudgetExpired(request: UInt64)
        /// The policy that guards while the screen is captured during a call (rule 25), or `nil`
        /// for none; replaces the one set before. Like a protection it monitors while set, so it
        /// carries the app state read at that moment, and `owner` as for `start`.
        case screenCaptureEscalation(MonitorPolicy?, isForeground: Bool, owner: MonitorOwner? = nil)
        /// The app set (`true`) or removed (`false`) its outcome handler: app code that runs before
        /// a force exit, so the exit watchdog starts before it (rule 16).
        case outcomeHandler(isSet: Bool)
        /// The app set (`true`) or removed (`false`) its before-exit hook.
        case beforeForceExit(isSet: Bool)
    }

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

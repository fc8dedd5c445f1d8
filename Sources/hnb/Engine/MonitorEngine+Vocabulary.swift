// The engine's vocabulary: the policy it enforces, the actions it returns and the names of what
// those carry (its inputs, the commands, are in MonitorEngine+Input.swift). The rules are in
// MonitorEngine.swift and its extensions; nothing here decides anything.

import Foundation

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

/// A requirement that can only ask for an acknowledge warning (rules 32 and 33, issue 51): it has
/// no flow, so nothing made from it counts down to an exit. A coaching answer adds one of these to
/// its protection, and the coaching warning, which shows with no call live, is made from one only:
/// promise B (the app never exits without a live call) holds for it by its type, not by a test of
/// a flow that a later change could drop.
struct AcknowledgeRequirement: Equatable, Sendable {
    /// Seconds before the Acknowledge button appears, at least 0 (rule 6's clamp).
    let seconds: Int32

    init(requestedSeconds: Int32) { seconds = max(0, requestedSeconds) }

    /// The acknowledge policy it asks for, to join the others of rule 18.
    var policy: MonitorPolicy { MonitorPolicy(flow: .acknowledge, requestedSeconds: seconds) }

    /// The stricter of two, the longer delay (rule 18's order for acknowledge policies); `nil`
    /// stands for none.
    static func strictest(_ a: Self?, _ b: Self?) -> Self? {
        guard let a else { return b }
        guard let b else { return a }
        return a.seconds >= b.seconds ? a : b
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
        /// Show the event's whole scene (``Scene``): a first presentation, a hand-over, a tick, a
        /// change of button, verdict, context or texts. Every field is the event as it is now,
        /// so a surface draws or tells it from this value alone and keeps no copy of the event;
        /// `change` says what changed, for the surfaces whose interface is told one change at a
        /// time (the delegate's methods, the recording's lines).
        case scene(Scene)
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
        /// Ask the verifier (question `request`) and wake the engine with
        /// `verdictBudgetExpired(request:)` at `budgetEndsAt`; replaces any question in flight
        /// (rule 23). Touches no other timer.
        case ask(request: UInt64, budgetEndsAt: Int64)
        /// Drop the budget timer of the question in flight (answered, or its event is over).
        case cancelAsk
        /// Ask the coaching source `question` (rule 31) and wake the engine with
        /// `coachingBudgetExpired(request: question.id)` at `budgetEndsAt`. Touches no other timer.
        case askCoaching(CallMonitor.CoachingQuestion, budgetEndsAt: Int64)
        /// Question `request` is decided (rule 33): drop its budget timer and hand `status` to the
        /// source that was asked, once.
        case reportCoaching(request: UInt64, CallMonitor.CoachingConsumption)
        /// Question `request`'s answer is in the coaching record of the event on screen, whose
        /// outcome's id is `outcome` (issue 40, "Evidence"). Comes just before the question's
        /// `reportCoaching`, which then names that outcome to the source: the Trust Insights
        /// evidence carries it. A question without one belongs to no outcome.
        case coachingInOutcome(request: UInt64, outcome: UInt64)
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

    /// What one step gives the core: the actions to carry out, and what it publishes and hands
    /// out after them, so that the core never reads the engine back (issue 39).
    struct Step: Sendable {
        /// The actions, in order.
        var actions: [Action]
        /// The risk signals as of the step's end, to publish.
        var signals: RiskSnapshot
        /// The token of the presentation on screen after the step, `nil` when none is: what a
        /// user action handed out now must carry (``CallMonitor/sendableUserAction()``), and
        /// whether a tap with nothing to press came while one was shown.
        var shownToken: UInt64?
    }

    /// Applies `input` as ``handle(_:now:wallClock:sensors:)`` does and returns the step's
    /// actions with the signals and the shown presentation after them (read in place: the
    /// core keeps the engine in a class property, and a getter would copy it whole every step).
    mutating func step(_ input: Input, now: Int64, wallClock: Date, sensors: () -> Sensors) -> Step {
        let actions = handle(input, now: now, wallClock: wallClock, sensors: sensors)
        let after = signalsAndShownToken
        return Step(actions: actions, signals: after.signals, shownToken: after.shownToken)
    }

    /// The whole scene of the event on screen, as the engine emits it each time it changes: what
    /// the built-in dialog draws and a delegate is told, with nothing left for a surface to
    /// remember. The one value behind every drawing of an event (rules 5, 6, 13, 17, 24 and 29).
    package struct Scene: Sendable {
        /// What changed since the scene before it, for a surface told one change at a time.
        package enum Change: Sendable {
            /// The event is presented on `surface`: its first presentation or a hand-over (rule
            /// 13). `tellsVerdict`: a delegate is told the known verdict too (rule 24).
            case present(tellsVerdict: Bool)
            /// The countdown went down (rules 5 and 6), with the button it has now.
            case tick
            /// The button changed without a tick: rule 17 now refuses the acknowledgement because
            /// the screen is captured, or accepts it again.
            case button
            /// A verdict was recorded (rule 24), which may be the one shown before (`previous`):
            /// a delegate hears every recording, the dialog redraws only a line that changed.
            case verdict(previous: CallMonitorCallVerdict)
            /// The context shown changed (rule 29).
            case context
            /// The coaching level the event's line says changed (rule 34): an answer read while the
            /// event was shown, or a protection that ended. A redraw only, like ``context``.
            case coachingLevel
            /// The built-in dialog's texts were switched (a language): it draws the same scene
            /// in them. Only emitted for an event on the built-in dialog.
            case texts
        }

        /// What changed.
        package var change: Change
        package var flow: CallMonitorFlow
        /// The countdown value shown.
        package var remaining: Int32
        /// The token the user action of this presentation carries; another one is stale.
        package var token: UInt64
        /// The button, as decided (rules 5, 6 and 17).
        package var button: Button
        /// The event's verdict so far (rule 24).
        package var verdict: CallMonitorCallVerdict
        /// What the event's screen is about (rule 29): the dialog's kind line and detail.
        package var context: CallMonitorContext?
        /// Where the event is shown.
        package var surface: Surface
        /// Rule 32: the event is a coaching warning (an acknowledge event with no call), so the
        /// built-in dialog must not say that a call is live. Carried in the scene because a surface
        /// keeps no copy of the event.
        package var isCoachingWarning: Bool
        /// Rule 34: the coaching level the dialog's line says, the highest read with a warning for
        /// the open protections; `nil`: no line (no answer, `unknown`, or a policy of `off` or
        /// `evaluate` for its level).
        package var coachingLevel: CallMonitor.CoachingLevel?

        package init(
            _ change: Change, flow: CallMonitorFlow, remaining: Int32, token: UInt64, button: Button, verdict: CallMonitorCallVerdict,
            context: CallMonitorContext?, on surface: Surface, isCoachingWarning: Bool = false, coachingLevel: CallMonitor.CoachingLevel? = nil
        ) {
            self.coachingLevel = coachingLevel
            self.change = change
            self.flow = flow
            self.remaining = remaining
            self.token = token
            self.button = button
            self.verdict = verdict
            self.context = context
            self.surface = surface
            self.isCoachingWarning = isCoachingWarning
        }
    }
}

#if DEBUG
// Equality that only the tests use, left out of release builds (CONTRIBUTING, "Binary size").
extension MonitorOwner: Equatable {
    package static func == (lhs: MonitorOwner, rhs: MonitorOwner) -> Bool { lhs.object === rhs.object }
}
extension MonitorEngine.Action: Equatable {}
extension MonitorEngine.Scene: Equatable {}
extension MonitorEngine.Scene.Change: Equatable {}
#endif

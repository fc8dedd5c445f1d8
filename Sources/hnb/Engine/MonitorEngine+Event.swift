// The security event (rules 5, 6, 13, 16, 17, 23 and 24): its countdown, where it was shown, its
// verdict and its button, one value the engine keeps while the event is on screen, and the one
// place that turns it into the outcome it leaves behind.

import Foundation

extension MonitorEngine {
    /// Whether the event's button is shown and what a tap on it does: one decision (rules 5, 6
    /// and 17), which the engine's user-action step obeys and the present and tick actions carry,
    /// so the built-in dialog only draws it.
    package enum Button: Equatable, Sendable {
        /// No button: the acknowledge delay runs (rule 6). The user action is refused.
        case hidden
        /// The button is shown and the user action accepted: Close App (terminate, always), or
        /// Acknowledge once the delay is over.
        case available
        /// Rule 17: the delay is over but the screen is captured, so the button says why the
        /// acknowledgement is refused, and the user action is refused.
        case refused

        /// The button of a `flow` event with `remaining` seconds left; `refused`: rule 17 refuses
        /// the acknowledgement now (the terminate flow ignores it).
        init(flow: CallMonitorFlow, remaining: Int32, refused: Bool) {
            switch flow {
            case .terminate: self = .available
            case .acknowledge: self = remaining > 0 ? .hidden : (refused ? .refused : .available)
            }
        }
    }

    /// A security event on screen.
    struct Event: Sendable {
        let flow: CallMonitorFlow
        /// The countdown's length in seconds.
        let total: Int32
        /// When the event began, on the monotonic clock and on the wall clock (rule 16), the latter
        /// in seconds since the reference date: `Date` itself is resilient on Apple platforms, so
        /// a stored one would give the event, the engine and every action a layout known only
        /// at run time (metadata instantiation and value witnesses: 20 KiB of the iOS slice).
        let startedAt: Int64
        let startedWallClock: Double
        /// Where the countdown counts from: tick k is due at `origin + k s`. `startedAt`, except
        /// for a terminate event that inherits an earlier deadline of its session (rule 21).
        let origin: Int64
        /// The token of the event's first presentation, which no other event has: the verifier's
        /// question names the event by it (rule 23).
        let id: UInt64
        /// The last value the UI was given; only ever lower (rules 5 and 6).
        private(set) var remaining: Int32
        /// Identifies the current presentation; a user action with another token is stale.
        private(set) var token: UInt64
        /// Whether the screen was captured at any moment since the event began.
        private(set) var captured: Bool
        /// Where the event was shown so far, in order: the first, then one per hand-over (rules 13
        /// and 16). Never empty once the engine has presented the event.
        private(set) var presentations: [Presentation] = []
        /// The event's verdict: the first answer to its latest question, or `unknown` (rule 23).
        private(set) var verdict: CallMonitorCallVerdict = .unknown
        /// When that verdict was recorded (an answer, or the budget running out); `nil` while none was.
        private(set) var verdictAt: Int64?
        /// Whether the verifier was asked about this event (rule 23).
        private(set) var asked = false
        /// Whether a call joined the session in this step while the event was on screen, which
        /// asks the verifier again (rule 23); cleared at the end of every step.
        private(set) var callJoined = false
        /// What the event's screen is about, as shown now (rule 29): it changes with the
        /// protections open, without ending the event.
        private(set) var context: CallMonitorContext?
        /// Where the policy came from (issue 28): the code, or the document that decided it.
        let policySource: CallMonitorOutcome.PolicySource
        /// Whether a coaching answer began it with no call live (rule 32): an acknowledge warning
        /// that ends when a call becomes live, and that the verifier is not asked about.
        let isCoachingWarning: Bool
        /// The coaching answers read while it was on screen, with their statuses (issue 40,
        /// "Evidence"): only ever appended to, in the order read.
        private(set) var coaching: [CallMonitorOutcome.CoachingEvaluation] = []
        /// Rule 34: the coaching level its dialog's line says (the highest read for the open
        /// protections), as shown now: it changes with the answers and the protections, without
        /// ending the event. `nil`: no line.
        private(set) var coachingLevel: CallMonitor.CoachingLevel?

        /// An event under `policy` that begins `now`, counting from `origin`.
        init(
            _ policy: MonitorPolicy, origin: Int64, now: Int64, wallClock: Double, token: UInt64, captured: Bool,
            context: CallMonitorContext? = nil, policySource: CallMonitorOutcome.PolicySource = .code, isCoachingWarning: Bool = false,
            coachingLevel: CallMonitor.CoachingLevel? = nil
        ) {
            self.coachingLevel = coachingLevel
            self.context = context
            self.isCoachingWarning = isCoachingWarning
            self.policySource = policySource
            flow = policy.flow
            total = policy.seconds
            startedAt = now
            startedWallClock = wallClock
            self.origin = origin
            id = token
            self.token = token
            self.captured = captured
            remaining = Self.countdown(total, from: origin, at: now).remaining
        }

        /// Rules 5, 6 and 8: the value the countdown shows at `now`, from the clock, not from how
        /// many wake-ups came (so a late or missed one never drifts), and the whole seconds that
        /// passed since `origin`. The one formula for a beginning event and a running one.
        static func countdown(_ total: Int32, from origin: Int64, at now: Int64) -> (remaining: Int32, elapsedSeconds: Int64) {
            let elapsedSeconds = max(0, now &- origin) / MonitorEngine.second
            return (elapsedSeconds >= Int64(total) ? 0 : total - Int32(elapsedSeconds), elapsedSeconds)
        }

        /// When to wake next, `elapsedSeconds` whole seconds into the countdown.
        func nextWakeUp(afterElapsedSeconds elapsedSeconds: Int64) -> Int64 {
            MonitorEngine.deadline(origin, plusSeconds: elapsedSeconds + 1)
        }

        /// Whether the countdown ran out: a terminate event then exits (rule 5).
        var isOver: Bool { remaining == 0 }

        /// The button as it is now, under rule 17's refusal.
        func button(refused: Bool) -> Button { Button(flow: flow, remaining: remaining, refused: refused) }

        /// Moves the countdown to `now`; returns whether the value shown went down, and the
        /// seconds that passed.
        mutating func advance(to now: Int64) -> (ticked: Bool, elapsedSeconds: Int64) {
            let (value, elapsedSeconds) = Self.countdown(total, from: origin, at: now)
            guard value < remaining else { return (false, elapsedSeconds) }
            remaining = value
            return (true, elapsedSeconds)
        }

        /// Records a presentation on `surface` at `now` with the current value (rule 16).
        mutating func presented(on surface: Surface, at now: Int64) {
            presentations.append(Presentation(surface: surface, at: now, remaining: remaining))
        }

        /// A hand-over (rule 13): the presentation after it answers to `token` only.
        mutating func handOver(to token: UInt64) { self.token = token }

        /// Rule 29: the event shows `context` from now on.
        mutating func show(_ context: CallMonitorContext?) { self.context = context }

        /// Rule 34: the event's coaching line says `level` from now on.
        mutating func showCoaching(_ level: CallMonitor.CoachingLevel?) { coachingLevel = level }

        /// The screen was captured during the event (rule 16).
        mutating func markCaptured() { captured = true }

        /// Rule 23: the verifier is asked about this event now; a call that joined is covered.
        mutating func askedVerifier() {
            asked = true
            callJoined = false
        }

        /// Rule 23: a call joined the session while the event was on screen.
        mutating func noteCallJoined() { callJoined = true }

        /// The end of a step: a call that joined in it was asked about, or will not be.
        mutating func stepEnded() { callJoined = false }

        /// Rule 23: the event's verdict, recorded at `now`.
        mutating func record(_ verdict: CallMonitorCallVerdict, at now: Int64) {
            self.verdict = verdict
            verdictAt = now
        }

        /// Issue 40: a coaching answer was read while the event was on screen (or began it).
        mutating func recordCoaching(_ evaluation: CallMonitorOutcome.CoachingEvaluation) { coaching.append(evaluation) }

        /// Where the event is shown: its latest presentation's surface (rule 13).
        var surface: Surface {
            guard let latest = presentations.last else {
                preconditionFailure("Internal inconsistency: a security event that was never presented")
            }
            return latest.surface
        }

        /// The record the event leaves behind (rule 16), ending with `ending` at `now` (and at
        /// `wallClock`, seconds since the reference date, for logs).
        func outcome(_ ending: Ending, now: Int64, wallClock: Double) -> CallMonitorOutcome {
            var outcome = CallMonitorOutcome(
                ending: ending, flow: flow, seconds: total, startedAt: startedAt, endedAt: now,
                startedDate: Date(timeIntervalSinceReferenceDate: startedWallClock),
                endedDate: Date(timeIntervalSinceReferenceDate: wallClock), lowestRemaining: remaining, presentations: presentations,
                wasScreenCaptured: captured, verdict: verdict, verdictArrivedAt: verdictAt
            )
            outcome.policySource = policySource
            // Issue 40: the token of the first presentation is the event's number, counted by the
            // engine, so a replay gives the same id.
            outcome.id = id
            outcome.coaching = coaching
            return outcome
        }
    }
}

extension MonitorEngine {
    /// The whole scene of the event on screen as it is now, `change` being what changed: the one
    /// action every drawing of an event comes from (MonitorEngine+Vocabulary.swift).
    func scene(_ change: Scene.Change) -> Action {
        guard let event = shownEvent else { preconditionFailure("Internal inconsistency: a scene with no event on screen") }
        return .scene(Scene(
            change, flow: event.flow, remaining: event.remaining, token: event.token, button: button, verdict: event.verdict,
            context: event.context, on: event.surface, isCoachingWarning: event.isCoachingWarning, coachingLevel: event.coachingLevel
        ))
    }

    /// The built-in dialog's texts were switched: an event drawn on it is drawn again in them;
    /// nothing else changes (a delegate draws its own texts).
    func textsChanged() -> [Action] {
        guard let event = shownEvent, event.surface == .builtInDialog else { return [] }
        return [scene(.texts)]
    }
}

#if DEBUG
// Equality that only the tests use, left out of release builds (CONTRIBUTING, "Binary size").
extension MonitorEngine.Event: Equatable {}
#endif

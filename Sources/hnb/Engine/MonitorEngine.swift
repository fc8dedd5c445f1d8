// The whole security policy as a pure state machine: inputs in, actions out, no I/O and no clock
// of its own. Every rule of the behaviour contract (DocC, "The behaviour contract") is a few lines
// here, and each rule there names the function it lives in. Each action (the inputs are in
// MonitorEngine+Input.swift, the actions in MonitorEngine+Vocabulary.swift) carries everything its
// side effect needs, so the core (Core/MonitorCore.swift and its parts) only switches on actions:
// it never reads the engine back after one, nor looks ahead in the list.
// The state it keeps is sealed in types that own their invariants: the live calls and their
// aggregate (LiveCalls.swift), the policies and what they cover (Guards.swift), the event on
// screen with its presentations and verdict (MonitorEngine+Event.swift).

import Foundation

package struct MonitorEngine: Sendable {
    /// One nanosecond-based second; every countdown step is this long.
    static let second: Int64 = 1_000_000_000

    /// The engine's phase as the steps ask it (``phase``); the state itself, with what exists only
    /// in each phase, is ``State``.
    enum Phase: Equatable, Sendable {
        case off, on, following, exited
    }

    /// The engine's phase with the session data that exists only in it, one value, so no step can
    /// read a session's calls or event where there is none (the model is swift-async-algorithms'
    /// `DebounceStateMachine`). What outlives a session (the policies, the sources' last reports,
    /// the verifier, the remote policy) is in the stored properties below.
    private enum State: Sendable {
        /// Not monitoring: only a command that sets a policy does anything; no call is live as far
        /// as the engine knows.
        case off
        /// Monitoring: the app-wide policy or the capture escalation is set, or a protection is
        /// open (``Guards``); the session's calls and the event on screen.
        case on(Session)
        /// Nothing asks for monitoring any more, but the call session that was live then is not
        /// over: the monitor follows its calls, silently, until it ends, then stops (rule 10). No
        /// event is shown. A policy set again during it finds the session as it was, its terminate
        /// deadline and acknowledgements included (rules 4 and 21), so ending every policy and
        /// setting one again cannot reset a countdown.
        case following(LiveCalls)
        /// The app was told to exit; nothing happens any more. The aggregate the session had then
        /// stays what the risk signals report.
        case exited(AggregateCallState)
    }

    /// What exists only while monitoring, behind one reference: the `.on` case's payload is then
    /// one word, so reading a part of the session no longer copies the whole session out of the
    /// enum first (a case's payload is read from a copy), and a change writes the part in place. The engine
    /// stays a value: ``uniqueSession(_:)`` copies a session that another copy of the engine
    /// shares before anything changes it (copy on write, as `Array` does).
    ///
    /// `@unchecked Sendable` for the reason `Array` is `Sendable`: a session is changed only
    /// through a reference that `isKnownUniquelyReferenced` found to be the only one, so no two
    /// threads ever see one session that either changes.
    ///
    /// Its two fields skip Swift's run-time exclusivity check (`@exclusivity(unchecked)`), which
    /// cost a fifth of the engine's time per step in `callmonitor bench`: a session is reached only
    /// through the private ``state``, and the one writer, ``changeCalls(_:)`` or
    /// ``changeShownEvent(_:)``, takes it out of the state (which reads `.off` meanwhile) before it
    /// writes, so no read or write of a field can overlap another. The closure a change runs cannot
    /// reach the engine: it is called inside a `mutating` method, whose exclusive access to the
    /// engine the compiler checks.
    private final class Session: @unchecked Sendable {
        /// The live calls of the session and their aggregate (rule 1).
        @exclusivity(unchecked) var calls: LiveCalls
        /// The event on screen; `nil` while waiting for one (it begins when the session is live
        /// and the app is in the foreground, rule 4).
        @exclusivity(unchecked) var shownEvent: Event?

        init(calls: LiveCalls = LiveCalls(), shownEvent: Event? = nil) {
            self.calls = calls
            self.shownEvent = shownEvent
        }
    }

    /// `session` itself when no other copy of the engine holds it, else a copy of it to change.
    private static func uniqueSession(_ session: inout Session) {
        if !isKnownUniquelyReferenced(&session) {
            session = Session(calls: session.calls, shownEvent: session.shownEvent)
        }
    }

    /// An engine off, with the code's defaults: no policy, no call, no document.
    package init() {}

    /// The phase and the session (``State``); changed only by the transitions in this file
    /// (``startMonitoring(isForeground:owner:into:)``, ``resumeMonitoring(isForeground:now:into:)``,
    /// ``stop(now:ending:into:)``, ``endMonitoring(into:)``, ``exit(now:into:)``). The steps in
    /// other files reach the session's parts through ``calls`` and ``shownEvent``.
    private var state: State = .off
    // Stored state outside the session. Every stored property below is `private` or `private(set)`
    // (only this file changes it) but five: `guards`, `verdicts`, `coaching`, `remote` and `freshness` stay internal,
    // because the steps in the other MonitorEngine+*.swift files call their mutating methods,
    // and Swift's `private(set)` is scoped to the file (a mutating call needs the setter). They
    // are sealed one level down instead: each of their own fields is `private(set)`, changed only
    // by a method of its type named for what it does, so no step outside a type assigns its
    // fields, and each invariant is kept in one place.
    /// Whether the app is in the foreground, as last sensed or reported (kept while off: a start
    /// reads it); changed only by ``noteForeground(_:)``.
    private(set) var isForeground = true
    private var lastToken: UInt64 = 0
    /// The latest screen-capture state reported (kept while off: a start reads it).
    private(set) var isCaptured = false
    /// The opt-in rule 17.
    private var refusesAcknowledgementWhileScreenCaptured = false
    /// The app-wide policy, the protections, exemptions, acknowledged calls, the session's
    /// terminate deadline and the detection switch (rules 18 to 22; Guards.swift).
    var guards = Guards()
    /// The delegate set, by identity: where the next presentation goes (rule 13).
    private var delegate: ObjectIdentifier?
    /// Whether the app set an outcome handler and a before-exit hook: app code that runs before a
    /// force exit, under the exit watchdog (rule 16).
    private var outcomeHandlerIsSet = false
    private var beforeForceExitIsSet = false
    /// When the last observed call session ended (or monitoring stopped during one), for the
    /// recent-call signal; `nil` if none has ended yet. Set only by the transitions in this file
    /// (``endSession(now:ending:into:)``, ``stop(now:ending:into:)``).
    private(set) var lastLiveAt: Int64?
    /// The verifier and its question (rule 23); the verdict itself is the event's. Never read by
    /// the countdown, the exit or an ending.
    var verdicts = VerdictState()
    /// The coaching source's kind, policy and questions (rules 31 to 33); what an answer adds is
    /// in ``guards``.
    var coaching = CoachingState()
    /// The wall clock as the core read it for this step (``handle(_:now:wallClock:)``): stamped
    /// on an event that begins and on an outcome, for logs (rule 16); nothing is decided by it. In
    /// seconds since the reference date, which `Date` round-trips exactly (a stored `Date`, a
    /// resilient type on Apple platforms, would make the engine's layout a run-time one).
    private(set) var wallClock: Double = 0
    /// The signed remote policy (issue 28, rules 26 to 28; RemotePolicy.swift).
    var remote = RemotePolicy()
    /// Whether the view of the calls may be older than the last resume, and the exit waiting for
    /// a fresh list (rules 5 and 8, issue 37; MonitorEngine+Resume.swift).
    var freshness = CallListFreshness()

    // MARK: Read-only views for the facade and tests

    var phase: Phase {
        switch state {
        case .off: .off
        case .on: .on
        case .following: .following
        case .exited: .exited
        }
    }
    var isMonitoring: Bool { if case .on = state { true } else { false } }
    /// Whether the monitor follows a session it no longer monitors (rule 10).
    var isFollowing: Bool { if case .following = state { true } else { false } }
    var hasExited: Bool { if case .exited = state { true } else { false } }
    /// The aggregate as the session last settled it (rule 1); after the exit, as it was then.
    var callState: AggregateCallState {
        if case .exited(let settled) = state { settled } else { calls.settled }
    }

    /// The live calls of the session (rule 1): none while off. Changed only through
    /// ``changeCalls(_:)``.
    var calls: LiveCalls {
        switch state {
        case .on(let session): session.calls
        case .following(let calls): calls
        case .off, .exited: LiveCalls()
        }
    }

    /// Changes the session's calls in place: the session is taken out of the state for the
    /// change, so the calls are not copied. While off (or after the exit) there are none, and a
    /// change must leave it so (the exemption step removes a call from none).
    ///
    /// A closure rather than a `_modify` accessor: Swift 6.3 compiles a `_modify` coroutine to
    /// `swift_coroFrameAlloc`, which the iOS 17 runtime does not have (the app would not link).
    @discardableResult
    mutating func changeCalls<Result>(_ change: (inout LiveCalls) -> Result) -> Result {
        switch state {
        case .on(var session):
            // The state lets go of the session first, so a session no other engine shares is
            // found unique and changed in place.
            state = .off
            Self.uniqueSession(&session)
            defer { state = .on(session) }
            return change(&session.calls)
        case .following(var calls):
            state = .off
            defer { state = .following(calls) }
            return change(&calls)
        case .off, .exited:
            var none = LiveCalls()
            let result = change(&none)
            guard none.isEmpty, none.settled == .idle else {
                preconditionFailure("Internal inconsistency: a call recorded with no session")
            }
            return result
        }
    }

    /// The event on screen: one exists only while monitoring (``State/on(_:)``). Changed only
    /// through ``changeShownEvent(_:)``.
    var shownEvent: Event? {
        if case .on(let session) = state { session.shownEvent } else { nil }
    }

    /// Whether an event is on screen; read in place, where ``shownEvent`` copies the event.
    var hasShownEvent: Bool {
        if case .on(let session) = state { session.shownEvent != nil } else { false }
    }

    /// A part of the event on screen (`nil` when none is), read in place: the steps that run
    /// after every input ask for one or two fields, and a copy of the whole event costs more
    /// than the step.
    func shownEventPart<Part>(_ part: (Event) -> Part) -> Part? {
        guard case .on(let session) = state, let event = session.shownEvent else { return nil }
        return part(event)
    }

    /// Changes the event on screen in place, like ``changeCalls(_:)``; one can be set only while
    /// monitoring.
    @discardableResult
    mutating func changeShownEvent<Result>(_ change: (inout Event?) -> Result) -> Result {
        guard case .on(var session) = state else {
            var none: Event?
            let result = change(&none)
            guard none == nil else { preconditionFailure("Internal inconsistency: an event shown while not monitoring") }
            return result
        }
        state = .off
        Self.uniqueSession(&session)
        defer { state = .on(session) }
        return change(&session.shownEvent)
    }
    /// Where the event on screen is shown: its latest presentation's surface (rule 13).
    var shownSurface: Surface {
        guard let shownEvent else {
            preconditionFailure("Internal inconsistency: a surface asked for with no event shown")
        }
        return shownEvent.surface
    }
    /// The verdict of the event on screen (`unknown` when none is shown).
    var verdict: CallMonitorCallVerdict { shownEventPart({ $0.verdict }) ?? .unknown }
    /// Whether the screen is captured, as far as the running monitor knows (false while off).
    var screenCaptured: Bool { isMonitoring && isCaptured }
    /// When the last observed session ended; only meaningful while `callState` is idle.
    var lastSessionEndedAt: Int64? { lastLiveAt }
    /// Rule 25: the screen is captured while a visible call is live, so the escalation, if one is
    /// set, counts among the policies.
    var escalationConditionHolds: Bool { isMonitoring && isCaptured && calls.settled != .idle }
    /// Rule 17: the shown acknowledge event refuses its action because the screen is captured.
    var acknowledgementRefused: Bool { refusesAcknowledgement(of: shownEvent) }
    /// The shown event's button (`hidden` when none is shown): the one answer to whether the
    /// button is drawn and whether the user action is accepted now.
    var button: Button { button(of: shownEvent) }

    /// Rule 17 for `event`, the event on screen (read once by the caller).
    private func refusesAcknowledgement(of event: Event?) -> Bool {
        guard refusesAcknowledgementWhileScreenCaptured, isCaptured, let event else { return false }
        return event.flow == .acknowledge
    }

    /// ``button`` for `event`, the event on screen (read once by the caller).
    private func button(of event: Event?) -> Button {
        event?.button(refused: refusesAcknowledgement(of: event)) ?? .hidden
    }

    /// Everything the risk getters report, as of now: the core publishes it after every step.
    var signals: RiskSnapshot { signalsAndShownToken.signals }

    /// ``signals`` and the token of the presentation on screen (`nil` when none is), from one
    /// read of the state: the core asks for both after every step.
    var signalsAndShownToken: (signals: RiskSnapshot, shownToken: UInt64?) {
        let (monitoring, settled, event): (Bool, AggregateCallState, Event?) = switch state {
        case .on(let session): (true, session.calls.settled, session.shownEvent)
        // Rule 10: following is silent, to the risk signals too: they read as stopped.
        case .following, .off: (false, .idle, nil)
        case .exited(let settled): (false, settled, nil)
        }
        let signals = RiskSnapshot(
            isMonitoring: monitoring, callState: settled, isScreenCaptured: monitoring && isCaptured,
            event: event.map(RiskSnapshot.ShownEvent.init), button: button(of: event),
            isAcknowledgementRefused: refusesAcknowledgement(of: event), lastSessionEndedAt: lastLiveAt
        )
        return (signals, event?.token)
    }

    // MARK: Transitions

    /// Applies one input and returns the actions to carry out, in order. Each case is one named
    /// step below; BehaviourContract.md names the step that holds each rule. `now` is the
    /// monotonic clock every rule reads; `wallClock`, read by the core once per step, is only
    /// stamped on events and outcomes for logs. `sensors` reads the app-state and capture
    /// sources; it is called only for a command that starts monitoring. A step never handles
    /// another input: what it needs of another step it calls directly.
    package mutating func handle(_ input: Input, now: Int64, wallClock: Date, sensors: () -> Sensors) -> [Action] {
        self.wallClock = wallClock.timeIntervalSinceReferenceDate
        observeWallClock()
        guard !hasExited else { return afterExit(input, sensors: sensors) }
        var actions: [Action] = []
        switch input {
        case .start(let policy, let owner):
            guard let foreground = sense(sensors, now: now, into: &actions) else { return actions }
            setAppWide(.enforce(policy), isForeground: foreground, owner: owner, now: now, into: &actions)
        case .observe(let owner):
            guard let foreground = sense(sensors, now: now, into: &actions) else { return actions }
            setAppWide(.observe, isForeground: foreground, owner: owner, now: now, into: &actions)
        case .stop:
            guard isMonitoring else { return [] }
            endAppWide(now: now, into: &actions)
        case .beginProtection(let id, let policy, let name, let context, let owner):
            guard let foreground = sense(sensors, now: now, into: &actions) else { return actions }
            beginProtection(
                id, policy, named: name, context: context, isForeground: foreground, owner: owner, now: now, into: &actions
            )
        case .endProtection(let id):
            guard isMonitoring else { return [] }
            endProtection(id, now: now, into: &actions)
        case .exempt(let id):
            exempt(id, now: now, into: &actions)
        case .removeExemption(let id):
            removeExemption(id, now: now, into: &actions)
        case .callDetection(let enabled):
            setCodeDetection(enabled, now: now, into: &actions)
        case .calls(let batch, _):
            // Rule 10: a followed session's calls are followed to its end.
            guard isMonitoring || isFollowing else { return [] }
            // Rule 28: a clock set back is noticed before the calls are (the kill switch expires).
            refreshRemotePolicy(now: now, into: &actions)
            apply(batch, now: now, into: &actions)
        case .appState(let foreground, _):
            guard isMonitoring || isFollowing else { return [] }
            refreshRemotePolicy(now: now, into: &actions)
            appStateChanged(isForeground: foreground, now: now, into: &actions)
        case .wake:
            guard isMonitoring else { return [] }
            advanceCountdown(now: now, into: &actions)
        case .userAction(let token):
            userAction(token: token, now: now, into: &actions)
        case .setDelegate(let box):
            // Read once: the surface gets the same delegate the rule compares.
            let identity = box.identity
            actions.append(.install(.delegate(box, identity: identity)))
            guard delegateChanged(to: identity, now: now, into: &actions) else { return actions }
        case .delegateReleased:
            guard delegateChanged(to: nil, now: now, into: &actions) else { return [] }
        case .setCallback(let callback):
            return [.install(.callback(callback))]
        case .setStrings(let strings):
            return [.install(.strings(strings))] + textsChanged()
        case .screenCapture(let captured, _):
            screenCaptureChanged(isCaptured: captured, now: now, into: &actions)
        case .refusesAcknowledgementWhileScreenCaptured(let on):
            let buttonBefore = button
            refusesAcknowledgementWhileScreenCaptured = on
            buttonMayHaveChanged(from: buttonBefore, into: &actions)
        case .setCallVerifier(let box):
            actions.append(.install(.verifier(box)))
            setVerifier(isSet: box != nil, into: &actions)
        case .verdictBudget(let budget):
            setCodeBudget(budget)
        case .verdictArrived(let request, let verdict):
            guard isMonitoring else { return [] }
            verdictArrived(request: request, verdict, now: now, into: &actions)
        case .verdictBudgetExpired(let request):
            guard isMonitoring else { return [] }
            verdictBudgetExpired(request: request, now: now, into: &actions)
        case .coachingSource(let source):
            setCoachingSource(source, into: &actions)
        case .coachingBudget(let budget):
            coaching.setBudget(budget)
        case .coachingPolicy(let policy):
            coaching.setPolicy(policy)
        case .coachingAnswered(let request, let answer):
            coachingAnswered(request: request, answer, now: now, into: &actions)
        case .coachingBudgetExpired(let request):
            coachingBudgetExpired(request: request, into: &actions)
        case .screenCaptureEscalation(let policy, let owner):
            // Rule 25: set, it monitors like a protection, so it starts as a protection does.
            guard let foreground = sense(sensors, now: now, into: &actions) else { return actions }
            setScreenCaptureEscalation(policy, isForeground: foreground, owner: owner, now: now, into: &actions)
        case .setOutcomeHandler(let handler):
            actions.append(.install(.outcomeHandler(handler)))
            outcomeHandlerIsSet = handler != nil
        case .setBeforeForceExit(let hook, let budget):
            actions.append(.install(.beforeForceExit(hook, budgetNanoseconds: budget)))
            beforeForceExitIsSet = hook != nil
        case .policyKeys(let keys):
            setPolicyKeys(keys, now: now, into: &actions)
        case .policyAttributes(let attributes):
            setPolicyAttributes(attributes, now: now, into: &actions)
        case .applyPolicy(let document, let text):
            applyPolicy(document, text: text, now: now, into: &actions)
        case .policyRejected(let refusal):
            policyRejected(refusal, into: &actions)
        case .wallClockChanged, .policyWake:
            policyWake(now: now, into: &actions)
        }
        endStep(now: now, into: &actions)
        return actions
    }

    /// What every step ends with, after its own actions: rule 32, with no call live the coaching
    /// warning due is the one shown; rule 29, the event on screen shows the context now chosen;
    /// rule 34, and the coaching level now read (MonitorEngine+CoachingLevel.swift); rule 23, ask, or close the question (MonitorEngine+Verdict.swift); rule 31, ask the
    /// coaching source about a protection opened in the step (MonitorEngine+Coaching.swift).
    mutating func endStep(now: Int64, into actions: inout [Action]) {
        followNotice(now: now, into: &actions)
        followContext(into: &actions)
        followCoachingLevel(into: &actions)
        followVerdict(now: now, into: &actions)
        followCoaching(now: now, into: &actions)
    }

    /// After the exit (rule 5) no step runs: nothing is decided, shown or scheduled again. Two
    /// things go on: what the app hands over (its delegate, closures, verifier, texts) is still
    /// passed on to the core, which keeps it for as long as the process lives, and a refusal the
    /// facade decided is still reported, with its reason. A command that starts monitoring still
    /// reads the sources (the core reports what was read), and starts nothing.
    private mutating func afterExit(_ input: Input, sensors: () -> Sensors) -> [Action] {
        switch input {
        case .start, .observe, .beginProtection, .screenCaptureEscalation:
            _ = sensors()
            return []
        case .setDelegate(let box):
            let identity = box.identity
            delegate = identity
            return [.install(.delegate(box, identity: identity))]
        case .delegateReleased:
            delegate = nil
            return []
        case .setCallback(let callback):
            return [.install(.callback(callback))]
        case .setStrings(let strings):
            return [.install(.strings(strings))]
        case .setCallVerifier(let box):
            return [.install(.verifier(box))]
        case .setOutcomeHandler(let handler):
            outcomeHandlerIsSet = handler != nil
            return [.install(.outcomeHandler(handler))]
        case .setBeforeForceExit(let hook, let budget):
            beforeForceExitIsSet = hook != nil
            return [.install(.beforeForceExit(hook, budgetNanoseconds: budget))]
        case .policyRejected(let refusal):
            var actions: [Action] = []
            policyRejected(refusal, into: &actions)
            return actions
        case .stop, .endProtection, .exempt, .removeExemption, .callDetection, .calls, .appState, .wake, .userAction, .screenCapture,
             .refusesAcknowledgementWhileScreenCaptured, .verdictBudget, .verdictArrived, .verdictBudgetExpired, .policyKeys,
             .policyAttributes, .applyPolicy, .wallClockChanged, .policyWake, .coachingSource, .coachingBudget, .coachingPolicy,
             .coachingAnswered, .coachingBudgetExpired:
            return []
        }
    }

    /// Rule 13: the same delegate again, or none when none is set, changes nothing (`false`);
    /// another one takes over the event on screen.
    private mutating func delegateChanged(to identity: ObjectIdentifier?, now: Int64, into actions: inout [Action]) -> Bool {
        guard identity != delegate else { return false }
        delegate = identity
        handOver(now: now, into: &actions)
        return true
    }

    // MARK: Steps

    /// Rule 8: leaving the foreground never pauses or resets a running event; returning to it may
    /// begin one (rule 4).
    private mutating func appStateChanged(isForeground foreground: Bool, now: Int64, into actions: inout [Action]) {
        noteForeground(foreground)
        if foreground { beginEventIfDue(now: now, into: &actions) }
    }

    /// The app state changed (rules 4 and 8): a return to the foreground is a resume, after
    /// which the view of the calls counts as stale until a complete list is applied
    /// (MonitorEngine+Resume.swift).
    private mutating func noteForeground(_ foreground: Bool) {
        if foreground && !isForeground { freshness.resumed() }
        isForeground = foreground
    }

    /// Rules 5, 6, 12 and 17: the action of the presentation on screen, and only that one.
    private mutating func userAction(token: UInt64, now: Int64, into actions: inout [Action]) {
        // Rule 6: the engine, not the UI, enforces the delay. Rule 17: and, when asked to,
        // refuses while the screen is captured. Both are in `button`, which the dialog draws.
        guard isMonitoring, let event = shownEvent, event.token == token, button == .available else { return }
        switch event.flow {
        case .terminate:
            // Rule 5: the button exits at once. `shown` implies a live session (rule 7 ends the
            // event with the session), which `exit` checks again.
            exit(now: now, into: &actions)
        case .acknowledge:
            // Rule 6 as changed by issue 19: the acknowledgement covers the calls live now,
            // under this policy and any policy no stricter; a later call warns again.
            let policy = MonitorPolicy(flow: event.flow, requestedSeconds: event.total)
            guards.acknowledge(calls, under: policy)
            // Rule 32: and the coaching warning under it, which with no call live is this one.
            guards.acknowledgeNotice(under: AcknowledgeRequirement(requestedSeconds: event.total))
            endEvent(.acknowledged, now: now, into: &actions)
        }
    }

    /// Rules 16, 17 and 25: a capture marks the event on screen, may make the policy stricter
    /// (or let it fall back), and may refuse or restore the acknowledgement. Recorded in every
    /// phase but the exit, so a start knows the state it starts in.
    mutating func screenCaptureChanged(isCaptured captured: Bool, now: Int64, into actions: inout [Action]) {
        let buttonBefore = button
        let shownBefore = shownEventPart({ $0.token })
        isCaptured = captured
        if captured, isMonitoring { changeShownEvent { $0?.markCaptured() } }
        // Rule 25 first: when the policy changes, the event that replaces this one is presented
        // with its button already decided, so only an event that stays is told of a change.
        escalationMayHaveChanged(now: now, into: &actions)
        guard shownEventPart({ $0.token }) == shownBefore else { return }
        buttonMayHaveChanged(from: buttonBefore, into: &actions)
    }

    /// Rule 17: the refusal changed; the event on screen, if its button changed with it (the
    /// delay is over), has it redrawn.
    private func buttonMayHaveChanged(from before: Button, into actions: inout [Action]) {
        let after = button
        guard after != before, hasShownEvent else { return }
        actions.append(scene(.button))
    }

    /// Rule 10, when nothing asks for monitoring any more (rule 18): dismiss a shown UI, drop
    /// timers, report nothing else (but the event's outcome, rule 16). With a session live the
    /// monitor follows it to its end before the sources stop: the session, its terminate deadline
    /// and its acknowledgements outlive the policies (issue 26), so a policy set again during it
    /// cannot restart a countdown (rule 21).
    mutating func stop(now: Int64, ending: Ending, into actions: inout [Action]) {
        endEvent(ending, now: now, into: &actions)
        // Rule 33: no protection is left to ask about.
        closeAllCoaching(now: now, into: &actions)
        // The session was live until now as far as anyone will know: following is silent.
        if calls.settled != .idle { lastLiveAt = now }
        guards.monitoringStopped()
        guard calls.settled == .idle else {
            state = .following(calls)
            return
        }
        endMonitoring(into: &actions)
    }

    /// Rules 3 and 7: the session of a monitor that stays on is over (its aggregate just settled
    /// idle): its event ends with `ending`, nothing exits, its acknowledgements and terminate
    /// deadline go (``Guards/sessionEnded()``), a waiting exit stops waiting, and the instant is
    /// kept for the recent-call signal.
    mutating func endSession(now: Int64, ending: Ending, into actions: inout [Action]) {
        lastLiveAt = now
        endEvent(ending, now: now, into: &actions)
        guards.sessionEnded()
        _ = freshness.exitStoppedWaiting()
    }

    /// The end of monitoring, or of following a session: the sources stop and the session's
    /// state is forgotten.
    mutating func endMonitoring(into actions: inout [Action]) {
        actions.append(.stopSources(callSource: guards.detectionEnabled))
        state = .off
        guards.sessionEnded()
        _ = freshness.exitStoppedWaiting()
    }

    /// From off to on: the sources start, and `owner` is held while they run; the call source's
    /// first list may begin an event.
    mutating func startMonitoring(isForeground foreground: Bool, owner: MonitorOwner?, into actions: inout [Action]) {
        guard case .off = state else { preconditionFailure("Internal inconsistency: a start while not off") }
        state = .on(Session())
        noteForeground(foreground)
        actions.append(.startSources(callDetection: guards.detectionEnabled, owner: owner))
    }

    /// From following back to monitoring, when a policy is set again during the followed session
    /// (rule 10): nothing of the session was forgotten. The callback hears of the calls in
    /// progress, as at every start (rule 2), and an event begins if due, under the session's
    /// terminate deadline (rule 21) and acknowledgements (rule 4).
    mutating func resumeMonitoring(isForeground foreground: Bool, now: Int64, into actions: inout [Action]) {
        guard case .following(let calls) = state else { preconditionFailure("Internal inconsistency: a resume while not following") }
        state = .on(Session(calls: calls))
        noteForeground(foreground)
        actions.append(.emit(calls.settled.event))
        // Rule 25: a session that goes on while the screen is captured is escalated at once.
        escalationMayHaveChanged(now: now, into: &actions)
        beginEventIfDue(now: now, into: &actions)
    }

    /// Rule 4: an event begins when a policy is in force, a session is live and the app is in
    /// the foreground. Rules 18 and 20: under the strictest policy in force, none when only observing. Rule 4
    /// as changed by issue 19: unless an acknowledgement covers every live call. Rule 8 as changed
    /// by issue 26: a terminate event whose session already has a terminate deadline (rule 21)
    /// begins in the background too, since that deadline runs on there (the background pauses
    /// nothing): so no change of policy in the background can postpone or drop the exit.
    mutating func beginEventIfDue(now: Int64, into actions: inout [Action]) {
        // Rule 32: a call that becomes live ends the coaching warning; its policy is among rule
        // 18's now, so the call's event begins under the stricter at once.
        if calls.settled != .idle, shownEventPart({ $0.isCoachingWarning }) == true { endEvent(.policyChanged, now: now, into: &actions) }
        guard phase == .on, let policy = guards.inForce, calls.settled != .idle, !hasShownEvent,
              isForeground || (policy.flow == .terminate && guards.terminateDeadline != nil),
              !guards.acknowledgementCovers(calls, under: policy) else { return }
        // Rule 21: a terminate countdown never ends later than the session's earliest deadline.
        let origin = policy.flow == .terminate ? guards.terminateOrigin(policy, now: now) : now
        let event = Event(
            policy, origin: origin, now: now, wallClock: wallClock, token: nextToken(), captured: isCaptured, context: guards.context,
            policySource: policySource, coachingLevel: guards.coachingLevel
        )
        changeShownEvent { $0 = event }
        present(now: now, into: &actions)
        if event.flow == .terminate && event.isOver {
            // Issue 37: a deadline that passed while the app was away waits for a fresh list too.
            exitWhenCallListIsCurrent(now: now, into: &actions)
            return
        }
        let elapsedSeconds = Event.countdown(event.total, from: origin, at: now).elapsedSeconds
        actions.append(.schedule(at: event.nextWakeUp(afterElapsedSeconds: elapsedSeconds)))
    }

    /// Rule 32: with no call live, in the foreground, the coaching warning due begins. It is made
    /// from an ``AcknowledgeRequirement``, which has no terminate to give, so it is an acknowledge
    /// event and never exits (promise B by type, issue 51). Returns whether it began.
    mutating func beginCoachingWarningIfDue(now: Int64, into actions: inout [Action]) -> Bool {
        guard phase == .on, calls.settled == .idle, !hasShownEvent, isForeground, let warning = guards.noticeDue else { return false }
        let event = Event(
            warning.policy, origin: now, now: now, wallClock: wallClock, token: nextToken(), captured: isCaptured,
            context: guards.noticeContext, policySource: noticeSource, isCoachingWarning: true, coachingLevel: guards.coachingLevel
        )
        changeShownEvent { $0 = event }
        present(now: now, into: &actions)
        actions.append(.schedule(at: event.nextWakeUp(afterElapsedSeconds: 0)))
        return true
    }

    /// Rule 13: when the delegate changes during an event, the old surface is dismissed and the
    /// new one starts from the current value. A fresh token makes closures handed to the old
    /// surface stale.
    private mutating func handOver(now: Int64, into actions: inout [Action]) {
        guard isMonitoring, hasShownEvent else { return }
        let token = nextToken()
        actions.append(.dismiss(on: shownSurface))
        changeShownEvent { $0?.handOver(to: token) }
        present(now: now, into: &actions)
    }

    /// Shows the event on screen on the current surface and records the presentation (rule 16):
    /// its first, or one after a hand-over (rule 13).
    private mutating func present(now: Int64, into actions: inout [Action]) {
        let surface: Surface = delegate != nil ? .delegate : .builtInDialog
        changeShownEvent { $0?.presented(on: surface, at: now) }
        guard let event = shownEvent else { preconditionFailure("Internal inconsistency: a presentation with no event") }
        // Rule 24: a delegate that takes over an event whose verdict is known hears it.
        actions.append(scene(.present(tellsVerdict: surface == .delegate && event.verdict != .unknown)))
    }

    /// Rules 5, 6 and 8: the remaining value follows from the clock, not from how many wake-ups
    /// came, so a late or missed wake-up reports the current value and never drifts.
    private mutating func advanceCountdown(now: Int64, into actions: inout [Action]) {
        guard let step = changeShownEvent({ $0?.advance(to: now) }), let event = shownEvent else { return }
        let elapsedSeconds = step.elapsedSeconds
        if step.ticked { actions.append(scene(.tick)) }
        if event.flow == .terminate && event.isOver {
            // Issue 37: only on a view of the calls read after the last resume.
            exitWhenCallListIsCurrent(now: now, into: &actions)
            return
        }
        // The acknowledge flow keeps waking once a second after 0 so that a released delegate is
        // noticed and the warning stays visible (rule 13); the wake-ups report nothing.
        actions.append(.schedule(at: event.nextWakeUp(afterElapsedSeconds: elapsedSeconds)))
    }

    /// The one end of an event on screen that is not the exit (rules 3, 6, 7, 10, 18, 19 and
    /// 22): its UI is dismissed where it is shown, its wake-up dropped and its outcome handed out
    /// (rule 16), in that order; then no event is shown until one begins again (rule 4). Nothing
    /// when none is shown.
    mutating func endEvent(_ ending: Ending, now: Int64, into actions: inout [Action]) {
        guard let event = shownEvent else { return }
        actions.append(.dismiss(on: event.surface))
        actions.append(.cancelWakeUp)
        actions.append(.outcome(event.outcome(ending, now: now, wallClock: wallClock)))
        changeShownEvent { $0 = nil }
    }

    mutating func exit(now: Int64, into actions: inout [Action]) {
        // Rule 5: exit only while the call session is live. An event on screen implies it (rule 7
        // ends the event with the session), so anything else is a bug in this file.
        guard calls.settled != .idle, let event = shownEvent else {
            preconditionFailure("Internal inconsistency: a security event outlived its call session")
        }
        let code: Int32 = 0
        actions.append(.cancelWakeUp)
        actions.append(.stopSources(callSource: guards.detectionEnabled))
        // Rule 16: the record comes before the exit, so the app can keep it. App code runs from
        // there to the exit (a coaching report, the outcome handler, the before-exit hook), so the
        // watchdog that keeps it from holding the exit back starts before the first of them; they
        // share it. Rule 33: every undecided coaching question is reported before the exit.
        let reports = coachingUndecided
        if reports || outcomeHandlerIsSet { actions.append(.armExitWatchdog(code: code)) }
        closeAllCoaching(now: now, into: &actions)
        actions.append(.outcome(event.outcome(.forceExit, now: now, wallClock: wallClock)))
        if !reports && !outcomeHandlerIsSet && beforeForceExitIsSet { actions.append(.armExitWatchdog(code: code)) }
        state = .exited(calls.settled)
        actions.append(.exit(code: code))
    }

    /// A token no presentation is given (``nextToken()`` counts from 1): a user action with it is
    /// always refused, whatever is on screen.
    package static let noPresentationToken: UInt64 = 0

    private mutating func nextToken() -> UInt64 {
        lastToken &+= 1
        return lastToken
    }

    /// `start + seconds`, saturating so that `Int32.max` seconds (or a clock near its limit)
    /// cannot overflow (rule 14).
    static func deadline(_ start: Int64, plusSeconds seconds: Int64) -> Int64 {
        let (offset, overflowA) = seconds.multipliedReportingOverflow(by: second)
        if overflowA { return .max }
        let (sum, overflowB) = start.addingReportingOverflow(offset)
        return overflowB ? .max : sum
    }
}

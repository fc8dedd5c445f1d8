// The engine's one command vocabulary: every public call that changes the monitor and every
// report of a port is one case here, and a setting names the slot a fold keeps its last value in.
// The facade builds the value, the mailbox queues it (and folds a storm of them, by the rules in
// MonitorEngine+Fold.swift), the core hands it to `handle(_:now:sensors:)` unchanged; nothing
// translates it on the way. Nothing here decides anything.

extension MonitorEngine {
    /// One command for the engine, as the facade or a port sends it.
    ///
    /// Reports of the ports carry the run of the source (or of the wake-up) that sent them,
    /// `run`, which only the core's parts read: they drop a report from a run that is over before
    /// the engine sees it (0 in engine tests, which have no runs).
    package enum Input: Sendable {
        // MARK: From the public API

        /// `startMonitoring(…)`; `owner` is held while monitoring (handed on in `startSources`).
        /// The app and capture state are read as it is handled (``Sensors``).
        case start(MonitorPolicy, owner: MonitorOwner? = nil)
        /// `startMonitoring()`: the app-wide policy "observe" (rule 20); read and held as `start`.
        case observe(owner: MonitorOwner? = nil)
        /// `stopMonitoring()`.
        case stop
        /// A protection began (rule 18); `id` is unique to it for the monitor's life, `name` the
        /// screen's name a document's `screens` address (`protect(named:…)`, issue 28), `context`
        /// what its screen is about (rule 26). Read and held as `start`.
        case beginProtection(
            id: UInt64, MonitorPolicy, name: String? = nil, context: CallMonitorContext? = nil, owner: MonitorOwner? = nil
        )
        /// A protection ended (rule 18); an unknown or already ended `id` changes nothing.
        case endProtection(id: UInt64)
        /// The app names a call of its own (rule 19).
        case exempt(CallID)
        /// The app takes a call's exemption back (rule 19).
        case removeExemption(CallID)
        /// The user's primary action, for the presentation identified by the token (the closure
        /// handed out with it, from any thread).
        case userAction(token: UInt64)
        /// The app set a delegate, or cleared it with a box holding `nil` (rule 13).
        case setDelegate(WeakDelegate)
        /// The app set the callback, or removed it with `nil`.
        case setCallback((@MainActor (CallEvent) -> Void)?)
        /// The built-in dialog's texts.
        case setStrings(CallMonitorStrings)
        /// The app set (or removed) its before-exit hook, with its budget already clamped: app code
        /// that runs before a force exit, under the exit watchdog (rule 16).
        case setBeforeForceExit((@MainActor () -> Void)?, budgetNanoseconds: Int64)
        /// Call detection switched on or off (rule 22); takes effect at once while monitoring.
        case callDetection(Bool)
        /// The app set (or removed) its outcome handler: app code that runs before a force exit, so
        /// the exit watchdog starts before it (rule 16).
        case setOutcomeHandler((@MainActor (CallMonitorOutcome) -> Void)?)
        /// Turns the opt-in capture rule (rule 17) on or off.
        case refusesAcknowledgementWhileScreenCaptured(Bool)
        /// The app set (or removed, `nil`) its call verifier (rule 23).
        case setCallVerifier(VerifierBox?)
        /// The verifier's budget, in nanoseconds, already clamped (rule 23); from the next question.
        case verdictBudget(Int64)
        /// The policy that guards while the screen is captured during a call (rule 25), or `nil`
        /// for none; replaces the one set before. Like a protection it monitors while set, so it
        /// is read and held as `start`.
        case screenCaptureEscalation(MonitorPolicy?, owner: MonitorOwner? = nil)
        /// `setPolicyKeys` (rule 27): relaxation allowed or not, and the verified record of a
        /// previous launch.
        case policyKeys(PolicyKeys)
        /// The device's attributes for the rules' `when` (rule 26), the library's and the app's.
        case policyAttributes([String: String])
        /// A document the facade verified (rule 26); the engine decides the rest.
        case applyPolicy(PolicyDocument, text: [UInt8])
        /// A document the facade refused (rule 26), reported as the engine's refusals are.
        case policyRejected(PolicyRefusal)
        /// The wall clock was changed (the simulator's `clock`): the rule in force is chosen again.
        case wallClockChanged
        /// The app set a coaching source of this kind, or removed it with `nil` (rule 31); the
        /// source itself stays in the core.
        case coachingSource(CallMonitor.CoachingSource?)
        /// The coaching budget, in nanoseconds, already clamped (rule 31); from the next question.
        case coachingBudget(Int64)
        /// The code's coaching policy, its seconds already clamped (rule 32).
        case coachingPolicy(CallMonitor.CoachingPolicy)

        // MARK: From the ports

        /// A batch of call snapshots from the call source: changes, or the complete list.
        case calls(CallBatch, run: UInt64 = 0)
        /// The app entered (`true`) or left (`false`) the foreground.
        case appState(isForeground: Bool, run: UInt64 = 0)
        /// The screen started (`true`) or stopped (`false`) being captured: recorded, mirrored or
        /// shared. Recorded in every phase, so a start knows the state it starts in.
        case screenCapture(isCaptured: Bool, run: UInt64 = 0)
        /// A scheduled wake-up fired.
        case wake(run: UInt64 = 0)
        /// The remote policy's wake-up fired: its `nbf` or `exp` (rule 28).
        case policyWake(run: UInt64 = 0)
        /// The verifier answered question `request` (rule 23), from any thread, any number of
        /// times; stale or repeated answers are ignored.
        case verdictArrived(request: UInt64, CallMonitorCallVerdict)
        /// The budget of question `request` ran out (rule 23).
        case verdictBudgetExpired(request: UInt64)
        /// The coaching source answered question `request` (rule 31), from any thread, any number
        /// of times; only the first answer to an open question counts.
        case coachingAnswered(request: UInt64, CallMonitor.CoachingAnswer)
        /// The budget of coaching question `request` ran out (rule 33).
        case coachingBudgetExpired(request: UInt64)
        /// The delegate set turned out released (rule 13: a change of delegate to none). The core
        /// also sends it to itself when it finds the release while carrying out an action, so
        /// that the engine hears of it once the actions in progress are done.
        case delegateReleased
    }

    /// What the app-state and capture sources say at the moment a command that starts monitoring
    /// is handled: the engine reads them then (through the closure it is handed), so an event
    /// that begins at once is drawn in the right state and under the right capture rule.
    package struct Sensors: Sendable {
        package var isForeground: Bool
        package var isCaptured: Bool

        package init(isForeground: Bool, isCaptured: Bool) {
            self.isForeground = isForeground
            self.isCaptured = isCaptured
        }
    }

    /// One of the app's objects that a setting hands over (its delegate, a closure, its
    /// verifier, the dialog's texts), passed on untouched in the ``Action/install(_:)`` action to
    /// the part of the core that uses it. The engine only reads whether one is set (and the
    /// delegate's identity, rule 13).
    ///
    /// In debug builds (for the tests' comparisons) equal when it installs the same thing as far
    /// as anyone can tell: closures cannot be compared, so two are equal when both are set or both
    /// removed; the delegate by the identity the engine read.
    package enum AppObject: Sendable {
        /// `identity`: the delegate's identity as the engine read it, with the box, in the same
        /// step: a delegate released in between is then still noticed as released.
        case delegate(WeakDelegate, identity: ObjectIdentifier?)
        case callback((@MainActor (CallEvent) -> Void)?)
        case strings(CallMonitorStrings)
        case beforeForceExit((@MainActor () -> Void)?, budgetNanoseconds: Int64)
        case outcomeHandler((@MainActor (CallMonitorOutcome) -> Void)?)
        case verifier(VerifierBox?)
    }
}

extension MonitorEngine {
    /// The settings a command can make; a later call to the same setter overrides an earlier
    /// one. The order of the cases is the order a folded queue applies them in; the raw value is
    /// the slot's index in the fold, and comes only from here.
    enum SettingSlot: Int, CaseIterable, Sendable {
        case callDetection, delegate, callback, strings, beforeForceExit, outcomeHandler, refusesAcknowledgementWhileScreenCaptured,
             screenCaptureEscalation
        case callVerifier, callVerifierBudget
        case coachingSource, coachingBudget, coachingPolicy
        case policyKeys, policyAttributes
    }
}

extension MonitorEngine.Input {
    /// The setting this command makes, or `nil` for anything else. Exhaustive, so a new command
    /// cannot be added without saying whether it is a setting (and then which slot it fills).
    var settingSlot: MonitorEngine.SettingSlot? {
        switch self {
        case .callDetection: .callDetection
        case .setDelegate: .delegate
        case .setCallback: .callback
        case .setStrings: .strings
        case .setBeforeForceExit: .beforeForceExit
        case .setOutcomeHandler: .outcomeHandler
        case .refusesAcknowledgementWhileScreenCaptured: .refusesAcknowledgementWhileScreenCaptured
        case .setCallVerifier: .callVerifier
        case .verdictBudget: .callVerifierBudget
        case .screenCaptureEscalation: .screenCaptureEscalation
        case .policyKeys: .policyKeys
        case .policyAttributes: .policyAttributes
        case .coachingSource: .coachingSource
        case .coachingBudget: .coachingBudget
        case .coachingPolicy: .coachingPolicy
        case .coachingAnswered, .coachingBudgetExpired,
             .start, .observe, .stop, .beginProtection, .endProtection, .exempt, .removeExemption, .userAction, .calls, .appState,
             .screenCapture, .wake, .verdictArrived, .verdictBudgetExpired, .delegateReleased, .applyPolicy,
             .policyRejected, .wallClockChanged, .policyWake:
            nil
        }
    }
}

extension WeakDelegate {
    /// The delegate's identity, read once per step (rule 13 compares identities).
    var identity: ObjectIdentifier? { object.map { ObjectIdentifier($0) } }
}

#if DEBUG
// Equality that only the tests use, left out of release builds (CONTRIBUTING, "Binary size").
extension MonitorEngine.Sensors: Equatable {}
extension MonitorEngine.AppObject: Equatable {
    package static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case let (.delegate(_, a), .delegate(_, b)): a == b
        case let (.callback(a), .callback(b)): (a == nil) == (b == nil)
        case let (.strings(a), .strings(b)): a.language == b.language
        case let (.beforeForceExit(a, x), .beforeForceExit(b, y)): (a == nil) == (b == nil) && x == y
        case let (.outcomeHandler(a), .outcomeHandler(b)): (a == nil) == (b == nil)
        case let (.verifier(a), .verifier(b)): (a == nil) == (b == nil)
        default: false
        }
    }
}
#endif

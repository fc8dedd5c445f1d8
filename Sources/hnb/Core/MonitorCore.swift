// The executor behind the facade: it owns the engine on the main actor, feeds it its inputs and
// hands each action it returns, in order, to the part that carries it out. It decides nothing.

import Foundation

/// The main-actor half of ``CallMonitor``: the engine and the parts that carry out its actions,
/// one job each: the command queue (order and re-entrancy), the sources, the wake-up, the
/// verifier's question, the surfaces, the outcomes, the exit and the published signals.
@MainActor
final class MonitorCore {
    let scheduler: any MonitorScheduler
    private let queue: CommandQueue
    private let sources: SourceRunner
    private let wakeUp: WakeUpTimer
    private let policyWakeUp: WakeUpTimer
    private let policies: PolicyDesk
    private let asker: VerdictAsker
    /// The coaching source and its questions (rules 31 and 33); the facade sets the source here.
    nonisolated let coaching: CoachingAsker
    private let surfaces: SurfaceDriver
    private let outcomes: OutcomeDesk
    private let exitSequence: ExitSequence
    private let signals: SignalPublisher
    private var engine = MonitorEngine()
    /// The token of the presentation on screen as the last step left it (its result, not a
    /// read of the engine), `nil` when none is.
    private var shownToken: UInt64?
    /// The wall clock, read once per step for the engine to stamp on events and outcomes.
    private let wallClock: @Sendable () -> Date

    /// The risk signals, readable from any thread.
    nonisolated let board: SignalBoard
    /// Every call event, for ``CallMonitor/events``.
    nonisolated let eventFeed = Broadcaster<CallEvent>()
    /// Every outcome, for ``CallMonitor/outcomes``.
    nonisolated let outcomeFeed = Broadcaster<CallMonitorOutcome>()
    /// The observer of every step, if any (the recorder of hnbRecording, issue 39); set and
    /// cleared from any thread.
    nonisolated let stepObserver = Locked<(any MonitorStepObserver)?>(nil)
    /// Numbers the protections (rule 18), on the caller's thread.
    nonisolated let protectionIDs = ProtectionIDs()
    /// The policy product's port (issue 39; PolicyPort.swift), plugged in from any thread.
    nonisolated let policyPort = Locked<(any PolicyPort)?>(nil)
    /// The monitor's ``CallMonitorState``, kept here so that it is made once (`AnyObject`: the
    /// type needs iOS 17).
    var stateObject: AnyObject?

    nonisolated init(
        callSource: any CallSource,
        appState: any AppStateSource,
        scheduler: any MonitorScheduler,
        dialog: BuiltInDialog,
        terminator: any AppTerminator,
        screenCapture: any ScreenCaptureSource,
        wallClock: @escaping @Sendable () -> Date
    ) {
        self.scheduler = scheduler
        let queue = CommandQueue()
        let post: @Sendable (MonitorEngine.Input) -> Void = { queue.post($0) }
        let submit: @MainActor (MonitorEngine.Input) -> Void = { queue.submit($0) }
        self.queue = queue
        sources = SourceRunner(callSource: callSource, appState: appState, screenCapture: screenCapture, deliver: post)
        wakeUp = WakeUpTimer(scheduler: scheduler, deliver: submit)
        policyWakeUp = WakeUpTimer(scheduler: scheduler, policy: true, deliver: submit)
        policies = PolicyDesk(port: policyPort)
        asker = VerdictAsker(scheduler: scheduler, deliver: submit, post: post)
        coaching = CoachingAsker(scheduler: scheduler, deliver: submit, post: post)
        surfaces = SurfaceDriver(dialog: dialog, now: { scheduler.now }) { submit(.delegateReleased) }
        self.wallClock = wallClock
        outcomes = OutcomeDesk(feed: outcomeFeed)
        exitSequence = ExitSequence(terminator: terminator)
        if let clock = scheduler as? any AnyThreadClock {
            let read: @Sendable () -> Int64 = { clock.anyThreadNow }
            board = SignalBoard(clock: read)
        } else {
            board = SignalBoard(clock: nil)
        }
        signals = SignalPublisher(board: board, scheduler: scheduler, eventFeed: eventFeed)
        queue.process = { [weak self] command in self?.process(command) }
    }

    /// Applies `input` now if this is the main thread (after whatever other threads sent before
    /// it), else leaves it in the mailbox for the main thread, where call and app-state reports
    /// merge with the one waiting.
    nonisolated func post(_ input: MonitorEngine.Input) {
        queue.post(input)
    }

    /// Carries out `input` and returns the actions its step carried out (none when it was
    /// dropped).
    @discardableResult
    private func process(_ input: MonitorEngine.Input) -> [MonitorEngine.Action] {
        // A released delegate is a change of delegate; the engine hears of it before anything
        // else happens, and decides what it means (rule 13).
        if surfaces.takeRelease() { run(.delegateReleased) }
        // A report from a source run or a wake-up that is over is dropped, and so is a reminder
        // of a release already reported.
        guard sources.isCurrent(input), wakeUp.accept(input), policyWakeUp.accept(input), surfaces.accept(input) else { return [] }
        return run(input)
    }

    @discardableResult
    private func run(_ input: MonitorEngine.Input) -> [MonitorEngine.Action] {
        // An owner let go of in this step (`stopSources`) lives to the step's end, so that the
        // app code the step runs after it (outcome handler, hook) still finds its monitor.
        let ownerThroughStep = sources.owner
        let observer = stepObserver.value
        let now = scheduler.now
        // The observer is told what the engine read of the app and capture state, and whether a
        // tap is for the presentation on screen; neither read changes what the engine decides.
        var sensed: MonitorEngine.Sensors?
        let shownBefore = shownToken
        let step = engine.step(input, now: now, wallClock: wallClock()) {
            let read = sources.sensors
            sensed = read
            return read
        }
        shownToken = step.shownToken
        observer?.step(input, now: now, sensed: sensed, shownToken: shownBefore, actions: step.actions)
        for action in step.actions {
            // The live terminator does not return: the observer (a recording's exit line) first.
            if case .exit = action { observer?.beforeExit() }
            perform(action)
        }
        signals.publish(step.signals)
        withExtendedLifetime(ownerThroughStep) {}
        return step.actions
    }

    private func perform(_ action: MonitorEngine.Action) {
        switch action {
        case .emit(let event): signals.emit(event)
        case .scene(let scene): show(scene)
        case .dismiss(let on): surfaces.dismiss(on: on)
        case .schedule(let deadline): wakeUp.schedule(at: deadline)
        case .cancelWakeUp: wakeUp.cancel()
        case .startSources(let callDetection, let owner): sources.startSources(callDetection: callDetection, owner: owner)
        case .startCallSource: sources.startCallSource()
        case .stopCallSource: sources.stopCallSource()
        case .refreshCalls: sources.refreshCallSource()
        case .stopSources(let callSource): sources.stopSources(callSource: callSource)
        case .outcome(let outcome): outcomes.deliver(witnessed(outcome))
        case .armExitWatchdog(let code): exitSequence.armWatchdog(code: code)
        case .ask(let request, let budgetEndsAt): asker.ask(request: request, budgetEndsAt: budgetEndsAt)
        case .cancelAsk: asker.cancel()
        case .askCoaching(let question, let budgetEndsAt): coaching.ask(question, budgetEndsAt: budgetEndsAt)
        case .reportCoaching(let request, let status): coaching.report(request: request, status)
        case .coachingInOutcome(let request, let outcome): coaching.recorded(request: request, inOutcome: outcome)
        case .exit(let code): exitSequence.exit(code: code)
        case .install(let object): install(object)
        case .schedulePolicyWake(let deadline): policyWakeUp.schedule(at: deadline)
        case .cancelPolicyWake: policyWakeUp.cancel()
        case .persistPolicy(let record): policies.persist(record)
        case .policy(let event): policies.report(event, at: scheduler.now)
        }
    }

    /// Issue 30: the engine's outcome with what the person saw, which only the surfaces know.
    private func witnessed(_ outcome: CallMonitorOutcome) -> CallMonitorOutcome {
        var outcome = outcome
        (outcome.language, outcome.shown) = surfaces.takeShown()
        return outcome
    }

    /// A scene to show; a verdict recorded is logged with its instant first (the simulator's
    /// transcript).
    private func show(_ scene: MonitorEngine.Scene) {
        if case .verdict = scene.change { signals.recorded(scene.verdict) }
        surfaces.show(scene, onUserAction: userAction(for: scene.token))
    }

    /// Gives what the app handed over with a setting to the part that uses it.
    private func install(_ object: MonitorEngine.AppObject) {
        switch object {
        case .delegate(let box, let identity): surfaces.setDelegate(box, identity: identity)
        case .callback(let callback): signals.setCallback(callback)
        case .strings(let strings): surfaces.setStrings(strings)
        case .beforeForceExit(let hook, let budget): exitSequence.setBeforeForceExit(hook, budgetNanoseconds: budget)
        case .outcomeHandler(let handler): outcomes.setHandler(handler)
        case .verifier(let box): asker.verifier = box?.verifier
        }
    }

    /// Registers `observer` for every published snapshot until it returns `false`.
    func addSnapshotObserver(_ observer: @escaping @MainActor (RiskSnapshot) -> Bool) {
        signals.addSnapshotObserver(observer)
    }

    /// Told of every verdict the engine records, with the instant: for the simulator's transcript.
    var verdictObserver: (@MainActor (CallMonitorCallVerdict, Int64) -> Void)? {
        get { signals.verdictObserver }
        set { signals.verdictObserver = newValue }
    }

    /// Whether a command is in progress (a call from inside a delegate method or callback).
    var isBusy: Bool { queue.isBusy }

    /// Rule 26: carries out `input` (a verified document, or its refusal) now, after what other
    /// threads sent before it, and returns the document event of its own step, read from the
    /// actions that step returned; `nil` when a command is in progress (nothing is carried out)
    /// or when the step reported no document event (the monitor has exited).
    func applyPolicyNow(_ input: MonitorEngine.Input) -> MonitorEngine.PolicyEvent? {
        let actions = queue.runNow(input) { process($0) }
        return actions?.lazy.compactMap { action -> MonitorEngine.PolicyEvent? in
            if case .policy(let event) = action { event } else { nil }
        }.first
    }

    /// The code's policy as the engine reads it for rule 26: the app's manifest (issue 38).
    func codeManifest() -> PolicyManifest { engine.codeManifest() }

    /// Told of every document event with the instant: for the simulator's transcript.
    var policyObserver: (@MainActor (MonitorEngine.PolicyEvent, Int64) -> Void)? {
        get { policies.observer }
        set { policies.observer = newValue }
    }

    /// A tap that reached no monitor code (the simulator's, with nothing to press): the step
    /// observer, if any, is told, at the clock's now; the engine hears of nothing.
    func tapWithNothingToPress() {
        stepObserver.value?.tapWithNothingToPress(now: scheduler.now, presentationShown: shownToken != nil)
    }

    /// The clock now, where it can be read on this thread (the main thread, or a clock readable
    /// on any thread): time 0 of an observer starting here.
    nonisolated func clockNowIfReadable() -> Int64? {
        if MainQueue.isCurrent {
            let now: Int64 = MainActor.assumeIsolated { scheduler.now }
            return now
        }
        return (scheduler as? any AnyThreadClock)?.anyThreadNow
    }

    func sendableUserAction() -> (@Sendable () -> Void)? {
        shownToken.map { userAction(for: $0) }
    }

    /// The closure handed out with one presentation. It may be called from any thread, any number
    /// of times; the engine ignores it once the presentation is gone (rule 12).
    private func userAction(for token: UInt64) -> @Sendable () -> Void {
        { [weak self] in
            self?.post(.userAction(token: token))
        }
    }
}

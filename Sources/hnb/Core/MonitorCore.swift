// The executor behind the facade: it owns the engine on the main actor, feeds it its inputs and
// hands each action it returns, in order, to the part that carries it out. It decides nothing.

import Foundation

/// The main-actor half of ``CallMonitor``: the engine and the parts that carry out its actions,
/// one job each: the command queue (order and re-entrancy), the sources, the wake-up, the
/// verifier's question, the surfaces, the outcomes, the exit and the published signals.
@MainActor
final class MonitorCore {
    private let scheduler: any MonitorScheduler
    private let queue: CommandQueue
    private let sources: SourceRunner
    private let wakeUp: WakeUpTimer
    private let asker: VerdictAsker
    private let surfaces: SurfaceDriver
    private let outcomes: OutcomeDesk
    private let exitSequence: ExitSequence
    private let signals: SignalPublisher
    private var engine = MonitorEngine()

    /// The risk signals, readable from any thread.
    nonisolated let board: SignalBoard
    /// Every call event, for ``CallMonitor/events``.
    nonisolated let eventFeed = Broadcaster<CallEvent>()
    /// Every outcome, for ``CallMonitor/outcomes``.
    nonisolated let outcomeFeed = Broadcaster<CallMonitorOutcome>()
    /// Numbers the protections (rule 18), on the caller's thread.
    nonisolated let protectionIDs = ProtectionIDs()
    /// The monitor's ``CallMonitorState``, kept here so that it is made once (`AnyObject`: the
    /// type needs iOS 17).
    var stateObject: AnyObject?
    /// The monitor that owns this core, held from the engine's `startSources` to its
    /// `stopSources`, so that dropping it cannot stop the policy.
    private var retainedOwner: MonitorOwner?

    nonisolated init(
        callSource: any CallSource,
        appState: any AppStateSource,
        scheduler: any MonitorScheduler,
        defaultUI: DefaultSecurityUI,
        terminator: any AppTerminator,
        screenCapture: any ScreenCaptureSource,
        wallClock: @escaping @Sendable () -> Date
    ) {
        self.scheduler = scheduler
        let queue = CommandQueue()
        let post: @Sendable (Delivery) -> Void = { queue.post(.delivery($0)) }
        let submit: @MainActor (Delivery) -> Void = { queue.submit(.delivery($0)) }
        self.queue = queue
        sources = SourceRunner(callSource: callSource, appState: appState, screenCapture: screenCapture, deliver: post)
        wakeUp = WakeUpTimer(scheduler: scheduler, deliver: submit)
        asker = VerdictAsker(scheduler: scheduler, deliver: submit, post: post)
        surfaces = SurfaceDriver(defaultUI: defaultUI) { submit(.delegateReleased) }
        outcomes = OutcomeDesk(wallClock: wallClock, feed: outcomeFeed)
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

    /// Applies `call` now if this is the main thread (after whatever other threads sent before
    /// it), else leaves it in the mailbox for the main thread.
    nonisolated func post(_ call: APICall) {
        queue.post(.api(call))
    }

    /// Applies `delivery` now if this is the main thread, else leaves it in the mailbox, where
    /// call and app-state deliveries merge with the one waiting.
    nonisolated func post(_ delivery: Delivery) {
        queue.post(.delivery(delivery))
    }

    private func process(_ command: Command) {
        // A released delegate is a change of delegate; the engine hears of it before anything
        // else happens, and decides what it means (rule 13).
        if surfaces.takeRelease() { run(.delegateChanged(to: nil)) }
        switch command {
        case .api(let call): process(call)
        case .delivery(let delivery): process(delivery)
        }
    }

    private func process(_ call: APICall) {
        switch call {
        case .start(let policy, let owner):
            // Read before the start, as the app state is, so an event that begins at once is
            // drawn under the right capture rule.
            run(.screenCapture(isCaptured: sources.isCaptured))
            run(.start(policy, isForeground: sources.isForeground, owner: MonitorOwner(object: owner)))
        case .startObserving(let owner):
            run(.screenCapture(isCaptured: sources.isCaptured))
            run(.observe(isForeground: sources.isForeground, owner: MonitorOwner(object: owner)))
        case .beginProtection(let id, let policy, let owner):
            run(.screenCapture(isCaptured: sources.isCaptured))
            run(.beginProtection(id: id, policy, isForeground: sources.isForeground, owner: MonitorOwner(object: owner)))
        case .endProtection(let id): run(.endProtection(id: id))
        case .exempt(let id): run(.exempt(id))
        case .removeExemption(let id): run(.removeExemption(id))
        case .stop: run(.stop)
        case .setDelegate(let box):
            let newDelegate = box.object
            surfaces.setDelegate(newDelegate)
            run(.delegateChanged(to: newDelegate.map { ObjectIdentifier($0) }))
        case .setCallback(let newCallback): signals.setCallback(newCallback)
        case .setStrings(let strings): surfaces.setStrings(strings)
        case .setBeforeForceExit(let hook, let budget):
            exitSequence.setBeforeForceExit(hook, budgetNanoseconds: budget)
            run(.beforeForceExit(isSet: hook != nil))
        case .setCallDetection(let enabled): run(.callDetection(enabled))
        case .setOutcomeHandler(let handler):
            outcomes.setHandler(handler)
            run(.outcomeHandler(isSet: handler != nil))
        case .setRefusesAcknowledgementWhileScreenCaptured(let on): run(.refusesAcknowledgementWhileScreenCaptured(on))
        case .setCallVerifier(let box):
            asker.verifier = box?.verifier
            run(.verifier(isSet: box != nil))
        case .setCallVerifierBudget(let budget): run(.verdictBudget(budget))
        case .setScreenCaptureEscalation(let policy, let owner):
            // Rule 25: set, it monitors like a protection, so it starts as a protection does.
            run(.screenCapture(isCaptured: sources.isCaptured))
            run(.screenCaptureEscalation(policy, isForeground: sources.isForeground, owner: MonitorOwner(object: owner)))
        case .userAction(let token): run(.userAction(token: token))
        }
    }

    private func process(_ delivery: Delivery) {
        // A delivery from a source run or a wake-up that is over is dropped.
        guard sources.isCurrent(delivery), wakeUp.accept(delivery) else { return }
        switch delivery {
        case .capture(_, let isCaptured): run(.screenCapture(isCaptured: isCaptured))
        case .calls(_, let batch): run(.calls(batch))
        case .appState(_, let isForeground): run(.appState(isForeground: isForeground))
        // Handled in `process(_: Command)`, before every command.
        case .delegateReleased: break
        case .wake: run(.wake)
        // The engine decides whether this answer counts (rule 23).
        case .verdict(let request, let verdict): run(.verdictArrived(request: request, verdict))
        case .verdictBudget(let request): run(.verdictBudgetExpired(request: request))
        }
    }

    private func run(_ input: MonitorEngine.Input) {
        // An owner let go of in this step (`stopSources`) lives to the step's end, so that the
        // app code the step runs after it (outcome handler, hook) still finds its monitor.
        let ownerThroughStep = retainedOwner
        let actions = engine.handle(input, now: scheduler.now)
        for action in actions {
            perform(action)
        }
        signals.publish(engine.signalsInPlace())
        withExtendedLifetime(ownerThroughStep) {}
    }

    private func perform(_ action: MonitorEngine.Action) {
        switch action {
        case .emit(let event): signals.emit(event)
        case .present(let flow, let remaining, let token, let refused, let verdict, let tellsVerdict, let beginsEvent, let on):
            if beginsEvent { outcomes.eventBegan() }
            surfaces.present(
                flow, remaining: remaining, refused: refused, verdict: verdict, tellsVerdict: tellsVerdict, on: on,
                onUserAction: userAction(for: token)
            )
        case .tick(let remaining, let on): surfaces.tick(remaining: remaining, on: on)
        case .dismiss(let on): surfaces.dismiss(on: on)
        case .schedule(let deadline): wakeUp.schedule(at: deadline)
        case .cancelWakeUp: wakeUp.cancel()
        case .startSources(let callDetection, let owner):
            retainedOwner = owner
            sources.startSources(callDetection: callDetection)
        case .startCallSource: sources.startCallSource()
        case .stopCallSource: sources.stopCallSource()
        case .stopSources(let callSource):
            retainedOwner = nil
            sources.stopSources(callSource: callSource)
        case .outcome(let ended): outcomes.deliver(ended)
        case .armExitWatchdog(let code): exitSequence.armWatchdog(code: code)
        case .acknowledgementRefused(let refused): surfaces.setRefused(refused)
        case .ask(let request, let budgetEndsAt): asker.ask(request: request, budgetEndsAt: budgetEndsAt)
        case .cancelAsk: asker.cancel()
        case .verdict(let verdict, let on):
            signals.recorded(verdict)
            surfaces.show(verdict, on: on)
        case .exit(let code): exitSequence.exit(code: code)
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

    func sendableUserAction() -> (@Sendable () -> Void)? {
        engine.shownEvent.map { userAction(for: $0.token) }
    }

    /// The closure handed out with one presentation. It may be called from any thread, any number
    /// of times; the engine ignores it once the presentation is gone (rule 12).
    private func userAction(for token: UInt64) -> @Sendable () -> Void {
        { [weak self] in
            self?.post(.userAction(token: token))
        }
    }
}

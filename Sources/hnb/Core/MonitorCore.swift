// The executor behind the facade: it owns the engine and the ports on the main actor, feeds the
// engine its inputs and carries out the actions it returns, in order.

import Foundation

/// The main-actor half of ``CallMonitor``: it owns the engine and the ports, queues commands so
/// that a delegate or callback calling back into the monitor cannot interleave with the actions
/// being carried out, and performs the engine's actions in order.
@MainActor
final class MonitorCore {
    /// Where the current security event is drawn.
    private enum Surface {
        case delegate(WeakDelegate)
        case defaultUI
    }

    private let callSource: any CallSource
    private let appState: any AppStateSource
    private let scheduler: any MonitorScheduler
    private let defaultUI: DefaultSecurityUI
    private let terminator: any AppTerminator
    private let screenCapture: any ScreenCaptureSource
    private let wallClock: @Sendable () -> Date
    /// The app's call verifier (rule 23), asked when the engine says so.
    private var verifier: (any CallVerifying)?
    /// The budget timer of the question in flight.
    private var verdictBudget: (any ScheduledWork)?

    /// The risk signals, readable from any thread.
    nonisolated let board: SignalBoard
    /// Every call event, for ``CallMonitor/events``.
    nonisolated let eventFeed = Broadcaster<CallEvent>()
    /// Every outcome, for ``CallMonitor/outcomes``.
    nonisolated let outcomeFeed = Broadcaster<CallMonitorOutcome>()
    private var outcomeHandler: (@MainActor (CallMonitorOutcome) -> Void)?
    /// The wall-clock time the event on screen was first shown: the one thing its outcome needs
    /// that the engine, which has no wall clock, does not know.
    private var eventStartedDate: Date?
    /// Told of each snapshot as it is published (``CallMonitorState``).
    private var snapshotObservers: [UInt64: @MainActor (RiskSnapshot) -> Bool] = [:]
    /// Armed when the force exit's outcome is delivered to a handler; disarmed at the exit.
    private var exitWatchdog: ExitWatchdog?
    /// The monitor's ``CallMonitorState``, kept here so that it is made once (`AnyObject`: the
    /// type needs iOS 17).
    var stateObject: AnyObject?
    /// What ``publish()`` last published (the board's copy, without taking its lock).
    private var lastPublished = RiskSnapshot()
    private var nextObserverID: UInt64 = 0

    private var engine = MonitorEngine()
    private weak var delegate: (any CallMonitorDelegate)?
    /// Whether the engine was last told that a delegate is set; when the weak reference turns
    /// out `nil` while this is true, the delegate was released, and the engine hears of it.
    private var engineKnowsDelegate = false
    private var callback: (@MainActor (CallEvent) -> Void)?
    private var beforeForceExit: (@MainActor () -> Void)?
    private var beforeForceExitBudget = ExitWatchdog.defaultBudget
    /// The monitor that owns this core, held while monitoring so that dropping it cannot stop
    /// the policy (a released monitor would otherwise go silent with a call live).
    private var retainedOwner: CallMonitor?
    /// The owner of the start being processed, retained when its sources start.
    private var startingOwner: CallMonitor?
    /// Whether the sources run (between the engine's `startSources` and `stopSources`): while
    /// they do, the monitor is monitoring and its owner is held.
    private var sourcesRunning = false
    private var callSourceRunning = false
    private var surface: Surface?
    private var wakeUp: (any ScheduledWork)?
    /// Bumped whenever the sources stop or restart, so a delivery from an earlier run is dropped.
    private var sourceGeneration: UInt64 = 0
    /// The same for the call source, which also starts and stops alone (rule 22).
    private var callGeneration: UInt64 = 0
    /// Bumped whenever the wake-up changes, so a timer that fires after being replaced is dropped.
    private var wakeGeneration: UInt64 = 0

    private var inbox: [Command] = []
    private var draining = false
    /// What other threads sent and the main thread has not applied yet, coalesced.
    private let mailbox = Mailbox()
    /// Numbers the protections (rule 18), on the caller's thread.
    nonisolated let protectionIDs = ProtectionIDs()

    nonisolated init(
        callSource: any CallSource,
        appState: any AppStateSource,
        scheduler: any MonitorScheduler,
        defaultUI: DefaultSecurityUI,
        terminator: any AppTerminator,
        screenCapture: any ScreenCaptureSource,
        wallClock: @escaping @Sendable () -> Date
    ) {
        self.callSource = callSource
        self.appState = appState
        self.scheduler = scheduler
        self.defaultUI = defaultUI
        self.terminator = terminator
        self.screenCapture = screenCapture
        self.wallClock = wallClock
        if let clock = scheduler as? any AnyThreadClock {
            let read: @Sendable () -> Int64 = { clock.anyThreadNow }
            board = SignalBoard(clock: read)
        } else {
            board = SignalBoard(clock: nil)
        }
    }

    /// Applies `call` now if this is the main thread (after whatever other threads sent before
    /// it), else leaves it in the mailbox for the main thread.
    nonisolated func post(_ call: APICall) {
        post(.api(call))
    }

    /// Applies `delivery` now if this is the main thread, else leaves it in the mailbox, where
    /// call and app-state deliveries merge with the one waiting.
    nonisolated func post(_ delivery: Delivery) {
        post(.delivery(delivery))
    }

    private nonisolated func post(_ command: Command) {
        if MainQueue.isCurrent {
            MainActor.assumeIsolated {
                drainMailbox()
                submit(command)
            }
        } else if mailbox.post(command) {
            scheduleDrain()
        }
    }

    /// One main-queue block per burst, however many commands the burst holds.
    private nonisolated func scheduleDrain() {
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated { drainMailbox() }
        }
    }

    private func drainMailbox() {
        let taken = mailbox.takeAll()
        guard !taken.isEmpty else { return }
        // All of it joins the inbox at once: a command taken here may cause a nested drain (a
        // source that delivers while it starts), whose newer commands must come after these.
        submit(contentsOf: taken)
    }

    func submit(_ command: Command) {
        submit(contentsOf: CollectionOfOne(command))
    }

    private func submit(contentsOf commands: some Collection<Command>) {
        inbox.append(contentsOf: commands)
        // A command sent from inside a delegate method or the callback waits until the actions
        // in progress are done, so the engine's output is always carried out in its own order.
        guard !draining else { return }
        draining = true
        defer { draining = false }
        var next = 0
        while next < inbox.count {
            let command = inbox[next]
            next += 1
            process(command)
        }
        inbox.removeAll(keepingCapacity: true)
    }

    private func process(_ command: Command) {
        // A released delegate is a change of delegate; the engine hears of it before anything
        // else happens, and decides what it means (rule 13).
        if engineKnowsDelegate, delegate == nil {
            engineKnowsDelegate = false
            run(.delegateChanged(isSet: false))
        }
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
            run(.screenCapture(isCaptured: screenCapture.isCaptured))
            startingOwner = owner
            run(.start(policy, isForeground: appState.isForeground))
            startingOwner = nil
        case .startObserving(let owner):
            run(.screenCapture(isCaptured: screenCapture.isCaptured))
            startingOwner = owner
            run(.observe(isForeground: appState.isForeground))
            startingOwner = nil
        case .beginProtection(let id, let policy, let owner):
            run(.screenCapture(isCaptured: screenCapture.isCaptured))
            startingOwner = owner
            run(.beginProtection(id: id, policy, isForeground: appState.isForeground))
            startingOwner = nil
        case .endProtection(let id):
            run(.endProtection(id: id))
        case .exempt(let id):
            run(.exempt(id))
        case .removeExemption(let id):
            run(.removeExemption(id))
        case .stop:
            run(.stop)
        case .setDelegate(let box):
            let newDelegate = box.object
            guard newDelegate !== delegate else { return }
            delegate = newDelegate
            engineKnowsDelegate = newDelegate != nil
            run(.delegateChanged(isSet: newDelegate != nil))
        case .setCallback(let newCallback):
            callback = newCallback
        case .setStrings(let strings):
            defaultUI.setStrings(strings)
        case .setBeforeForceExit(let hook, let budget):
            beforeForceExit = hook
            beforeForceExitBudget = budget
        case .setCallDetection(let enabled):
            run(.callDetection(enabled))
        case .setOutcomeHandler(let handler):
            outcomeHandler = handler
        case .setRefusesAcknowledgementWhileScreenCaptured(let on):
            run(.refusesAcknowledgementWhileScreenCaptured(on))
        case .setCallVerifier(let box):
            verifier = box?.verifier
            run(.verifier(isSet: box != nil))
        case .setCallVerifierBudget(let budget):
            run(.verdictBudget(budget))
        case .setScreenCaptureEscalation(let policy, let owner):
            // Rule 25: set, it monitors like a protection, so it starts as a protection does.
            run(.screenCapture(isCaptured: screenCapture.isCaptured))
            startingOwner = owner
            run(.screenCaptureEscalation(policy, isForeground: appState.isForeground))
            startingOwner = nil
        case .userAction(let token):
            run(.userAction(token: token))
        }
    }

    private func process(_ delivery: Delivery) {
        switch delivery {
        case .capture(let generation, let isCaptured):
            guard generation == sourceGeneration else { return }
            run(.screenCapture(isCaptured: isCaptured))
        case .calls(let generation, let batch):
            guard generation == callGeneration else { return }
            run(.calls(batch))
        case .appState(let generation, let isForeground):
            guard generation == sourceGeneration else { return }
            run(.appState(isForeground: isForeground))
        case .delegateReleased:
            // Handled above, before every command.
            break
        case .wake(let generation):
            guard generation == wakeGeneration else { return }
            wakeUp = nil
            run(.wake)
        case .verdict(let request, let verdict):
            // The engine decides whether this answer counts (rule 23).
            run(.verdictArrived(request: request, verdict))
        case .verdictBudget(let request):
            run(.verdictBudgetExpired(request: request))
        }
    }

    private func run(_ input: MonitorEngine.Input) {
        let actions = engine.handle(input, now: scheduler.now)
        for action in actions {
            perform(action)
        }
        // Stopped or exited: nothing holds the monitor any more but the app.
        if !sourcesRunning { retainedOwner = nil }
        publish()
    }

    private func perform(_ action: MonitorEngine.Action) {
        switch action {
        case .emit(let event):
            callback?(event)
            eventFeed.yield(event)
        case .present(let flow, let remaining, let token, let refused, let verdict, let on):
            let onUserAction = userAction(for: token)
            if eventStartedDate == nil { eventStartedDate = wallClock() }
            switch on {
            case .delegate:
                if let delegate {
                    surface = .delegate(WeakDelegate(delegate))
                    delegate.callMonitorDidDetectCall(flow: flow, initialRemaining: remaining, onUserAction: onUserAction)
                    // Rule 24: a delegate that takes over an event whose verdict is known hears it.
                    if verdict != .unknown, let told = delegate as? any CallMonitorVerdictDelegate {
                        told.callMonitorDidReceiveVerdict(verdict)
                    }
                } else {
                    // Released by app code earlier in this step (a callback): the engine hears
                    // of it as soon as this step's actions are done, and hands the event over.
                    surface = .delegate(WeakDelegate(nil))
                    submit(.delivery(.delegateReleased))
                }
            case .builtInDialog:
                surface = .defaultUI
                defaultUI.present(flow: flow, remaining: remaining, refused: refused, verdict: verdict, onAction: onUserAction)
            }
        case .tick(let remaining):
            switch surface {
            case .delegate(let shownOn)?: shownOn.object?.callMonitorCountdownTick(remaining)
            case .defaultUI?: defaultUI.tick(remaining: remaining)
            case nil: break
            }
        case .dismiss:
            let dismissed = surface
            surface = nil
            switch dismissed {
            case .delegate(let shownOn)?: shownOn.object?.callMonitorDidEndCall()
            case .defaultUI?: defaultUI.dismiss()
            case nil: break
            }
        case .schedule(let deadline):
            wakeUp?.cancel()
            wakeGeneration &+= 1
            let generation = wakeGeneration
            wakeUp = scheduler.schedule(at: deadline) { [weak self] in
                self?.submit(.delivery(.wake(generation: generation)))
            }
        case .cancelWakeUp:
            wakeUp?.cancel()
            wakeUp = nil
            wakeGeneration &+= 1
        case .startSources(let callDetection):
            sourcesRunning = true
            retainedOwner = startingOwner
            sourceGeneration &+= 1
            let generation = sourceGeneration
            appState.start { [weak self] isForeground in
                self?.post(.appState(generation: generation, isForeground: isForeground))
            }
            screenCapture.start { [weak self] isCaptured in
                self?.post(.capture(generation: generation, isCaptured: isCaptured))
            }
            if callDetection { startCallSource() }
        case .startCallSource:
            startCallSource()
        case .stopCallSource:
            stopCallSource()
        case .stopSources:
            sourcesRunning = false
            sourceGeneration &+= 1
            stopCallSource()
            appState.stop()
            screenCapture.stop()
        case .outcome(let ended, let exitCode):
            // Rule 16 puts the force exit's outcome before the exit: app code runs there, so the
            // watchdog that keeps a hanging hook from holding the exit back starts now.
            if let exitCode, outcomeHandler != nil, exitWatchdog == nil {
                exitWatchdog = armExitWatchdog(code: exitCode)
            }
            deliver(ended)
        case .acknowledgementRefused(let refused):
            defaultUI.setRefused(refused)
        case .ask(let request, let budgetEndsAt):
            // Rule 23: the question runs beside everything else; only its own budget timer is
            // scheduled, never the wake-up, so nothing the verifier does can move a countdown.
            verdictBudget?.cancel()
            verdictBudget = scheduler.schedule(at: budgetEndsAt) { [weak self] in
                self?.submit(.delivery(.verdictBudget(request: request)))
            }
            verifier?.ask { [weak self] verdict in
                self?.post(.verdict(request: request, verdict))
            }
        case .cancelAsk:
            verdictBudget?.cancel()
            verdictBudget = nil
        case .verdict(let verdict):
            verdictObserver?(verdict, scheduler.now)
            switch surface {
            case .delegate(let shownOn)?: (shownOn.object as? any CallMonitorVerdictDelegate)?.callMonitorDidReceiveVerdict(verdict)
            case .defaultUI?: defaultUI.setVerdict(verdict)
            case nil: break
            }
        case .exit(let code):
            // Armed at the outcome when an outcome handler runs first; the handler and the hook
            // then share one budget.
            var watchdog = exitWatchdog
            exitWatchdog = nil
            if let hook = beforeForceExit {
                if watchdog == nil { watchdog = armExitWatchdog(code: code) }
                hook()
            }
            // Too late: the watchdog has ended the app (or, in a simulation, recorded it).
            if let watchdog, !watchdog.disarm() { return }
            terminator.terminate(code: code)
        }
    }

    private func startCallSource() {
        guard !callSourceRunning else { return }
        callGeneration &+= 1
        let generation = callGeneration
        callSourceRunning = true
        callSource.start { [weak self] batch in
            self?.post(.calls(generation: generation, batch))
        }
    }

    /// Stops the call source; a delivery it sent before is dropped.
    private func stopCallSource() {
        callGeneration &+= 1
        guard callSourceRunning else { return }
        callSourceRunning = false
        callSource.stop()
    }

    /// Starts the watchdog that ends the app from its own thread once the before-exit budget is
    /// spent.
    private func armExitWatchdog(code: Int32) -> ExitWatchdog {
        let terminator = self.terminator
        return ExitWatchdog(budgetNanoseconds: beforeForceExitBudget) {
            terminator.terminateFromAnyThread(code: code)
        }
    }

    /// Completes the engine's record with what only the core knows and hands it out.
    private func deliver(_ ended: MonitorEngine.EndedEvent) {
        let startedDate = eventStartedDate ?? wallClock()
        eventStartedDate = nil
        let outcome = CallMonitorOutcome(
            ending: ended.ending, flow: ended.flow, seconds: ended.total,
            startedAt: ended.startedAt, endedAt: ended.endedAt, startedDate: startedDate, endedDate: wallClock(),
            lowestRemaining: ended.lowestRemaining, presentations: ended.presentations,
            wasScreenCaptured: ended.wasScreenCaptured, verdict: ended.verdict, verdictArrivedAt: ended.verdictAt
        )
        outcomeHandler?(outcome)
        outcomeFeed.yield(outcome)
    }

    /// Publishes what the risk getters read, and tells the state objects, when something changed.
    private func publish() {
        var snapshot = engine.signalsInPlace()
        snapshot.publishedAt = lastPublished.publishedAt
        // Unchanged signals are not published again (most steps change nothing readers see),
        // except for a scheduler whose clock readers cannot use: then `publishedAt` is their "now".
        let changed = !snapshot.sameSignals(as: lastPublished)
        guard changed || !board.hasClock else { return }
        snapshot.publishedAt = scheduler.now
        lastPublished = snapshot
        board.publish(snapshot)
        guard changed else { return }
        for (id, observer) in snapshotObservers where !observer(snapshot) { snapshotObservers[id] = nil }
    }

    /// Registers `observer` for every published snapshot until it returns `false` (its owner is
    /// gone; a main-actor object cannot unregister from its deinit).
    func addSnapshotObserver(_ observer: @escaping @MainActor (RiskSnapshot) -> Bool) {
        nextObserverID &+= 1
        snapshotObservers[nextObserverID] = observer
    }

    /// Told of every verdict the engine records, with the instant: for the simulator's transcript.
    var verdictObserver: (@MainActor (CallMonitorCallVerdict, Int64) -> Void)?

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

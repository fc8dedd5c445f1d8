// The public face of the library: the singleton the reference documents, callable from any
// thread, over a main-actor core that feeds the engine and carries out its actions.

import Foundation

/// Watches for phone calls and, while a call is live and the app is in the foreground, enforces
/// a security policy: a countdown that ends in a force exit (terminate flow) or a warning the user
/// must acknowledge after a delay (acknowledge flow).
///
/// ```swift
/// import hnb
///
/// CallMonitor.sharedInstance().startMonitoring(withTerminateIn: 10)
/// CallMonitor.sharedInstance().setCallback { event in print(event) }
/// ```
///
/// > Important: Every method may be called from any thread. A call made on the main thread takes
/// > effect before it returns (or, when made from inside a delegate method or the callback, right
/// > after that method returns); calls from other threads are applied on the main thread in the
/// > order they were made. Every delegate method and every callback runs on the main thread.
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallMonitor)
#endif
public final class CallMonitor: NSObject {
    let core: MonitorCore

    /// The monitor the app uses, wired to the platform's call detection, app lifecycle, clock,
    /// built-in dialog and force exit.
    ///
    /// The first call creates it; it is not monitoring until a `startMonitoring` call.
    #if canImport(UIKit)
    @available(iOSApplicationExtension, unavailable)
    #endif
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(sharedInstance)
    #endif
    public static func sharedInstance() -> Self {
        // `Self` is `CallMonitor` (the class is final); spelled `Self` so that Objective-C sees
        // `instancetype`.
        unsafeDowncast(shared, to: self)
    }

    #if canImport(UIKit)
    @available(iOSApplicationExtension, unavailable)
    #endif
    private static let shared = CallMonitor(ports: LivePorts.make())

    /// A monitor of your own, wired to the ports you give: for tests, previews, simulators, and
    /// embedders who manage the monitor's lifetime themselves.
    ///
    /// Nothing happens until a `startMonitoring` call. Two monitors started on the same real
    /// phone would each enforce their policy; an app should use one.
    ///
    /// > Important: A monitoring `CallMonitor` keeps itself alive until ``stopMonitoring()`` (or
    /// > the force exit), as a scheduled `Timer` does: dropping the last reference to it does not
    /// > stop the policy, because a released monitor that stopped enforcing would fail open. Call
    /// > ``stopMonitoring()`` to let it go.
    ///
    /// - Parameters:
    ///   - callSource: Reports the device's calls.
    ///   - appState: Tells whether the app is in the foreground.
    ///   - scheduler: The clock and timers.
    ///   - alertRenderer: Draws the built-in dialog when no delegate is set.
    ///   - terminator: Ends the app when the terminate flow says so.
    ///   - strings: The built-in dialog's texts.
    ///   - screenCapture: Tells whether the screen is recorded, mirrored or shared; by default
    ///     never (rules 16 and 17 then see no capture).
    ///   - wallClock: The wall-clock time stamped on outcomes for logs; `Date()` by default. All
    ///     timing uses `scheduler`, never this.
    public init(
        callSource: any CallSource,
        appState: any AppStateSource,
        scheduler: any MonitorScheduler,
        alertRenderer: any SecurityAlertRenderer,
        terminator: any AppTerminator,
        strings: CallMonitorStrings = .english,
        screenCapture: any ScreenCaptureSource = NoScreenCapture(),
        wallClock: @escaping @Sendable () -> Date = { Date() }
    ) {
        core = MonitorCore(
            callSource: callSource,
            appState: appState,
            scheduler: scheduler,
            defaultUI: DefaultSecurityUI(renderer: alertRenderer, strings: strings),
            terminator: terminator,
            screenCapture: screenCapture,
            wallClock: wallClock
        )
        super.init()
    }

    private convenience init(ports: LivePorts) {
        self.init(
            callSource: ports.callSource,
            appState: ports.appState,
            scheduler: ports.scheduler,
            alertRenderer: ports.alertRenderer,
            terminator: ports.terminator,
            strings: ports.strings,
            screenCapture: ports.screenCapture
        )
    }

    /// Starts the terminate flow: while a call is live and the app is in the foreground, a
    /// countdown with a Close App button is shown; at 0, or when the button is tapped, the app
    /// exits if the call is still live.
    ///
    /// Calling it again with the same policy (the same flow and, after clamping, the same
    /// seconds) changes nothing: a countdown on screen keeps its deadline, so an app may call it
    /// from every `sceneDidBecomeActive`. This is the app-wide policy; the policy in force is the
    /// strictest of it and every open protection (``protect(withTerminateIn:)``). When that
    /// changes, an event on screen ends and one under the new policy begins at once.
    ///
    /// - Parameter seconds: The countdown's length. Values below 1 are clamped to 1.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(startMonitoringWithTerminateIn:)
    #endif
    public func startMonitoring(withTerminateIn seconds: CInt) {
        send(.start(MonitorPolicy(flow: .terminate, requestedSeconds: seconds), owner: self))
    }

    /// Starts the acknowledge flow: while a call is live and the app is in the foreground, a risk
    /// warning is shown; its Acknowledge button appears after `seconds`. The app never exits.
    ///
    /// Calling it again with the same policy (the same flow and, after clamping, the same
    /// seconds) changes nothing: the delay keeps its deadline and an acknowledged warning stays
    /// acknowledged. An acknowledgement covers the calls live when it was given; a call that
    /// joins later is warned about again. Like ``startMonitoring(withTerminateIn:)``, this sets
    /// the app-wide policy, and the strictest of it and the open protections is in force.
    ///
    /// - Parameter seconds: The delay before the button appears; 0 shows it at once. Negative
    ///   values are clamped to 0.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(startMonitoringWithAcknowledgeIn:)
    #endif
    public func startMonitoring(withAcknowledgeIn seconds: CInt) {
        send(.start(MonitorPolicy(flow: .acknowledge, requestedSeconds: seconds), owner: self))
    }

    /// Ends the app-wide policy. With no protection open this stops monitoring: a security UI on
    /// screen is dismissed (a delegate gets ``CallMonitorDelegate/callMonitorDidEndCall()``) and
    /// no further callback fires, not even ``CallEvent/ended``. Open protections go on guarding
    /// their screens.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(stopMonitoring)
    #endif
    public func stopMonitoring() {
        send(.stop)
    }

    /// Replaces the built-in dialog with your own UI, or restores it with `nil`.
    ///
    /// If a security event is on screen, it moves to the new UI at once: the previous delegate
    /// (or the built-in dialog) is dismissed and the new one is told of the event with the
    /// current remaining seconds.
    ///
    /// > Important: The monitor holds `delegate` weakly. If it is released, the built-in dialog
    /// > takes over no later than the next countdown tick.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(setDelegate:)
    #endif
    public func setDelegate(_ delegate: (any CallMonitorDelegate)?) {
        send(.setDelegate(WeakDelegate(delegate)))
    }

    /// Sets the closure told of every change of the call state (``CallEvent/ringing``,
    /// ``CallEvent/started``, ``CallEvent/ended``), or removes it with `nil`.
    ///
    /// The same event never comes twice in a row, and ``CallEvent/ended`` comes only after a
    /// ringing or started call. The callback runs on the main thread, before the security UI
    /// reacts to the same change. It is independent of the delegate.
    public func setCallback(_ callback: (@MainActor (CallEvent) -> Void)?) {
        send(.setCallback(callback))
    }

    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    /// `-setCallback:` for Objective-C, whose blocks carry no actor; the block runs on the main
    /// thread like the Swift callback. Swift code uses ``setCallback(_:)``.
    @available(swift, obsoleted: 1, message: "use setCallback(_:)")
    @objc(setCallback:)
    public func objcSetCallback(_ callback: ((CallEvent) -> Void)?) {
        guard let callback else { return setCallback(nil) }
        let block = UncheckedBlock(callback)
        setCallback { event in block.body(event) }
    }
    #endif

    /// Chooses the language of the built-in dialog, or returns to the user's preferred languages
    /// with `nil`. Not in the reference; the built-in dialog otherwise follows the system.
    ///
    /// The best of the 22 shipped languages is used (`de-AT` gives German, an unknown language
    /// English); the app's own `Localizable.strings` still override the library's texts. A dialog
    /// on screen is redrawn at once. A custom delegate is not affected: it renders its own text.
    public func setLanguage(_ language: String?) {
        send(.setStrings(.localized(language: language)))
    }

    /// Runs `hook` on the main thread just before the terminate flow force-exits the app, or
    /// removes it with `nil`. Not in the reference.
    ///
    /// `exit(0)` skips `applicationWillTerminate` and every other shutdown path, so this is the
    /// place to wipe session tokens or write a last log line. The order at the exit is: the
    /// callback and the UI hear of the last tick (or the tap), then `hook`, then the exit.
    ///
    /// > Important: The hook cannot hold the exit back. If it has not returned after `budget`
    /// > seconds, a watchdog thread ends the app anyway (through
    /// > ``AppTerminator/terminateFromAnyThread(code:)``), whatever the main thread is doing.
    ///
    /// - Parameters:
    ///   - budget: How long the hook may run, in seconds; 2 by default. Clamped to 0…60; NaN
    ///     means the default. 0 lets the watchdog end the app at once, in parallel with the hook.
    ///   - hook: Work to do before the exit, on the main thread; `nil` removes it.
    public func setBeforeForceExit(budget: Double = 2, _ hook: (@MainActor () -> Void)?) {
        send(.setBeforeForceExit(hook, budgetNanoseconds: ExitWatchdog.nanoseconds(clamping: budget)))
    }

    /// The user action of the security UI on screen now, as a closure that may be called from any
    /// thread; `nil` when none is shown. Not in the reference.
    ///
    /// The `onUserAction` a delegate receives is a plain `() -> Void`, as the reference spells
    /// it, and Swift 6 does not let it leave the main actor. Call that one from your UI (on the
    /// main thread). To trigger the action from another thread (a biometric prompt's reply, a
    /// network callback), take this closure in `callMonitorDidDetectCall` instead. It is bound
    /// to the same presentation, so it obeys the same rules: it acts at most once, in the
    /// acknowledge flow only after the delay, and does nothing once that presentation is gone.
    @MainActor
    public func sendableUserAction() -> (@Sendable () -> Void)? {
        core.sendableUserAction()
    }

    /// Turns call detection off or back on; not in the reference. Off, the monitor does not run
    /// its call source (on iOS no `CXCallObserver` is created) and so reports no call and shows
    /// nothing.
    ///
    /// For storefronts where CallKit use is not allowed (Apple rejects apps whose CallKit use is
    /// active in the China storefront). The change takes effect at once (rule 22): switched off
    /// while monitoring, the call source stops and an event on screen ends as if its calls had
    /// ended (outcome ``CallMonitorOutcomeEnding/callDetectionDisabled``); switched on, the
    /// source starts and its complete list of calls follows.
    public func setCallDetectionEnabled(_ enabled: Bool) {
        send(.setCallDetection(enabled))
    }

    private func send(_ command: MonitorCore.Command) {
        core.post(command)
    }
}

#if HNB_OBJC_HEADER
// Header generation compiles against a stand-in NSObject, which the compiler does not accept as a
// Sendable superclass; the checked conformance below is the one every real build uses.
extension CallMonitor: @unchecked Sendable {}
#else
// Checked: the only stored property is a `let` of a main-actor (hence Sendable) type.
extension CallMonitor: Sendable {}
#endif

/// An Objective-C callback block carried to the main thread.
/// `@unchecked Sendable`: the block is only ever called on the main thread, as the API promises.
struct UncheckedBlock: @unchecked Sendable {
    let body: (CallEvent) -> Void
    init(_ body: @escaping (CallEvent) -> Void) { self.body = body }
}

/// A weak reference to a delegate that may be carried to the main thread.
///
/// `@unchecked Sendable`: the reference is only read on the main thread (in ``MonitorCore``),
/// where every delegate method runs; a delegate is never touched from the thread that sent it.
struct WeakDelegate: @unchecked Sendable {
    weak var object: (any CallMonitorDelegate)?
    init(_ object: (any CallMonitorDelegate)?) { self.object = object }
}

/// The main-actor half of ``CallMonitor``: it owns the engine and the ports, queues commands so
/// that a delegate or callback calling back into the monitor cannot interleave with the actions
/// being carried out, and performs the engine's actions in order.
@MainActor
final class MonitorCore {
    enum Command: Sendable {
        /// `owner` is kept alive while monitoring (see ``CallMonitor/init(callSource:appState:scheduler:alertRenderer:terminator:strings:screenCapture:wallClock:)``).
        case start(MonitorPolicy, owner: CallMonitor)
        case stop
        case setDelegate(WeakDelegate)
        case setCallback((@MainActor (CallEvent) -> Void)?)
        case setStrings(CallMonitorStrings)
        case setBeforeForceExit((@MainActor () -> Void)?, budgetNanoseconds: Int64)
        case setCallDetection(Bool)
        case setOutcomeHandler((@MainActor (CallMonitorOutcome) -> Void)?)
        case setRefusesWhileCaptured(Bool)
        /// `startMonitoring()`: observe only (rule 20).
        case startObserving(owner: CallMonitor)
        /// A protection began (rule 18); `owner` as for `start`.
        case beginProtection(id: UInt64, MonitorPolicy, owner: CallMonitor)
        case endProtection(id: UInt64)
        case exempt(CallID)
        case removeExemption(CallID)
        case userAction(token: UInt64)
        case capture(generation: UInt64, isCaptured: Bool)
        case calls(generation: UInt64, CallBatch)
        case appState(generation: UInt64, isForeground: Bool)
        case wake(generation: UInt64)
    }

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

    /// The risk signals, readable from any thread.
    nonisolated let board: SignalBoard
    /// Every call event, for ``CallMonitor/events``.
    nonisolated let eventFeed = Broadcaster<CallEvent>()
    /// Every outcome, for ``CallMonitor/outcomes``.
    nonisolated let outcomeFeed = Broadcaster<CallMonitorOutcome>()
    private var outcomeHandler: (@MainActor (CallMonitorOutcome) -> Void)?
    /// What the outcome of the event on screen will need that the engine does not know.
    private var outcomeDraft: (startedDate: Date, presentations: [CallMonitorOutcome.Presentation])?
    /// Told of each snapshot as it is published (``CallMonitorState``).
    private var snapshotObservers: [UInt64: @MainActor (RiskSnapshot) -> Bool] = [:]
    /// The code of the exit in the actions being performed, if any.
    private var pendingExitCode: Int32?
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
    private var callback: (@MainActor (CallEvent) -> Void)?
    private var beforeForceExit: (@MainActor () -> Void)?
    private var beforeForceExitBudget = ExitWatchdog.defaultBudget
    /// The monitor that owns this core, held while monitoring so that dropping it cannot stop
    /// the policy (a released monitor would otherwise go silent with a call live).
    private var retainedOwner: CallMonitor?
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

    /// Applies `command` now if this is the main thread (after whatever other threads sent
    /// before it), else leaves it in the mailbox for the main thread.
    nonisolated func post(_ command: Command) {
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
        // Rule 13: a delegate released while it shows the event is replaced by the built-in
        // dialog before anything else happens.
        if case .delegate(let shownOn)? = surface, shownOn.object == nil {
            run(.handOver)
        }
        switch command {
        case .start(let policy, let owner):
            // Read before the start, as the app state is, so an event that begins at once is
            // drawn under the right capture rule.
            run(.screenCapture(isCaptured: screenCapture.isCaptured))
            run(.start(policy, isForeground: appState.isForeground))
            if engine.isMonitoring { retainedOwner = owner }
        case .startObserving(let owner):
            run(.screenCapture(isCaptured: screenCapture.isCaptured))
            run(.observe(isForeground: appState.isForeground))
            if engine.isMonitoring { retainedOwner = owner }
        case .beginProtection(let id, let policy, let owner):
            run(.screenCapture(isCaptured: screenCapture.isCaptured))
            run(.beginProtection(id: id, policy, isForeground: appState.isForeground))
            if engine.isMonitoring { retainedOwner = owner }
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
            if engine.shownEvent != nil { run(.handOver) }
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
        case .setRefusesWhileCaptured(let on):
            run(.refuseAcknowledgementWhileCaptured(on))
        case .capture(let generation, let isCaptured):
            guard generation == sourceGeneration else { return }
            run(.screenCapture(isCaptured: isCaptured))
        case .userAction(let token):
            run(.userAction(token: token))
        case .calls(let generation, let batch):
            guard generation == callGeneration else { return }
            run(.calls(batch))
        case .appState(let generation, let isForeground):
            guard generation == sourceGeneration else { return }
            run(.appState(isForeground: isForeground))
        case .wake(let generation):
            guard generation == wakeGeneration else { return }
            wakeUp = nil
            run(.wake)
        }
    }

    private func run(_ input: MonitorEngine.Input) {
        let actions = engine.handle(input, now: scheduler.now)
        // The exit code, known before the outcome that precedes the exit is delivered.
        pendingExitCode = nil
        for case .exit(let code) in actions { pendingExitCode = code }
        for action in actions {
            perform(action)
        }
        // Stopped or exited: nothing holds the monitor any more but the app.
        if !engine.isMonitoring { retainedOwner = nil }
        publish()
    }

    private func perform(_ action: MonitorEngine.Action) {
        switch action {
        case .emit(let event):
            callback?(event)
            eventFeed.yield(event)
        case .present(let flow, let remaining, let token):
            let onUserAction = userAction(for: token)
            var draft = outcomeDraft ?? (wallClock(), [])
            draft.presentations.append(.init(surface: delegate == nil ? .builtInDialog : .delegate, at: scheduler.now, remaining: remaining))
            outcomeDraft = draft
            if let delegate {
                surface = .delegate(WeakDelegate(delegate))
                delegate.callMonitorDidDetectCall(flow: flow, initialRemaining: remaining, onUserAction: onUserAction)
            } else {
                surface = .defaultUI
                defaultUI.present(flow: flow, remaining: remaining, refused: engine.acknowledgementRefused, onAction: onUserAction)
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
                self?.submit(.wake(generation: generation))
            }
        case .cancelWakeUp:
            wakeUp?.cancel()
            wakeUp = nil
            wakeGeneration &+= 1
        case .startSources(let callDetection):
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
            sourceGeneration &+= 1
            stopCallSource()
            appState.stop()
            screenCapture.stop()
        case .outcome(let ended):
            // Rule 16 puts the force exit's outcome before the exit: app code runs there, so the
            // watchdog that keeps a hanging hook from holding the exit back starts now.
            if ended.ending == .forceExit, outcomeHandler != nil, exitWatchdog == nil {
                exitWatchdog = armExitWatchdog(code: pendingExitCode ?? 0)
            }
            deliver(ended)
        case .acknowledgementRefused(let refused):
            defaultUI.setRefused(refused)
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
        let draft = outcomeDraft ?? (wallClock(), [])
        outcomeDraft = nil
        let outcome = CallMonitorOutcome(
            ending: CallMonitorOutcome.Ending(ended.ending), flow: ended.flow, seconds: ended.total,
            startedAt: ended.startedAt, endedAt: ended.endedAt, startedDate: draft.startedDate, endedDate: wallClock(),
            lowestRemaining: ended.lowestRemaining, presentations: draft.presentations,
            wasScreenCaptured: ended.wasScreenCaptured
        )
        outcomeHandler?(outcome)
        outcomeFeed.yield(outcome)
    }

    /// Publishes what the risk getters read, and tells the state objects, when something changed.
    private func publish() {
        var event: RiskSnapshot.Event?
        if let shown = engine.shownEvent {
            let refused = engine.acknowledgementRefused
            event = RiskSnapshot.Event(
                flow: shown.flow, remaining: shown.remaining, seconds: shown.total, startedAt: shown.startedAt,
                isActionAvailable: engine.actionAvailable,
                isAcknowledgementRefused: refused, wasScreenCaptured: shown.captured
            )
        }
        var snapshot = RiskSnapshot(
            isMonitoring: engine.isMonitoring, callState: CallMonitorCallState(engine.callState),
            isScreenCaptured: engine.screenCaptured, event: event,
            lastSessionEndedAt: engine.lastSessionEndedAt, publishedAt: lastPublished.publishedAt
        )
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

/// Ends the app from a thread of its own if the before-exit hook has not returned in time, so no
/// hook (slow, deadlocked, or waiting for the user) can keep a force exit from happening.
///
/// `@unchecked Sendable`: `state` is only touched under `lock`.
final class ExitWatchdog: @unchecked Sendable {
    static let defaultBudget: Int64 = 2_000_000_000
    private static let maximumBudget: Int64 = 60_000_000_000

    private enum State { case armed, disarmed, fired }
    private let lock = NSLock()
    private var state = State.armed

    /// Arms the watchdog: `fire` runs on a global queue after `budgetNanoseconds` unless
    /// ``disarm()`` came first.
    init(budgetNanoseconds: Int64, fire: @escaping @Sendable () -> Void) {
        let deadline = DispatchTime.now() + .nanoseconds(Int(clamping: budgetNanoseconds))
        DispatchQueue.global(qos: .userInteractive).asyncAfter(deadline: deadline) { [self] in
            let due = lock.withLock {
                guard state == .armed else { return false }
                state = .fired
                return true
            }
            if due { fire() }
        }
    }

    /// Returns `true` if the watchdog was stopped in time, `false` if it has already fired.
    func disarm() -> Bool {
        lock.withLock {
            guard state == .armed else { return false }
            state = .disarmed
            return true
        }
    }

    /// Seconds as given to `setBeforeForceExit(budget:_:)`, clamped to 0…60 s; NaN gives the
    /// default.
    static func nanoseconds(clamping seconds: Double) -> Int64 {
        guard !seconds.isNaN else { return defaultBudget }
        let clamped = min(max(seconds, 0), Double(maximumBudget) / 1e9)
        return Int64((clamped * 1e9).rounded())
    }
}

/// What other threads hand the main thread: API calls, call deliveries and app-state changes,
/// kept under one lock and applied by one main-queue block per burst.
///
/// Only the latest state of a call or of the app matters, so deliveries are merged: at most one
/// call batch and one app state wait, whatever the rate. API calls keep their order; a call that
/// only repeats or overrides the one before it (the same setter again, the same start or stop
/// twice, the same tap twice) replaces it. A storm of API calls faster than the main thread can
/// apply them is bounded too: past ``limit`` waiting calls, the queue is folded into the calls
/// that give the same end state (see ``fold(_:)``).
///
/// `@unchecked Sendable`: every stored property is only touched under `lock`.
final class Mailbox: @unchecked Sendable {
    /// How many API calls may wait before they are folded.
    static let limit = 256

    private let lock = NSLock()
    private var commands: [MonitorCore.Command] = []
    private var calls: (generation: UInt64, batch: CallBatch)?
    private var appState: (generation: UInt64, isForeground: Bool)?
    private var drainScheduled = false

    /// Queues what another thread sent; returns whether the caller must schedule a drain. Call
    /// deliveries and app-state changes are merged into the one waiting, API calls queued.
    func post(_ command: MonitorCore.Command) -> Bool {
        switch command {
        case .calls(let generation, let batch): return post(calls: batch, generation: generation)
        case .appState(let generation, let isForeground): return post(isForeground: isForeground, generation: generation)
        default: break
        }
        return lock.withLock {
            if let last = commands.last, let merged = Self.coalesce(last, command) {
                commands[commands.count - 1] = merged
            } else {
                commands.append(command)
                if commands.count > Self.limit { commands = Self.fold(commands) }
            }
            return scheduleIfNeeded()
        }
    }

    /// Merges a call delivery into the one waiting; returns whether a drain must be scheduled.
    func post(calls batch: CallBatch, generation: UInt64) -> Bool {
        lock.withLock {
            switch calls {
            case let waiting? where waiting.generation == generation:
                calls = (generation, waiting.batch.merged(with: batch))
            case let waiting? where waiting.generation > generation:
                // A late delivery from an earlier run of the source: stale, and it must not
                // push out the current run's batch.
                break
            default:
                // Nothing waits, or what waits is from an earlier run (stale).
                calls = (generation, batch)
            }
            return scheduleIfNeeded()
        }
    }

    /// Keeps only the latest app state; returns whether a drain must be scheduled.
    func post(isForeground: Bool, generation: UInt64) -> Bool {
        lock.withLock {
            if let waiting = appState, waiting.generation > generation { return false }
            appState = (generation, isForeground)
            return scheduleIfNeeded()
        }
    }

    /// Everything waiting, in the order to apply it: API calls, then the app state, then calls.
    func takeAll() -> [MonitorCore.Command] {
        lock.withLock {
            // The common case on the main thread: nothing waits, and nothing is allocated.
            if commands.isEmpty && appState == nil && calls == nil { return [] }
            drainScheduled = false
            var taken = commands
            commands.removeAll(keepingCapacity: true)
            if let appState { taken.append(.appState(generation: appState.generation, isForeground: appState.isForeground)) }
            if let calls { taken.append(.calls(generation: calls.generation, calls.batch)) }
            appState = nil
            calls = nil
            return taken
        }
    }

    /// How many API calls wait (for tests of the bound).
    var waitingCommands: Int { lock.withLock { commands.count } }

    private func scheduleIfNeeded() -> Bool {
        guard !drainScheduled else { return false }
        drainScheduled = true
        return true
    }

    /// The one call that has the effect of `first` followed by `second`, if there is one.
    static func coalesce(_ first: MonitorCore.Command, _ second: MonitorCore.Command) -> MonitorCore.Command? {
        switch (first, second) {
        case (.setDelegate, .setDelegate), (.setCallback, .setCallback), (.setStrings, .setStrings),
             (.setBeforeForceExit, .setBeforeForceExit), (.setCallDetection, .setCallDetection),
             (.setOutcomeHandler, .setOutcomeHandler), (.setRefusesWhileCaptured, .setRefusesWhileCaptured):
            return second
        case (.capture(let a, _), .capture(let b, _)) where a == b:
            // Only the latest capture state of one run of the source matters.
            return second
        case (.stop, .stop), (.startObserving, .startObserving):
            return second
        case (.start(let a, _), .start(let b, _)) where a == b:
            // The policy in force again changes nothing (rule 11).
            return second
        case (.userAction(let a), .userAction(let b)) where a == b:
            // A presentation's action acts at most once (rule 12).
            return second
        default:
            return nil
        }
    }

    /// Folds a long queue of API calls into the few that leave the monitor in the same state.
    ///
    /// User actions stay where they are, each token once (a later tap of the same presentation
    /// acts no differently: no time passes between queued calls). Between two of them, the
    /// settings made before the last start or stop keep their last values and come first, then
    /// that start or stop, then the settings made after it. So a setting always applies to the
    /// same start as it did (call detection switched off after a start still applies only to the
    /// next one). What is left out are states no time passes in; every difference leans towards
    /// enforcing: a restart to the policy already in force becomes no change, so a fold never
    /// resets a countdown.
    static func fold(_ commands: [MonitorCore.Command]) -> [MonitorCore.Command] {
        var result: [MonitorCore.Command] = []
        var seenTokens: Set<UInt64> = []
        var segment = Segment()
        for command in commands {
            switch command {
            case .userAction(let token):
                guard seenTokens.insert(token).inserted else { continue }
                result += segment.flush()
                result.append(command)
            case .beginProtection, .endProtection, .exempt, .removeExemption:
                // Rules 18 and 19: never lost, never moved past anything.
                result += segment.flush()
                result.append(command)
            default:
                segment.add(command)
            }
        }
        return result + segment.flush()
    }

    /// The calls between two user actions, folded.
    private struct Segment {
        private static let slots = 7
        private var before: [MonitorCore.Command?] = Array(repeating: nil, count: slots)
        private var lifecycle: MonitorCore.Command?
        private var after: [MonitorCore.Command?] = Array(repeating: nil, count: slots)
        private var others: [MonitorCore.Command] = []

        mutating func add(_ command: MonitorCore.Command) {
            let slot: Int
            switch command {
            case .setCallDetection: slot = 0
            case .setDelegate: slot = 1
            case .setCallback: slot = 2
            case .setStrings: slot = 3
            case .setBeforeForceExit: slot = 4
            case .setOutcomeHandler: slot = 5
            case .setRefusesWhileCaptured: slot = 6
            case .start, .stop, .startObserving:
                for index in after.indices where after[index] != nil { before[index] = after[index] }
                after = Array(repeating: nil, count: Self.slots)
                lifecycle = command
                return
            case .userAction, .calls, .appState, .wake, .capture, .beginProtection, .endProtection, .exempt, .removeExemption:
                // Call and app-state deliveries and timers never wait in the queue, and user
                // actions are handled by the caller. A capture delivery does wait here; moving it
                // ahead of a start or stop in the same segment is harmless, because it carries the
                // generation of the source run that sent it, which began before this batch.
                others.append(command)
                return
            }
            if lifecycle == nil { before[slot] = command } else { after[slot] = command }
        }

        mutating func flush() -> [MonitorCore.Command] {
            defer { self = Segment() }
            return others + before.compactMap { $0 } + (lifecycle.map { [$0] } ?? []) + after.compactMap { $0 }
        }
    }
}

extension CallBatch {
    /// `self` followed by `next`, as one batch: a complete list replaces everything before it;
    /// changes update the calls they name, in place, and add the others.
    func merged(with next: CallBatch) -> CallBatch {
        if next.isComplete { return next }
        var result = self
        for snapshot in next.calls {
            if let index = result.calls.firstIndex(where: { $0.id == snapshot.id }) {
                result.calls[index] = snapshot
            } else {
                result.calls.append(snapshot)
            }
        }
        return result
    }
}

// The public face of the library: the singleton the reference documents, callable from any
// thread. It wires the ports and forwards each call to the core (Core/MonitorCore.swift); the
// rules are the engine's (Engine/MonitorEngine.swift).

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
    private static let shared = CallMonitor(ports: .live)

    /// A monitor of your own, wired to `ports`: for a call feed of your own
    /// (``Ports/withCalls(from:)``), tests, previews and simulators (the `hnbTesting` product),
    /// and embedders who manage the monitor's lifetime themselves.
    ///
    /// Nothing happens until a `startMonitoring` call. Two monitors started on the same real
    /// phone would each enforce their policy; an app should use one.
    ///
    /// > Important: A monitoring `CallMonitor` keeps itself alive until ``stopMonitoring()`` (or
    /// > the force exit), as a scheduled `Timer` does: dropping the last reference to it does not
    /// > stop the policy, because a released monitor that stopped enforcing would fail open. Call
    /// > ``stopMonitoring()`` to let it go; a call session live then is followed to its end first.
    ///
    /// - Parameter ports: The parts to use, usually ``Ports/live`` with some replaced.
    public init(ports: Ports) {
        core = MonitorCore(
            callSource: ports.callSource,
            appState: ports.appState,
            scheduler: ports.scheduler,
            dialog: BuiltInDialog(renderer: ports.alertRenderer, strings: ports.strings),
            terminator: ports.terminator,
            screenCapture: ports.screenCapture,
            wallClock: ports.wallClock
        )
        super.init()
    }

    /// Starts the terminate flow: while a call is live and the app is in the foreground, a
    /// countdown with a Close App button is shown; at 0, or when the button is tapped, the app
    /// exits if the call is still live.
    ///
    /// Calling it again with the same policy (the same flow and, after clamping, the same
    /// seconds) changes nothing: a countdown on screen keeps its deadline, so an app may call it
    /// from every `sceneDidBecomeActive`. This is the app-wide policy; the policy in force is the
    /// strictest of it and every open protection (``protect(named:withTerminateIn:context:)``). When that
    /// changes, an event on screen ends and one under the new policy begins at once.
    ///
    /// - Parameter seconds: The countdown's length. Values below 1 are clamped to 1.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(startMonitoringWithTerminateIn:)
    #endif
    public func startMonitoring(withTerminateIn seconds: CInt) {
        send(.start(MonitorPolicy(flow: .terminate, requestedSeconds: seconds), owner: owner))
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
        send(.start(MonitorPolicy(flow: .acknowledge, requestedSeconds: seconds), owner: owner))
    }

    /// Ends the app-wide policy. With no protection open and no screen-capture escalation set
    /// (``protectWhileScreenCaptured(withTerminateIn:)``) this stops monitoring: a security UI on
    /// screen is dismissed (a delegate gets ``CallMonitorDelegate/callMonitorDidEndCall()``) and
    /// no further callback fires, not even ``CallEvent/ended``. Open protections and the
    /// escalation go on guarding.
    ///
    /// A call session live at that moment is followed, silently, until it ends (rule 10 of
    /// <doc:BehaviourContract>): a policy set again during it finds the session as it was, so a
    /// terminate countdown goes on from its deadline instead of starting again.
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
    /// > seconds, a watchdog thread ends the app anyway (through the terminator of the monitor's
    /// > ``CallMonitor/Ports``), whatever the main thread is doing.
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
        send(.callDetection(enabled))
    }

    /// Hands the engine the command this call is (MonitorEngine+Input.swift), as it is.
    func send(_ command: MonitorEngine.Input) {
        core.post(command)
    }

    /// This monitor, as the engine hands it on to be held while monitoring.
    var owner: MonitorOwner { MonitorOwner(object: self) }
}

#if HNB_OBJC_HEADER
// Header generation compiles against a stand-in NSObject, which the compiler does not accept as a
// Sendable superclass; the checked conformance below is the one every real build uses.
extension CallMonitor: @unchecked Sendable {}
#else
// Checked: the only stored property is a `let` of a main-actor (hence Sendable) type.
extension CallMonitor: Sendable {}
#endif

// What reaches the core, in two kinds: the calls the public API makes, and what the ports deliver
// (the sources' reports and the timer's wake-up). They are kept apart because they are treated
// apart: API calls keep their order and fold only into calls with the same effect; deliveries
// carry the generation of the run that sent them and are dropped once that run is over.

extension MonitorCore {
    /// A call of the public API that changes the monitor, as the facade sends it.
    enum APICall: Sendable {
        /// `owner` is kept alive while monitoring (see ``CallMonitor/init(callSource:appState:scheduler:alertRenderer:terminator:strings:screenCapture:wallClock:)``).
        case start(MonitorPolicy, owner: CallMonitor)
        case stop
        case setDelegate(WeakDelegate)
        case setCallback((@MainActor (CallEvent) -> Void)?)
        case setStrings(CallMonitorStrings)
        case setBeforeForceExit((@MainActor () -> Void)?, budgetNanoseconds: Int64)
        case setCallDetection(Bool)
        case setOutcomeHandler((@MainActor (CallMonitorOutcome) -> Void)?)
        case setRefusesAcknowledgementWhileScreenCaptured(Bool)
        /// The app's call verifier, or `nil` (rule 23).
        case setCallVerifier(VerifierBox?)
        /// The verifier's budget in nanoseconds, already clamped (rule 23).
        case setCallVerifierBudget(Int64)
        /// The policy while the screen is captured during a call, or `nil` for none (rule 25);
        /// `owner` as for `start`, since it monitors while set.
        case setScreenCaptureEscalation(MonitorPolicy?, owner: CallMonitor)
        /// `startMonitoring()`: observe only (rule 20); `owner` as for `start`.
        case startObserving(owner: CallMonitor)
        /// A protection began (rule 18); `owner` as for `start`.
        case beginProtection(id: UInt64, MonitorPolicy, owner: CallMonitor)
        /// A protection ended (rule 18).
        case endProtection(id: UInt64)
        /// The app exempts one of its own calls, or takes the exemption back (rule 19).
        case exempt(CallID)
        case removeExemption(CallID)
        /// The closure handed out with a presentation was called.
        case userAction(token: UInt64)
    }

    /// A report from a port. Each carries the generation of the source run (or of the wake-up)
    /// that sent it, so one that arrives after its run ended is recognised as stale.
    enum Delivery: Sendable {
        case capture(generation: UInt64, isCaptured: Bool)
        case calls(generation: UInt64, CallBatch)
        case appState(generation: UInt64, isForeground: Bool)
        case wake(generation: UInt64)
        /// The verifier answered question `request` (rule 23); from any thread, any number of times.
        case verdict(request: UInt64, CallMonitorCallVerdict)
        /// The budget of question `request` ran out (rule 23).
        case verdictBudget(request: UInt64)
        /// The delegate turned out released while an action was being carried out; the core
        /// sends this to itself so the engine hears of it once the actions in progress are done.
        case delegateReleased
    }

    /// Anything the core processes, in the order it is processed.
    enum Command: Sendable {
        case api(APICall)
        case delivery(Delivery)
    }
}

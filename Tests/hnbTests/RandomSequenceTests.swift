// Model-based random testing: long seeded sequences of every input the monitor has, with the
// security invariants checked after every step. A failure prints the seed and the step.

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting
import hnbRecording

/// What the test could see of the monitor, in order.
enum Observation: Equatable {
    case event(CallEvent)
    case detect(surface: Int, flow: CallMonitorFlow, remaining: Int32)
    case tick(surface: Int, remaining: Int32)
    case end(surface: Int)
    case exit(Int32)
    case outcome(CallMonitorOutcome)
}

/// A delegate that reports to the checker, numbered so hand-overs can be followed. Surface 0 is
/// the built-in dialog.
@MainActor
final class ObservingDelegate: CallMonitorDelegate {
    let number: Int
    let sink: (Observation) -> Void
    let registry: HandedOut
    private(set) var actions: [() -> Void] = []

    init(number: Int, registry: HandedOut, sink: @escaping (Observation) -> Void) {
        self.number = number
        self.registry = registry
        self.sink = sink
    }

    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: Int32, onUserAction: @escaping () -> Void) {
        actions.append(onUserAction)
        registry.all.append((number, actions.count - 1, onUserAction))
        sink(.detect(surface: number, flow: flow, remaining: initialRemaining))
    }

    func callMonitorCountdownTick(_ remaining: Int32) { sink(.tick(surface: number, remaining: remaining)) }
    func callMonitorDidEndCall() { sink(.end(surface: number)) }
}

/// Every onUserAction handed to any delegate: owner, its index among the owner's, the closure.
@MainActor
final class HandedOut {
    var all: [(owner: Int, index: Int, action: () -> Void)] = []
}

/// Checks the invariants of the behaviour contract against what the monitor does, using what the
/// test knows of the world (monitoring, calls, app state) as the model.
@MainActor
final class InvariantChecker {
    struct Violation: Error, CustomStringConvertible {
        let description: String
    }

    let scheduler: ManualScheduler
    private(set) var violations: [String] = []
    var seed: UInt64 = 0
    var step = 0
    /// Tracing costs more than the checks; it is switched on to replay a failing seed.
    var tracing = false
    /// Every observation with its instant, when set: to compare runs with recording on and off.
    var log: [String]?

    // The model, kept up to date by the generator.
    /// Whether the monitor is monitoring (an app-wide policy, observe included, a protection, or the
    /// capture escalation).
    var active = false
    /// Rule 10: monitoring ended during a live session, which the monitor follows silently to its
    /// end: its calls, acknowledgements and terminate deadline stay for a policy set again.
    var following = false
    /// The flow of the policy in force (rule 18), `nil` when none is (observing, or not active).
    var monitoring: CallMonitorFlow?
    /// The seconds of the policy in force, clamped.
    var seconds: Int32 = 0
    /// Live calls the monitor can see: not exempt (rule 19), and none while detection is off (rule 22).
    var liveCalls = 0
    /// The visible live calls, by name, for the acknowledgement model.
    var visibleCalls: Set<String> = []
    var foreground = true
    /// Set while the generator performs a user action on the live presentation.
    var validUserAction = false
    /// Rule 4 as changed by issue 19: each visible live call's strictest acknowledged policy.
    var acknowledged: [String: MonitorPolicy] = [:]
    /// Rule 21: the earliest deadline of any terminate countdown in the session.
    var terminateDeadline: Int64?
    /// Whether the screen is captured (rule 25's input; rule 16's record).
    var captured = false
    /// Whether the screen was captured at any moment of the open event (rule 16).
    var capturedDuringEvent = false

    // What has been observed.
    private var lastEvent: CallEvent?
    private var shownOn: Int?
    private var shownFlow: CallMonitorFlow?
    /// Where the shown event's countdown counts from (rule 21), and its length.
    private var eventOrigin: Int64 = 0
    private var eventTotal: Int64 = 0
    private var lastRemaining: Int32?
    private(set) var exited = false
    /// When the delegate showing the event was released, if it was.
    var releasedShownDelegateAt: Int64?
    private(set) var observations = 0

    // Rule 16: one outcome per event, of the kind the step explains.
    /// How the step being performed may end an event (empty: it must not end one).
    var expectedEndings: Set<CallMonitorOutcome.Ending> = []
    /// An event began and its outcome has not come yet.
    private var eventOpen = false
    private var openFlow: CallMonitorFlow?
    private var openStartedAt: Int64 = 0
    /// The lowest value shown during the open event, whatever surface showed it.
    private var openLowest: Int32?
    private var lastOutcome: CallMonitorOutcome.Ending?
    private(set) var eventsBegun = 0
    private(set) var outcomesSeen: [CallMonitorOutcome.Ending: Int] = [:]

    init(scheduler: ManualScheduler) { self.scheduler = scheduler }

    func fail(_ text: String) { violations.append("seed \(seed) step \(step): \(text)") }

    var shownSurface: Int? { shownOn }

    /// The last steps and observations, printed with a failure.
    var trace: [String] = []

    func note(_ text: @autoclosure () -> String) {
        guard tracing else { return }
        trace.append("@\(Double(scheduler.now) / 1e9) \(text())")
        if trace.count > 60 { trace.removeFirst(trace.count - 60) }
    }

    func observe(_ observation: Observation) {
        note("  -> \(observation)")
        log?.append("\(scheduler.now) \(observation)")
        observations += 1
        if !MainQueue.isCurrent { fail("\(observation) off the main thread") }
        if exited { fail("\(observation) after the exit") }
        if !active { fail("\(observation) while not monitoring") }
        switch observation {
        case .event(let event):
            if event == lastEvent { fail("event \(event) twice in a row") }
            if event == .ended && lastEvent != .ringing && lastEvent != .started { fail("ended without a call") }
            lastEvent = event
        case .detect(let surface, let flow, let remaining):
            if let shownOn {
                // A released delegate cannot hear callMonitorDidEndCall; the built-in dialog takes
                // over from it directly. Any other overlap is a violation.
                if shownOn != 0, surface == 0, releasedShownDelegateAt != nil {
                    releasedShownDelegateAt = nil
                } else {
                    fail("detect on \(surface) while \(shownOn) still shows the event")
                }
            }
            // Rule 20: observing alone never shows anything; rule 18: the strictest policy shows.
            if flow != monitoring { fail("detect for \(flow) under \(String(describing: monitoring))") }
            if liveCalls == 0 { fail("detect without a live call") }
            // Rule 8 as changed by issue 26: in the background only a terminate event whose session
            // already has a deadline begins (that deadline runs on there).
            if !foreground && lastRemaining == nil && !(flow == .terminate && terminateDeadline != nil) {
                fail("a new event began in the background")
            }
            if let lastRemaining {
                // A hand-over continues the same event from the value last shown.
                if remaining != lastRemaining { fail("hand-over with \(remaining), last shown \(lastRemaining)") }
            } else {
                if covered { fail("a new event although an acknowledgement covers every live call") }
                // Rule 21: a terminate countdown never ends later than the session's earliest deadline.
                let now = scheduler.now
                eventTotal = Int64(seconds)
                eventOrigin = now
                if flow == .terminate {
                    let fresh = now + eventTotal * 1_000_000_000
                    if let earlier = terminateDeadline, earlier < fresh {
                        eventOrigin = earlier - eventTotal * 1_000_000_000
                    } else {
                        terminateDeadline = fresh
                    }
                }
                let expected = Int32(max(0, eventTotal - (now - eventOrigin) / 1_000_000_000))
                if remaining != expected { fail("detect with \(remaining), policy says \(expected)") }
                if eventOpen { fail("a new event began before the previous one's outcome") }
                eventOpen = true
                capturedDuringEvent = captured
                eventsBegun += 1
                openFlow = flow
                openStartedAt = scheduler.now
            }
            if eventOpen { openLowest = remaining }
            shownOn = surface
            shownFlow = flow
            lastRemaining = remaining
        case .tick(let surface, let remaining):
            guard let shownOn else { return fail("tick \(remaining) with nothing shown") }
            if surface != shownOn { fail("tick on \(surface) while \(shownOn) shows the event") }
            if let lastRemaining, remaining >= lastRemaining { fail("tick \(remaining) after \(lastRemaining)") }
            lastRemaining = remaining
            if eventOpen { openLowest = remaining }
            // The value must follow the clock: the seconds since the countdown's origin.
            let elapsed = (scheduler.now - eventOrigin) / 1_000_000_000
            if Int64(remaining) != max(0, eventTotal - elapsed) { fail("tick \(remaining) at \(elapsed) s of \(eventTotal)") }
        case .end(let surface):
            guard let shownOn else { return fail("end on \(surface) with nothing shown") }
            if surface != shownOn { fail("end on \(surface) while \(shownOn) shows the event") }
            self.shownOn = nil
        case .exit(let code):
            if code != 0 { fail("exit code \(code)") }
            if shownFlow != .terminate || monitoring != .terminate { fail("exit outside the terminate flow") }
            if liveCalls == 0 { fail("exit without a live call") }
            if shownOn == nil { fail("exit with no event shown") }
            if !validUserAction && lastRemaining != 0 { fail("exit before the countdown reached 0 without a user action") }
            if eventOpen || lastOutcome != .forceExit { fail("exit without a forceExit outcome just before it") }
            exited = true
        case .outcome(let outcome):
            guard eventOpen else { return fail("outcome \(outcome.ending) with no event open") }
            eventOpen = false
            lastOutcome = outcome.ending
            outcomesSeen[outcome.ending, default: 0] += 1
            if !expectedEndings.contains(outcome.ending) {
                fail("outcome \(outcome.ending) from a step that can only end an event with \(expectedEndings.map(\.description).sorted())")
            }
            if outcome.flow != openFlow { fail("outcome for \(outcome.flow), the event was \(String(describing: openFlow))") }
            if outcome.lowestRemaining != openLowest { fail("outcome lowest \(outcome.lowestRemaining), last shown \(String(describing: openLowest))") }
            if outcome.startedAt != openStartedAt || outcome.endedAt != scheduler.now { fail("outcome times \(outcome.startedAt)–\(outcome.endedAt)") }
            if outcome.presentations.first?.at != openStartedAt { fail("first presentation not at the start") }
            if outcome.wasScreenCaptured != capturedDuringEvent { fail("outcome says captured \(outcome.wasScreenCaptured), the model \(capturedDuringEvent)") }
            switch outcome.ending {
            case .acknowledged: if outcome.flow != .acknowledge || outcome.lowestRemaining != 0 { fail("acknowledged \(outcome.flow) at \(outcome.lowestRemaining)") }
            case .forceExit: if outcome.flow != .terminate { fail("force exit in the acknowledge flow") }
            // callEnded is expected only from the step that ends the last live call (above).
            case .callEnded, .monitoringStopped, .policyChanged, .callExempted, .callDetectionDisabled: break
            }
        }
    }

    /// A step the model knows ended the event without an `end` (the acknowledgement).
    func noteEndedByAcknowledgement() {
        if lastRemaining != 0 { fail("acknowledged before the delay was over (remaining \(String(describing: lastRemaining)))") }
        // Rule 4: it covers the calls live now, under the policy in force.
        let policy = MonitorPolicy(flow: .acknowledge, requestedSeconds: seconds)
        for call in visibleCalls { acknowledged[call] = MonitorPolicy.strictest(acknowledged[call], policy) }
        lastRemaining = nil
    }

    /// Whether every visible live call was acknowledged under a policy at least as strict as
    /// the one in force.
    var covered: Bool {
        guard let flow = monitoring, !visibleCalls.isEmpty else { return false }
        let policy = MonitorPolicy(flow: flow, requestedSeconds: seconds)
        return visibleCalls.allSatisfy { acknowledged[$0]?.isAtLeastAsStrict(as: policy) == true }
    }

    /// Forgets the event after it was ended by a stop, a session end or a restart.
    func eventOver() {
        lastRemaining = nil
        shownFlow = nil
    }

    func sessionEnded() {
        acknowledged.removeAll()
        terminateDeadline = nil
    }

    func resetEvents() { lastEvent = nil }

    /// A new monitor in a new process: nothing carries over but the calls.
    func relaunched() {
        active = false
        following = false
        monitoring = nil
        liveCalls = 0
        visibleCalls = []
        terminateDeadline = nil
        acknowledged.removeAll()
        exited = false
        lastEvent = nil
        shownOn = nil
        shownFlow = nil
        lastRemaining = nil
        releasedShownDelegateAt = nil
        validUserAction = false
        eventOpen = false
        openLowest = nil
    }

    /// After every step: an event the model says is over has had its outcome.
    func checkOutcomes() {
        expectedEndings = []
        if eventOpen && lastRemaining == nil && shownFlow == nil { fail("an event ended without an outcome") }
    }

    /// After every step: one wake-up per event on screen and none without one, so no timer of an
    /// ended event outlives it (the end-of-test check of `Harness`, after every step here).
    func checkScheduled(pending: Int, eventShown: Bool, verifierSet: Bool) {
        // With a verifier, an event may also have its question's budget timer (rule 23).
        let allowed = eventShown ? (verifierSet ? 2 : 1) : 0
        if pending > allowed { fail("\(pending) piece(s) of work scheduled with \(eventShown ? "one event" : "no event") on screen") }
    }

    /// After every step: a monitor that should show the policy shows it (fail closed). In the
    /// foreground that is every live call no acknowledgement covers under a policy in force; in
    /// the background, an event shown before a step that cannot end one is still shown (rule 8).
    func checkVisible(delegateAlive: Bool, shownBefore: Bool) {
        guard !exited else { return }
        // Rule 5, fail closed: a terminate countdown that has run out has ended in the exit; no
        // hand-over, verdict or background may hold it open.
        if shownOn != nil, shownFlow == .terminate, scheduler.now >= eventOrigin + eventTotal * 1_000_000_000 {
            fail("a terminate countdown ran out \(scheduler.now - eventOrigin - eventTotal * 1_000_000_000) ns ago and the app did not exit")
        }
        if !foreground && shownBefore && expectedEndings.isEmpty && shownOn == nil { fail("an event vanished in the background") }
        // In the background too while a terminate policy is in force and the session's terminate
        // deadline runs (rule 8 as changed by issue 26): no policy change there can drop the exit.
        let backgroundDeadline = monitoring == .terminate && terminateDeadline != nil
        guard active, monitoring != nil, liveCalls > 0, foreground || backgroundDeadline, !covered else { return }
        guard let shownOn else {
            return fail(foreground ? "a live call in the foreground and no security UI" : "a terminate deadline running in the background and no countdown")
        }
        if shownOn != 0 && !delegateAlive {
            // A released delegate is replaced by the next one-second wake-up at the latest.
            if let releasedAt = releasedShownDelegateAt, scheduler.now - releasedAt > 1_000_000_000 {
                fail("released delegate \(shownOn) still 'shows' the event \(scheduler.now - releasedAt) ns later")
            }
        }
    }

    /// Checks that nothing at all was observed during `body`.
    func expectSilence(_ what: String, _ body: () -> Void) {
        let before = observations
        body()
        if observations != before { fail("\(what) produced output") }
    }
}

@MainActor
struct RandomRun {
    let seed: UInt64
    let steps: Int
    var rng: SeededGenerator
    let scheduler = ManualScheduler()
    let calls = SimulatedCallSource()
    let app = SimulatedAppState(isForeground: true)
    var renderer = SimulatedAlertRenderer()
    var terminator = SimulatedTerminator()
    let checker: InvariantChecker
    var monitor: CallMonitor
    /// How many times the app was force-exited and opened again during the run.
    var relaunches = 0
    var live: [String] = []
    var connected: Set<String> = []
    var held: Set<String> = []
    var nextCall = 0
    var delegate: ObservingDelegate?
    var delegateSet = false
    var delegatesMade = 0
    /// Every onUserAction ever handed out, to replay stale ones.
    let handedOut = HandedOut()
    // Issue 19's inputs, as the model sees them.
    /// The app-wide policy: `nil` not set, `.observe`, or a policy (seconds as given).
    var appWide: MonitorEngine.AppWidePolicy?
    /// Open protections, with the policy each was begun with.
    var protections: [(handle: CallMonitorProtection, policy: MonitorPolicy)] = []
    /// Calls (live or not yet placed) the app exempted.
    var exempt: Set<String> = []
    var detection = true
    /// Issue 22's input: the policy while the screen is captured during a call (rule 25).
    var escalation: MonitorPolicy?
    /// The device's screen: it stays captured across a relaunch.
    let capture = SimulatedScreenCapture()
    /// Rule 23: a scripted verifier the model knows nothing about: whatever it answers, and
    /// whenever, every expectation of the model must still hold.
    lazy var verifier = ScriptedCallVerifier(scheduler: scheduler)
    var verifierSet = false
    /// Issue 29: where each monitor of the run records its session (one file a launch), if anywhere.
    let recordingDirectory: URL?
    private(set) var recordings: [URL] = []

    init(seed: UInt64, steps: Int, recordingTo directory: URL? = nil) {
        self.seed = seed
        self.steps = steps
        recordingDirectory = directory
        rng = SeededGenerator(seed: seed)
        checker = InvariantChecker(scheduler: scheduler)
        monitor = CallMonitor(callSource: calls, appState: app, scheduler: scheduler, alertRenderer: renderer, terminator: terminator, screenCapture: capture)
        startRecording()
        wire()
    }

    /// Records the current monitor, from before its first input, when the run records.
    mutating func startRecording() {
        guard let recordingDirectory else { return }
        let file = recordingDirectory.appendingPathComponent("seed\(seed)-launch\(recordings.count + 1).scenario")
        recordings.append(file)
        try? monitor.startRecording(to: file, maxBytes: .max)
    }

    /// Connects the checker to the current monitor's outputs.
    func wire() {
        let checker = self.checker
        var shownDefault = false
        var lastFrame: SecurityAlert?
        renderer.onChange = { alert in
            // Rule 24: a redraw that only adds the verdict line is no tick; the model, which
            // knows nothing of verdicts, must see the same frames with or without a verifier.
            if let alert, var before = lastFrame {
                before.verdict = alert.verdict
                if before == alert { lastFrame = alert; return }
            }
            lastFrame = alert
            if let alert {
                if shownDefault {
                    checker.observe(.tick(surface: 0, remaining: alert.remaining))
                } else {
                    shownDefault = true
                    checker.observe(.detect(surface: 0, flow: alert.flow, remaining: alert.remaining))
                }
            } else {
                shownDefault = false
                checker.observe(.end(surface: 0))
            }
        }
        terminator.onTerminate = { checker.observe(.exit($0)) }
        monitor.setCallback { checker.observe(.event($0)) }
        monitor.setOutcomeHandler { checker.observe(.outcome($0)) }
    }

    /// The victim reopens the app after the force exit: a new monitor, while the calls (and the
    /// clock) carry on. Its first start must catch the call still in progress.
    mutating func relaunch() {
        relaunches += 1
        verifierSet = false
        renderer = SimulatedAlertRenderer()
        terminator = SimulatedTerminator()
        monitor.finishRecording()
        monitor = CallMonitor(callSource: calls, appState: app, scheduler: scheduler, alertRenderer: renderer, terminator: terminator, screenCapture: capture)
        startRecording()
        delegate = nil
        delegateSet = false
        handedOut.all.removeAll()
        appWide = nil
        protections = []
        exempt = []
        detection = true
        escalation = nil
        checker.relaunched()
        wire()
    }

    mutating func pick(_ n: Int) -> Int { Int.random(in: 0..<n, using: &rng) }

    /// Seconds for a start: mostly small, sometimes the edges of Int32.
    mutating func randomSeconds() -> Int32 {
        switch pick(10) {
        case 0: return [Int32.min, -1, 0, .max, .max - 1][pick(5)]
        case 1: return Int32.random(in: .min ... .max, using: &rng)
        default: return Int32(pick(8)) - 1
        }
    }

    mutating func run() async -> [String] {
        for step in 0..<steps {
            if checker.exited { relaunch() }
            checker.seed = seed
            checker.step = step
            let shownBefore = checker.shownSurface != nil
            await performRandomStep()
            checker.checkVisible(delegateAlive: delegate != nil || !delegateSet, shownBefore: shownBefore)
            checker.checkOutcomes()
            checker.checkScheduled(pending: scheduler.pendingCount - verifier.pendingAnswers,
                                   eventShown: monitor.currentSecurityEvent != nil, verifierSet: verifierSet)
            if !checker.violations.isEmpty { break }
        }
        return checker.violations
    }

    mutating func performRandomStep() async {
        let choice = pick(135)
        checker.note("step \(choice) live=\(live) fg=\(app.isForeground) mon=\(String(describing: checker.monitoring)) delegate=\(delegate?.number ?? -1)")
        switch choice {
        case 0..<8:
            nextCall += 1
            let id = "c\(nextCall)"
            live.append(id)
            callsChanged()
            if pick(2) == 0 { try? calls.incoming(id) } else { try? calls.outgoing(id) }
        case 8..<16:
            guard let id = live.randomElement(using: &rng), !connected.contains(id) else { return }
            connected.insert(id)
            try? calls.connect(id)
        case 16..<20:
            guard let id = connected.sorted().randomElement(using: &rng), !held.contains(id) else { return }
            try? calls.hold(id)
            held.insert(id)
        case 20..<24:
            guard let id = held.sorted().randomElement(using: &rng) else { return }
            try? calls.resume(id)
            held.remove(id)
        case 24..<34:
            guard let index = live.indices.randomElement(using: &rng) else { return }
            let id = live.remove(at: index)
            connected.remove(id)
            held.remove(id)
            // The model counts the call until the engine has seen it end: a hand-over that the
            // engine performs first (for a released delegate) still belongs to the live session.
            if checker.visibleCalls == [id] { checker.expectedEndings = [.callEnded] }
            try? calls.end(id)
            // Rule 19: an exemption lasts for one call.
            exempt.remove(id)
            callsChanged()
            checker.acknowledged[id] = nil
        case 34..<42:
            let foreground = !app.isForeground
            checker.foreground = foreground
            // Rule 21: an event that begins on the return may inherit a deadline already past.
            if foreground { checker.expectedEndings = [.forceExit] }
            app.setForeground(foreground)
        case 42..<47:
            let flow: CallMonitorFlow = pick(2) == 0 ? .terminate : .acknowledge
            let seconds = randomSeconds()
            let policy = MonitorPolicy(flow: flow, requestedSeconds: seconds)
            changePolicy(appWide: .enforce(policy), protections: protections.map(\.policy)) { monitor in
                if flow == .terminate { monitor.startMonitoring(withTerminateIn: seconds) } else { monitor.startMonitoring(withAcknowledgeIn: seconds) }
            }
        case 47..<50:
            let wasMonitoring = checker.active
            changePolicy(appWide: nil, protections: protections.map(\.policy)) { $0.stopMonitoring() }
            if !wasMonitoring {
                flushHandOver()
                checker.expectSilence("a second stop") { monitor.stopMonitoring() }
            }
        case 50..<56:
            delegatesMade += 1
            let checker = self.checker
            let made = ObservingDelegate(number: delegatesMade, registry: handedOut) { checker.observe($0) }
            monitor.setDelegate(made)
            delegate = made
            delegateSet = true
            checker.releasedShownDelegateAt = nil
        case 56..<58:
            monitor.setDelegate(nil)
            delegate = nil
            delegateSet = false
            checker.releasedShownDelegateAt = nil
        case 58..<60:
            guard delegate != nil else { return }
            if let shown = checker.shownSurface, shown == delegate?.number { checker.releasedShownDelegateAt = scheduler.now }
            delegate = nil
        case 60..<75:
            checker.expectedEndings = [checker.monitoring == .terminate ? .forceExit : .acknowledged]
            await userAction()
        case 75..<100:
            // Only a countdown reaching 0 ends an event as time passes.
            checker.expectedEndings = [.forceExit]
            advanceTime()
        case 100..<105:
            // Rule 18: a screen's protection begins.
            let flow: CallMonitorFlow = pick(2) == 0 ? .terminate : .acknowledge
            let seconds = randomSeconds()
            let policy = MonitorPolicy(flow: flow, requestedSeconds: seconds)
            var handle: CallMonitorProtection?
            changePolicy(appWide: appWide, protections: protections.map(\.policy) + [policy]) { monitor in
                handle = flow == .terminate ? monitor.protect(withTerminateIn: seconds) : monitor.protect(withAcknowledgeIn: seconds)
            }
            if let handle { protections.append((handle, policy)) }
        case 105..<110:
            // Rule 18: a protection ends, sometimes twice (the second does nothing).
            guard let index = protections.indices.randomElement(using: &rng) else { return }
            let ending = protections[index]
            var rest = protections
            rest.remove(at: index)
            changePolicy(appWide: appWide, protections: rest.map(\.policy)) { _ in ending.handle.end() }
            protections = rest
            if pick(3) == 0 {
                flushHandOver()
                checker.expectSilence("a second end") { ending.handle.end() }
            }
        case 110..<112:
            // Rule 20: observe only.
            changePolicy(appWide: .observe, protections: protections.map(\.policy)) { $0.startMonitoring() }
        case 112..<116:
            // Rule 19: exempt a live call, or the next one before it is placed.
            // Fewer than the engine's bound for calls not seen yet, so the model never drops one.
            guard exempt.count < MonitorEngine.pendingExemptionLimit else { return }
            let id = pick(3) == 0 ? "c\(nextCall + 1)" : (live.randomElement(using: &rng) ?? "c\(nextCall + 1)")
            flushHandOver()
            let wasVisible = checker.visibleCalls.contains(id)
            exempt.insert(id)
            if wasVisible && checker.visibleCalls.count == 1 { checker.expectedEndings = [.callExempted] }
            checker.acknowledged[id] = nil
            callsChanged()
            monitor.exemptCall(CallID(id))
        case 116..<119:
            // Rule 19: take an exemption back; a live call counts at once.
            guard let id = exempt.sorted().randomElement(using: &rng) else { return }
            flushHandOver()
            exempt.remove(id)
            checker.expectedEndings = [.forceExit]
            callsChanged()
            monitor.removeExemption(CallID(id))
        case 125..<129:
            // Rule 25: the screen starts or stops being captured.
            flushHandOver()
            let now = !checker.captured
            let before = policyInForce(appWide: appWide, protections: protections.map(\.policy))
            checker.captured = now
            let after = policyInForce(appWide: appWide, protections: protections.map(\.policy))
            if now && checker.shownSurface != nil { checker.capturedDuringEvent = true }
            if before == after {
                // Rule 17 is off here, so a capture that changes no policy shows nothing.
                checker.expectSilence("a capture that leaves the policy in force") { capture.setCaptured(now) }
                return
            }
            checker.expectedEndings = [.policyChanged, .forceExit]
            checker.eventOver()
            checker.monitoring = after?.flow
            checker.seconds = after?.seconds ?? 0
            capture.setCaptured(now)
        case 129..<133:
            // Rule 25: the escalation is set, replaced or removed.
            let flow: CallMonitorFlow = pick(2) == 0 ? .terminate : .acknowledge
            let seconds = randomSeconds()
            let next: MonitorPolicy? = pick(4) == 0 ? nil : MonitorPolicy(flow: flow, requestedSeconds: seconds)
            // Issue 26: set, it monitors like a protection (it may start monitoring or resume a
            // followed session); removed with nothing else set, it is the stop (rule 10).
            escalation = next
            changePolicy(appWide: appWide, protections: protections.map(\.policy)) { monitor in
                switch next?.flow {
                case .terminate?: monitor.protectWhileScreenCaptured(withTerminateIn: seconds)
                case .acknowledge?: monitor.protectWhileScreenCaptured(withAcknowledgeIn: seconds)
                case nil: monitor.stopProtectingWhileScreenCaptured()
                }
            }
        case 133..<135:
            // Rules 23 and 24: a verifier that answers at once, late, twice or never, or none.
            let verdicts: [CallMonitorCallVerdict] = [.bankIsCalling, .bankIsNotCalling, .unknown]
            var script: [ScriptedCallVerifier.Answer] = []
            for _ in 0..<pick(3) {
                script.append(.init(verdicts[pick(3)], afterSeconds: [0, 0.5, 2, 4][pick(4)]))
            }
            verifier.script = script
            verifierSet = pick(5) != 0
            monitor.setCallVerifier(using: verifierSet ? verifier : nil)
        default:
            // Rule 22: the detection switch, at once.
            flushHandOver()
            detection.toggle()
            checker.expectedEndings = detection ? [.forceExit] : [.callDetectionDisabled]
            callsChanged()
            monitor.setCallDetectionEnabled(detection)
        }
    }

    /// Performs a step that may change the policy in force (rules 11, 18, 20): the model is
    /// brought up to date first, so the new event is judged under the new policy.
    mutating func changePolicy(appWide newAppWide: MonitorEngine.AppWidePolicy?, protections newProtections: [MonitorPolicy],
                               _ body: (CallMonitor) -> Void) {
        flushHandOver()
        let wasActive = checker.active
        let before = (checker.monitoring, checker.seconds)
        appWide = newAppWide
        let inForce = policyInForce(appWide: newAppWide, protections: newProtections)
        let active = newAppWide != nil || !newProtections.isEmpty || escalation != nil
        if wasActive && active && (inForce?.flow, inForce?.seconds ?? 0) == before {
            // Rule 11: a change that leaves the policy in force the same changes nothing: no
            // event, no UI change, and the deadlines stand (the clock checks of later ticks).
            checker.expectSilence("a change that leaves the policy in force") { body(monitor) }
            return
        }
        checker.monitoring = inForce?.flow
        checker.seconds = inForce?.seconds ?? 0
        if active {
            // Rule 18: the event ends and one under the new policy may begin at once, possibly
            // with a deadline already past (rule 21), also when it resumes a followed session.
            checker.expectedEndings = [.policyChanged, .forceExit]
            checker.eventOver()
            checker.active = true
            checker.following = false
            callsChanged(protections: newProtections)
            body(monitor)
        } else {
            checker.expectedEndings = [.monitoringStopped]
            body(monitor)
            checker.eventOver()
            checker.active = false
            checker.monitoring = nil
            // Rule 10: a live session is followed silently (the checker fails on any output while
            // not active), its acknowledgements and deadline kept; none is forgotten at once.
            if !checker.visibleCalls.isEmpty { checker.following = true }
            checker.resetEvents()
            callsChanged()
        }
    }

    /// The strictest of the app-wide policy and the protections and, while the screen is captured
    /// during a visible call of a monitoring monitor, the escalation (rules 18 and 25).
    func policyInForce(appWide: MonitorEngine.AppWidePolicy?, protections: [MonitorPolicy]) -> MonitorPolicy? {
        var inForce = appWide?.policy
        for policy in protections { inForce = MonitorPolicy.strictest(inForce, policy) }
        let active = appWide != nil || !protections.isEmpty || escalation != nil
        let visibleCall = detection && live.contains { !exempt.contains($0) }
        if active, checker.captured, visibleCall, let escalation { inForce = MonitorPolicy.strictest(inForce, escalation) }
        return inForce
    }

    /// Any call into the monitor first hands an event shown by a released delegate to the built-in
    /// dialog. Setting the same callback again lets that happen on its own, so that the output of
    /// the step that follows can be judged alone.
    func flushHandOver() {
        let checker = self.checker
        monitor.setCallback { checker.observe(.event($0)) }
    }

    /// Brings the model's calls up to date: before a new call (so its event is expected), after
    /// the last one ended (its event was dismissed with the session).
    /// `protections`: the protections the step leaves open, when it changes them.
    mutating func callsChanged(protections changing: [MonitorPolicy]? = nil) {
        // A followed session (rule 10) goes on gathering its calls, silently.
        let visible = (checker.active || checker.following) && detection ? Set(live.filter { !exempt.contains($0) }) : []
        checker.visibleCalls = visible
        checker.liveCalls = visible.count
        for id in checker.acknowledged.keys where !visible.contains(id) { checker.acknowledged[id] = nil }
        // Rule 25: a session that begins or ends opens or closes the escalation.
        if checker.active {
            let inForce = policyInForce(appWide: appWide, protections: changing ?? protections.map(\.policy))
            checker.monitoring = inForce?.flow
            checker.seconds = inForce?.seconds ?? 0
        }
        if visible.isEmpty {
            checker.eventOver()
            checker.sessionEnded()
            checker.following = false
        }
    }

    mutating func advanceTime() {
        switch pick(10) {
        case 0: scheduler.advance(by: 0)
        case 1: scheduler.suspend(forSeconds: Double(pick(100_000)))
        case 2: scheduler.advance(bySeconds: Double(pick(4000)))
        default: scheduler.advance(by: Int64(pick(3_000_000_000)))
        }
    }

    /// Taps as a person, a fast finger, a stale closure or another thread would.
    mutating func userAction() async {
        checker.note("user action")
        let shownBefore = checker.shownSurface
        let flowBefore = checker.monitoring
        let remainingReady = renderer.current?.button != nil
        switch pick(6) {
        case 0, 1:
            // The built-in dialog's button, as a person could press it (only when drawn).
            checker.validUserAction = true
            let tapped = renderer.tapButton()
            checker.validUserAction = false
            if tapped && shownBefore == 0 && flowBefore == .acknowledge && remainingReady { checker.noteEndedByAcknowledgement() }
        case 2, 3:
            // The current delegate's latest closure, several times in a row.
            guard let delegate, let action = delegate.actions.last else { return }
            let isCurrent = shownBefore == delegate.number
            let ackReady = isCurrent && flowBefore == .acknowledge && checker.shownSurface != nil
            checker.validUserAction = isCurrent
            let before = checker.shownSurface
            for _ in 0..<(1 + pick(3)) { action() }
            checker.validUserAction = false
            if ackReady && before != nil && checker.shownSurface == nil { checker.noteEndedByAcknowledgement() }
        case 4:
            // Any closure ever handed out: unless it is the live presentation's, it must do nothing.
            guard let (owner, index, action) = handedOut.all.randomElement(using: &rng) else { return }
            let isLive = owner == shownBefore && delegate?.number == owner && index == (delegate?.actions.count ?? 0) - 1
            if isLive { return }
            flushHandOver()
            checker.expectSilence("a stale onUserAction") { action() }
        default:
            // From a background thread: applied later on the main thread, in order.
            guard let delegate, let action = delegate.actions.last else { return }
            let isCurrent = shownBefore == delegate.number
            let ackReady = isCurrent && flowBefore == .acknowledge
            let carried = UncheckedAction(action)
            // The hop to the main queue may run as soon as the detached task ends, so the model is
            // set up before the task starts.
            checker.validUserAction = isCurrent
            let before = checker.shownSurface
            await Task.detached { carried.run() }.value
            await drainMainQueue()
            checker.validUserAction = false
            if ackReady && before != nil && checker.shownSurface == nil { checker.noteEndedByAcknowledgement() }
        }
    }
}

@MainActor
@Suite("Random sequences", .nothingLeftScheduled)
struct RandomSequenceTests {
    /// 10,000 sequences of 200 steps by default; `CALLMONITOR_RANDOM_SEQUENCES` and
    /// `CALLMONITOR_RANDOM_STEPS` run more, `CALLMONITOR_RANDOM_SEED` replays one sequence.
    @Test("Invariants hold after every step of long random sequences")
    func randomSequences() async {
        let env = ProcessInfo.processInfo.environment
        let sequences = env["CALLMONITOR_RANDOM_SEQUENCES"].flatMap(Int.init) ?? 10_000
        let steps = env["CALLMONITOR_RANDOM_STEPS"].flatMap(Int.init) ?? 200
        let seeds: [UInt64] = env["CALLMONITOR_RANDOM_SEED"].flatMap(UInt64.init).map { [$0] } ?? (0..<UInt64(sequences)).map { $0 &* 0x2545_F491_4F6C_DD1D &+ 1 }
        var totalSteps = 0
        var exits = 0
        var relaunches = 0
        var endings: [CallMonitorOutcome.Ending: Int] = [:]
        for seed in seeds {
            var run = RandomRun(seed: seed, steps: steps)
            let violations = await run.run()
            totalSteps += steps
            exits += run.relaunches + run.terminator.exitCodes.count
            relaunches += run.relaunches
            endings.merge(run.checker.outcomesSeen, uniquingKeysWith: +)
            if !violations.isEmpty {
                var replay = RandomRun(seed: seed, steps: steps)
                replay.checker.tracing = true
                _ = await replay.run()
                let trace = replay.checker.trace.suffix(25).joined(separator: "\n")
                Issue.record("CALLMONITOR_RANDOM_SEED=\(seed) reproduces: \(violations.prefix(3).joined(separator: "; "))\n\(trace)")
                return
            }
        }
        // The generator must reach the interesting states, or the invariants prove little.
        #expect(exits > seeds.count / 20, "only \(exits) exits in \(seeds.count) sequences")
        // Rule 16: every kind of ending must be reached, or its checks prove little.
        if seeds.count >= 100 {
            for ending in CallMonitorOutcomeEnding.allCases {
                #expect(endings[ending, default: 0] > 0, "no \(ending) outcome in \(seeds.count) sequences")
            }
        }
        print("random sequences: \(seeds.count) × \(steps) steps (\(totalSteps) in all), \(exits) force exits, \(relaunches) relaunches with the call still live, outcomes \(endings.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
    }
}

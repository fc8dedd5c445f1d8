// Rules 23 and 24: the bank's verdict. What is asked when, which answer counts, what the dialog,
// the delegate, the snapshot and the outcome show, and (the bypass tests) that no verifier, however
// it behaves, changes a single timing or ending of either flow.

import Foundation
import Testing
@testable import hnb
import hnbTesting

private let second = MonitorEngine.second

/// A call that is live and connected.
private func live(_ id: String) -> CallSnapshot { CallSnapshot(id: CallID(id), hasConnected: true) }

/// A verifier the engine tests hand over; the engine only passes it on (it never asks it).
private final class SilentVerifier: CallVerifying {
    func ask(_ answer: @escaping @Sendable (CallMonitorCallVerdict) -> Void) {}
}

/// The command that sets a verifier (`true`) or removes it (`false`).
private func verifier(_ isSet: Bool) -> MonitorEngine.Input {
    .setCallVerifier(isSet ? VerifierBox(verifier: SilentVerifier()) : nil)
}

/// The action that hands it to the core's asker, first in the step.
private func installs(_ isSet: Bool) -> MonitorEngine.Action {
    .install(.verifier(isSet ? VerifierBox(verifier: SilentVerifier()) : nil))
}

@Suite("Verdict: the engine (rule 23)", .nothingLeftScheduled)
struct VerdictEngineTests {
    /// An engine enforcing `flow` with a verifier set, and the actions of the first call.
    private func started(_ flow: CallMonitorFlow = .terminate, seconds: Int32 = 5, budget: Int64? = nil) -> (MonitorEngine, [MonitorEngine.Action]) {
        var engine = MonitorEngine()
        #expect(engine.handle(verifier(true), now: 0) == [installs(true)])
        if let budget { #expect(engine.handle(.verdictBudget(budget), now: 0) == []) }
        _ = engine.handle(.start(MonitorPolicy(flow: flow, requestedSeconds: seconds)), now: 0)
        let actions = engine.handle(.calls(.changes([live("A")])), now: 0)
        return (engine, actions)
    }

    @Test("Rule 23: an event asks once, after its presentation and its wake-up, with the default 3 s budget")
    func rule23_asksAfterPresentation() {
        let (_, actions) = started()
        #expect(actions == [
            .emit(.started), .present(.terminate, remaining: 5, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: second), .ask(request: 1, budgetEndsAt: 3 * second),
        ])
    }

    @Test("Rule 23: without a verifier nothing is asked and no verdict is recorded")
    func rule23_noVerifierNoAsk() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 5)), now: 0)
        #expect(engine.handle(.calls(.changes([live("A")])), now: 0) == [
            .emit(.started), .present(.terminate, remaining: 5, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog), .schedule(at: second),
        ])
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsNotCalling), now: second / 2) == [])
        #expect(engine.verdict == .unknown)
    }

    @Test("Rule 23: the first answer counts; a second one, and one after the budget, are ignored")
    func rule23_firstAnswerOnly() {
        var (engine, _) = started()
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsNotCalling), now: second / 2) == [.cancelAsk, .verdict(.bankIsNotCalling, previous: .unknown, flow: .terminate, remaining: 5, token: 1, button: .available, on: .builtInDialog)])
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsCalling), now: second / 2) == [])
        #expect(engine.handle(.verdictBudgetExpired(request: 1), now: 3 * second) == [])
        #expect(engine.verdict == .bankIsNotCalling)
        #expect(engine.signals.verdict == .bankIsNotCalling)
    }

    @Test("Rule 23: no answer within the budget is unknown, and the late answer is ignored")
    func rule23_budgetThenLate() {
        var (engine, _) = started(budget: second / 2)
        #expect(engine.handle(.verdictBudgetExpired(request: 1), now: second / 2) == [.verdict(.unknown, previous: .unknown, flow: .terminate, remaining: 5, token: 1, button: .available, on: .builtInDialog)])
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsNotCalling), now: second) == [])
        #expect(engine.verdict == .unknown)
        #expect(engine.shownEvent?.verdictAt == second / 2)
    }

    @Test("Rule 23: a call that joins asks again; the answer to the earlier question is then stale")
    func rule23_newCallAsksAgain() {
        var (engine, _) = started()
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsCalling), now: 0) == [.cancelAsk, .verdict(.bankIsCalling, previous: .unknown, flow: .terminate, remaining: 5, token: 1, button: .available, on: .builtInDialog)])
        #expect(engine.handle(.calls(.changes([live("B")])), now: second / 2) == [.ask(request: 2, budgetEndsAt: second / 2 + 3 * second)])
        // The verdict shown stays until the new question is answered.
        #expect(engine.verdict == .bankIsCalling)
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsCalling), now: second / 2) == [])
        #expect(engine.handle(.verdictArrived(request: 2, .bankIsNotCalling), now: second / 2) == [.cancelAsk, .verdict(.bankIsNotCalling, previous: .bankIsCalling, flow: .terminate, remaining: 5, token: 1, button: .available, on: .builtInDialog)])
        // A call already known (a state change) is no new call.
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("B"), isOnHold: true)])), now: second / 2) == [])
    }

    @Test("Rule 23: the event's end closes the question after its outcome; the outcome carries the verdict and its time")
    func rule23_endClosesQuestion() {
        var (engine, _) = started(.acknowledge, seconds: 3)
        _ = engine.handle(.verdictArrived(request: 1, .bankIsNotCalling), now: second / 4)
        _ = engine.handle(.calls(.changes([live("B")])), now: second / 2)
        #expect(engine.handle(.calls(.complete([])), now: second) == [
            .emit(.ended), .dismiss(on: .builtInDialog), .cancelWakeUp,
            .outcome(.engine(ending: .callEnded, flow: .acknowledge, total: 3, startedAt: 0, endedAt: second, lowestRemaining: 3,
                           wasScreenCaptured: false, presentations: [.init(surface: .builtInDialog, at: 0, remaining: 3)],
                           verdict: .bankIsNotCalling, verdictAt: second / 4)),
            .cancelAsk,
        ])
        #expect(engine.handle(.verdictArrived(request: 2, .bankIsCalling), now: second) == [])
        #expect(engine.handle(.verdictBudgetExpired(request: 2), now: 4 * second) == [])
        // The next event starts afresh at unknown, with a question of its own.
        #expect(engine.handle(.calls(.changes([live("C")])), now: 5 * second) == [
            .emit(.started), .present(.acknowledge, remaining: 3, token: 2, button: .hidden, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 6 * second), .ask(request: 3, budgetEndsAt: 8 * second),
        ])
        #expect(engine.verdict == .unknown)
    }

    @Test("Rule 23: the exit comes first; the question is closed after it")
    func rule23_exitBeforeCancel() {
        var (engine, _) = started(seconds: 1)
        let actions = engine.handle(.wake(), now: second)
        #expect(Array(actions.prefix(3)) == [.tick(.terminate, remaining: 0, token: 1, button: .available, on: .builtInDialog), .cancelWakeUp, .stopSources(callSource: true)])
        #expect(Array(actions.suffix(2)) == [.exit(code: 0), .cancelAsk])
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsCalling), now: second) == [])
    }

    @Test("Rule 23: a verifier set during an event asks at once; removing it closes the question")
    func rule23_setDuringEvent() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 5)), now: 0)
        _ = engine.handle(.calls(.changes([live("A")])), now: 0)
        #expect(engine.handle(verifier(true), now: second / 2) == [installs(true), .ask(request: 1, budgetEndsAt: second / 2 + 3 * second)])
        #expect(engine.handle(verifier(true), now: second / 2) == [installs(true)])
        #expect(engine.handle(verifier(false), now: second / 2) == [installs(false), .cancelAsk])
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsNotCalling), now: second / 2) == [])
    }

    @Test("Rule 23: a verifier set during an event is asked only if the event was never asked: set again after its removal it is not; a call that joins asks again, and so does the next event")
    func rule23_setAgainDuringEvent() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .acknowledge, requestedSeconds: 0)), now: 0)
        _ = engine.handle(.calls(.changes([live("A")])), now: 0)
        #expect(engine.handle(verifier(true), now: second) == [installs(true), .ask(request: 1, budgetEndsAt: 4 * second)])
        #expect(engine.handle(verifier(false), now: second) == [installs(false), .cancelAsk])
        // The event was asked: setting the verifier again asks nothing, and the old answer is stale.
        #expect(engine.handle(verifier(true), now: 2 * second) == [installs(true)])
        #expect(engine.handle(.verdictArrived(request: 1, .bankIsCalling), now: 2 * second) == [])
        #expect(engine.verdict == .unknown)
        // A call that joins is a new question (rule 23).
        #expect(engine.handle(.calls(.changes([live("B")])), now: 3 * second) == [.ask(request: 2, budgetEndsAt: 6 * second)])
        // The next event asks its own.
        _ = engine.handle(.userAction(token: 1), now: 3 * second)
        #expect(engine.handle(.calls(.changes([live("C")])), now: 4 * second) == [
            .present(.acknowledge, remaining: 0, token: 2, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 5 * second), .ask(request: 3, budgetEndsAt: 7 * second),
        ])
    }

    @Test("Rule 23: the budget is clamped to 0.1…30 s; NaN gives 3 s", arguments: [
        (0.0, Int64(100_000_000)), (-5, 100_000_000), (-.infinity, 100_000_000), (0.1, 100_000_000), (2.5, 2_500_000_000),
        (30, 30_000_000_000), (31, 30_000_000_000), (.infinity, 30_000_000_000), (.nan, 3_000_000_000),
    ])
    func rule23_budgetClamp(seconds: Double, expected: Int64) {
        #expect(CallMonitor.verifierBudgetNanoseconds(clamping: seconds) == expected)
    }

    @Test("Rule 23: a raw verdict from Objective-C outside the three cases is unknown, never bankIsCalling; the three cases are themselves", arguments: [
        (0, CallMonitorCallVerdict.unknown), (1, .bankIsCalling), (2, .bankIsNotCalling),
        (3, .unknown), (-1, .unknown), (257, .unknown), (258, .unknown), (Int.max, .unknown), (Int.min, .unknown),
    ])
    func rule23_outOfRangeRawVerdictIsUnknown(rawValue: Int, expected: CallMonitorCallVerdict) {
        #expect(CallMonitorCallVerdict(sanitizing: rawValue) == expected)
    }
}

/// A monitor wired to the scripted ports and a scripted verifier, recording delegate calls, dialog
/// frames (with the verdict line), exits and outcomes, each stamped with the virtual time.
@MainActor
private final class VerdictHarness {
    let h: Harness
    let verifier: ScriptedCallVerifier

    init(script: [ScriptedCallVerifier.Answer]?, withVerdicts: Bool) {
        h = Harness()
        verifier = ScriptedCallVerifier(scheduler: h.scheduler, script: script ?? [])
        let log = h.log
        h.renderer.onChange = { alert in
            log.add(alert.map { "alert \($0.flow) \($0.remaining) button=\($0.button ?? "-")" + (withVerdicts ? " verdict=\($0.verdict ?? "-")" : "") } ?? "dismiss")
        }
        h.monitor.setOutcomeHandler { outcome in
            log.add("outcome \(outcome.ending) lowest=\(outcome.lowestRemaining)" + (withVerdicts ? " verdict=\(outcome.verdict) at=\(outcome.verdictArrivedAt.map(seconds) ?? "-")" : ""))
        }
        if script != nil { h.useVerifier(verifier) }
    }
}

@MainActor
@Suite("Verdict: what it shows (rule 24)", .nothingLeftScheduled)
struct VerdictShownTests {
    @Test("Rule 24: the built-in dialog gains the line when the answer comes, keeps countdown and button, and the outcome records it")
    func rule24_dialogLine() throws {
        let v = VerdictHarness(script: [.init(.bankIsNotCalling, afterSeconds: 1.5)], withVerdicts: true)
        v.h.monitor.startMonitoring(withTerminateIn: 3)
        try v.h.calls.incoming("A")
        #expect(v.h.monitor.currentSecurityEvent?.verdict == .unknown)
        v.h.advance(2)
        #expect(v.h.monitor.currentSecurityEvent?.verdict == .bankIsNotCalling)
        v.h.advance(1)
        #expect(v.h.take() == [
            "0 event ringing", "0 alert terminate 3 button=Close App verdict=-",
            "1 alert terminate 2 button=Close App verdict=-",
            "1.5 alert terminate 2 button=Close App verdict=Your bank is not calling you. Hang up now.",
            "2 alert terminate 1 button=Close App verdict=Your bank is not calling you. Hang up now.",
            "3 alert terminate 0 button=Close App verdict=Your bank is not calling you. Hang up now.",
            "3 outcome forceExit lowest=0 verdict=bankIsNotCalling at=1.5", "3 exit 0",
        ])
        #expect(v.verifier.asks == 1)
    }

    @Test("Rule 24: bankIsCalling has its own line, unknown none; the app's strings override both")
    func rule24_linesAndOverride() {
        let english = CallMonitorStrings.english
        #expect(SecurityAlert(flow: .acknowledge, remaining: 0, strings: english, verdict: .bankIsCalling).verdict == "Your bank is on a call with you right now.")
        #expect(SecurityAlert(flow: .acknowledge, remaining: 0, strings: english, verdict: .unknown).verdict == nil)
        let app = CallMonitorStrings(tables: [{ $0 == "call_monitor_verdict_bank_not_calling" ? "Not us. Hang up." : nil }])
        let alert = SecurityAlert(flow: .terminate, remaining: 4, strings: app, verdict: .bankIsNotCalling)
        #expect(alert.verdict == "Not us. Hang up.")
        // Everything else is as without a verdict.
        var plain = SecurityAlert(flow: .terminate, remaining: 4, strings: app)
        plain.verdict = "Not us. Hang up."
        #expect(alert == plain)
    }

    @Test("Rule 24: a verdict delegate is told when the verdict arrives and when it takes over an event with one")
    func rule24_delegate() throws {
        let v = VerdictHarness(script: [.init(.bankIsCalling)], withVerdicts: true)
        let told = VerdictRecordingDelegate("verdicts", log: v.h.log)
        v.h.monitor.setDelegate(told)
        v.h.monitor.startMonitoring(withAcknowledgeIn: 2)
        try v.h.calls.incoming("A")
        v.h.advance(1)
        let other = VerdictRecordingDelegate("other", log: v.h.log)
        v.h.monitor.setDelegate(other)
        v.h.advance(1)
        #expect(v.h.take() == [
            "0 event ringing", "0 verdicts detect acknowledge 2", "0 verdicts verdict bankIsCalling",
            "1 verdicts tick 1", "1 verdicts end", "1 other detect acknowledge 1", "1 other verdict bankIsCalling",
            "2 other tick 0",
        ])
        #expect(v.h.monitor.currentSecurityEvent == CallMonitorSecurityEvent(
            flow: .acknowledge, remaining: 0, seconds: 2, startedAt: 0, isActionAvailable: true, isAcknowledgementRefused: false,
            wasScreenCaptured: false, verdict: .bankIsCalling))
        _ = told
    }

    @Test("Rule 23 with rule 19: a live call whose exemption is removed during an event joins it: the verifier is asked again, and the first call's verdict line gives way to the new answer")
    func rule23_unexemptedCallJoinsTheVerdict() throws {
        let v = VerdictHarness(script: [.init(.bankIsCalling)], withVerdicts: true)
        v.h.monitor.exemptCall(CallID("APP"))
        v.h.monitor.startMonitoring(withTerminateIn: 5)
        try v.h.calls.incoming("A")
        try v.h.calls.outgoing("APP")
        v.h.advance(1)
        // The bank's backend knows of no call for the one that now joins.
        v.verifier.script = [.init(.bankIsNotCalling)]
        v.h.monitor.removeExemption(CallID("APP"))
        v.h.advance(1)
        #expect(v.h.take() == [
            "0 event ringing", "0 alert terminate 5 button=Close App verdict=-",
            "0 alert terminate 5 button=Close App verdict=Your bank is on a call with you right now.",
            "1 alert terminate 4 button=Close App verdict=Your bank is on a call with you right now.",
            "1 alert terminate 4 button=Close App verdict=Your bank is not calling you. Hang up now.",
            "2 alert terminate 3 button=Close App verdict=Your bank is not calling you. Hang up now.",
        ])
        #expect(v.verifier.asks == 2)
        #expect(v.h.monitor.currentSecurityEvent?.verdict == .bankIsNotCalling)
    }

    @Test("Rule 23: a real async verifier runs off the main thread and its answer reaches the event")
    func rule23_asyncVerifier() async throws {
        let v = VerdictHarness(script: nil, withVerdicts: true)
        let ranOnMain = Locked<Bool?>(nil)
        v.h.monitor.setCallVerifier {
            ranOnMain.set(Thread.isMainThread)
            return .bankIsNotCalling
        }
        v.h.monitor.startMonitoring(withAcknowledgeIn: 5)
        try v.h.calls.incoming("A")
        await Patience.wait { v.h.monitor.currentSecurityEvent?.verdict == .bankIsNotCalling }
        #expect(v.h.monitor.currentSecurityEvent?.verdict == .bankIsNotCalling)
        #expect(ranOnMain.value == false)
        v.h.monitor.stopMonitoring()
    }

    @Test("Rule 23: an async verifier that hangs leaves unknown at the budget's end and holds nothing back")
    func rule23_hangingAsyncVerifier() throws {
        let v = VerdictHarness(script: nil, withVerdicts: true)
        v.h.monitor.setCallVerifier {
            try? await Task.sleep(nanoseconds: 3_600_000_000_000)
            return .bankIsCalling
        }
        v.h.monitor.setCallVerifierBudget(1)
        v.h.monitor.startMonitoring(withTerminateIn: 2)
        try v.h.calls.incoming("A")
        v.h.advance(2)
        #expect(v.h.take() == [
            "0 event ringing", "0 alert terminate 2 button=Close App verdict=-", "1 alert terminate 1 button=Close App verdict=-",
            "2 alert terminate 0 button=Close App verdict=-", "2 outcome forceExit lowest=0 verdict=unknown at=1", "2 exit 0",
        ])
        #expect(v.h.scheduler.pendingCount == 0)
    }
}

/// A recording delegate that also adopts the verdict protocol.
@MainActor
private final class VerdictRecordingDelegate: CallMonitorDelegate, CallMonitorVerdictDelegate {
    let inner: RecordingDelegate
    let log: Log
    let name: String
    init(_ name: String, log: Log) {
        self.name = name
        self.log = log
        inner = RecordingDelegate(name, log: log)
    }
    var lastAction: (() -> Void)? { inner.lastAction }
    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: Int32, onUserAction: @escaping () -> Void) {
        inner.callMonitorDidDetectCall(flow: flow, initialRemaining: initialRemaining, onUserAction: onUserAction)
    }
    func callMonitorCountdownTick(_ remaining: Int32) { inner.callMonitorCountdownTick(remaining) }
    func callMonitorDidEndCall() { inner.callMonitorDidEndCall() }
    func callMonitorDidReceiveVerdict(_ verdict: CallMonitorCallVerdict) {
        expectOnMainQueue()
        log.add("\(name) verdict \(verdict)")
    }
}

/// How a verifier behaves in the bypass tests.
enum VerifierBehaviour: String, CaseIterable, Sendable, CustomStringConvertible {
    case never, late, twice, bankIsCalling, bankIsNotCalling, atOnce
    var description: String { rawValue }

    var script: [ScriptedCallVerifier.Answer] {
        switch self {
        case .never: []
        case .late: [.init(.bankIsNotCalling, afterSeconds: 4)]
        case .twice: [.init(.bankIsNotCalling, afterSeconds: 0.25), .init(.bankIsCalling, afterSeconds: 0.5)]
        case .bankIsCalling: [.init(.bankIsCalling, afterSeconds: 0.5)]
        case .bankIsNotCalling: [.init(.bankIsNotCalling, afterSeconds: 0.5)]
        case .atOnce: [.init(.bankIsCalling)]
        }
    }
}

@MainActor
@Suite("Verdict: bypass attempts (rule 23)", .nothingLeftScheduled)
struct VerdictBypassTests {
    /// Runs one story and returns everything observable but the verdict itself: delegate calls,
    /// dialog frames, taps, exits and outcome endings, with their times.
    private func story(_ flow: CallMonitorFlow, delegate: Bool, _ behaviour: VerifierBehaviour?) throws -> [String] {
        let v = VerdictHarness(script: behaviour?.script, withVerdicts: false)
        v.h.monitor.setCallVerifierBudget(2)
        let recorder = v.h.delegate()
        if delegate { v.h.monitor.setDelegate(recorder) }
        // Close App would exit at once; the terminate story lets its countdown run out instead.
        let tap = {
            guard flow == .acknowledge else { return }
            if delegate { recorder.lastAction?() } else { _ = v.h.renderer.tapButton() }
        }
        switch flow {
        case .terminate: v.h.monitor.startMonitoring(withTerminateIn: 6)
        case .acknowledge: v.h.monitor.startMonitoring(withAcknowledgeIn: 3)
        }
        try v.h.calls.incoming("A")
        v.h.advance(0.5)
        try v.h.calls.connect("A")
        v.h.advance(0.5)
        tap() // too early for acknowledge: refused either way
        v.h.advance(1)
        // A second call joins: the verifier is asked again.
        try v.h.calls.incoming("B")
        v.h.advance(1.75)
        tap() // acknowledge: accepted at 3.75, not earlier
        v.h.advance(1)
        try v.h.calls.incoming("C")
        v.h.advance(4)
        return Self.withoutVerdictRedraws(v.h.take())
    }

    /// The frames with the verdict-only redraws left out: a dialog frame whose countdown, button and
    /// flow are those of the frame before it (the verdict's line is not in these lines) shows no
    /// change of timing, so the two runs are compared on everything else.
    static func withoutVerdictRedraws(_ lines: [String]) -> [String] {
        var lastFrame: Substring?
        return lines.filter { line in
            let content = line.drop { $0 != " " }
            if content.hasPrefix(" dismiss") { lastFrame = nil }
            guard content.hasPrefix(" alert") else { return true }
            defer { lastFrame = content }
            return content != lastFrame
        }
    }

    @Test("Rule 23: no verifier behaviour changes any delegate call, frame, tap, exit or outcome, in either flow",
          arguments: [CallMonitorFlow.terminate, .acknowledge], VerifierBehaviour.allCases)
    func rule23_bypass(flow: CallMonitorFlow, behaviour: VerifierBehaviour) throws {
        for delegate in [false, true] {
            let without = try story(flow, delegate: delegate, nil)
            let with = try story(flow, delegate: delegate, behaviour)
            #expect(with == without, "\(flow) \(behaviour) delegate=\(delegate)")
            #expect(without.contains { $0.hasSuffix("exit 0") } == (flow == .terminate))
        }
    }

    @Test("Rule 23: the stories compared: terminate exits at 6, acknowledge is accepted at 3.75 and warns again for a new call")
    func rule23_referenceStories() throws {
        #expect(try story(.terminate, delegate: true, .bankIsCalling) == [
            "0 event ringing", "0 delegate detect terminate 6", "0.5 event started", "1 delegate tick 5", "2 delegate tick 4",
            "3 delegate tick 3", "4 delegate tick 2", "5 delegate tick 1", "6 delegate tick 0", "6 outcome forceExit lowest=0", "6 exit 0",
        ])
        #expect(try story(.acknowledge, delegate: true, .bankIsCalling) == [
            "0 event ringing", "0 delegate detect acknowledge 3", "0.5 event started", "1 delegate tick 2", "2 delegate tick 1",
            "3 delegate tick 0", "3.75 delegate end", "3.75 outcome acknowledged lowest=0",
            "4.75 delegate detect acknowledge 3", "5.75 delegate tick 2", "6.75 delegate tick 1", "7.75 delegate tick 0",
        ])
    }
}

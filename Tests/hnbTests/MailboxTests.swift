// The mailbox between other threads and the main thread: what it merges, that it coalesces and
// folds as the engine says (the fold's own rules are in FoldTests.swift), and that a storm of calls
// cannot make it grow without bound.

import Testing
@testable import hnb
@testable import hnbPolicy
import hnbTesting

@MainActor
@Suite("Mailbox", .nothingLeftScheduled)
struct MailboxTests {
    let owner = CallMonitor(callSource: SimulatedCallSource(), appState: SimulatedAppState(), scheduler: ManualScheduler(),
                            alertRenderer: SimulatedAlertRenderer(), terminator: SimulatedTerminator()).owner

    func start(_ seconds: Int32, _ flow: CallMonitorFlow = .terminate) -> MonitorEngine.Input {
        .start(MonitorPolicy(flow: flow, requestedSeconds: seconds), owner: owner)
    }

    @Test("A call that repeats or overrides the one before it replaces it; anything else keeps its place")
    func coalescing() {
        let box = Mailbox()
        #expect(box.post(.callDetection(true)) == true)
        #expect(box.post(.callDetection(false)) == false)
        _ = box.post(start(5))
        _ = box.post(start(0))
        _ = box.post(start(1))
        _ = box.post(.userAction(token: 3))
        _ = box.post(.userAction(token: 3))
        _ = box.post(.userAction(token: 4))
        _ = box.post(.stop)
        _ = box.post(.stop)
        _ = box.post(.setStrings(.english))
        #expect(box.takeAll().map(\.label) == [
            "detection false", "start terminate 5", "start terminate 1", "tap 3", "tap 4", "stop", "strings en",
        ])
        #expect(box.takeAll().isEmpty)
        // The first post after a drain asks for a new one.
        #expect(box.post(.stop) == true)
    }

    @Test("Call deliveries merge into one batch per run of the source; a complete list replaces what waits")
    func deliveriesMerge() {
        let box = Mailbox()
        let a = CallSnapshot(id: CallID("A"))
        let aConnected = CallSnapshot(id: CallID("A"), hasConnected: true)
        let b = CallSnapshot(id: CallID("B"))
        #expect(box.post(calls: .changes([a]), generation: 1) == true)
        #expect(box.post(calls: .changes([b, aConnected]), generation: 1) == false)
        #expect(box.post(isForeground: false, generation: 1) == false)
        #expect(box.post(isForeground: true, generation: 1) == false)
        #expect(box.takeAll().map(\.label) == ["app 1 true", "calls 1 changes [\"A\", \"B\"]"])
        _ = box.post(calls: .complete([a]), generation: 2)
        _ = box.post(calls: .changes([b]), generation: 2)
        #expect(box.takeAll().map(\.label) == ["calls 2 complete [\"A\", \"B\"]"])
        _ = box.post(calls: .changes([a]), generation: 2)
        _ = box.post(calls: .complete([b]), generation: 2)
        #expect(box.takeAll().map(\.label) == ["calls 2 complete [\"B\"]"])
    }

    @Test("A late delivery from an earlier run never pushes out the current run's batch or app state")
    func staleDeliveryKeepsNewer() {
        let box = Mailbox()
        _ = box.post(calls: .changes([CallSnapshot(id: CallID("new"))]), generation: 4)
        _ = box.post(calls: .changes([CallSnapshot(id: CallID("old"))]), generation: 3)
        _ = box.post(isForeground: true, generation: 4)
        _ = box.post(isForeground: false, generation: 3)
        #expect(box.takeAll().map(\.label) == ["app 4 true", "calls 4 changes [\"new\"]"])
        // A newer run's delivery replaces a stale one.
        _ = box.post(calls: .changes([CallSnapshot(id: CallID("old"))]), generation: 4)
        _ = box.post(calls: .changes([CallSnapshot(id: CallID("newer"))]), generation: 5)
        #expect(box.takeAll().map(\.label) == ["calls 5 changes [\"newer\"]"])
    }

    @Test("Rules 18 and 19: protections and exemptions are never coalesced")
    func protectionsKeepTheirPlace() {
        let box = Mailbox()
        let policy = MonitorPolicy(flow: .terminate, requestedSeconds: 3)
        _ = box.post(.beginProtection(id: 1, policy, owner: owner))
        _ = box.post(.beginProtection(id: 1, policy, owner: owner))
        _ = box.post(.endProtection(id: 1))
        _ = box.post(.endProtection(id: 1))
        _ = box.post(.exempt(CallID("A")))
        _ = box.post(.exempt(CallID("A")))
        _ = box.post(.observe(owner: owner))
        _ = box.post(.observe(owner: owner))
        #expect(box.takeAll().map(\.label) == [
            "protect 1 terminate 3", "protect 1 terminate 3", "unprotect 1", "unprotect 1", "exempt A", "exempt A", "start observe",
        ])
    }

    @Test("Rule 25: the escalation is a setting: the same setter again (or off) replaces the one right before it; it keeps its place around protections and starts")
    func escalationIsASetting() {
        let box = Mailbox()
        let terminate = MonitorPolicy(flow: .terminate, requestedSeconds: 3)
        let acknowledge = MonitorPolicy(flow: .acknowledge, requestedSeconds: 9)
        _ = box.post(.screenCaptureEscalation(terminate, owner: owner))
        _ = box.post(.screenCaptureEscalation(nil, owner: owner))
        _ = box.post(.screenCaptureEscalation(acknowledge, owner: owner))
        _ = box.post(.beginProtection(id: 1, terminate, owner: owner))
        _ = box.post(.screenCaptureEscalation(terminate, owner: owner))
        _ = box.post(start(5))
        _ = box.post(.screenCaptureEscalation(nil, owner: owner))
        #expect(box.takeAll().map(\.label) == [
            "capture escalate acknowledge 9", "protect 1 terminate 3", "capture escalate terminate 3", "start terminate 5", "capture escalate off",
        ])
    }

    @Test("A storm of protections begun and ended faster than the main thread drains loses none, in order")
    func protectionStorm() {
        let box = Mailbox()
        let policy = MonitorPolicy(flow: .acknowledge, requestedSeconds: 1)
        var expected: [String] = []
        for id in UInt64(1)...400 {
            _ = box.post(.beginProtection(id: id, policy, owner: owner))
            _ = box.post(.setDelegate(WeakDelegate(nil)))
            _ = box.post(.endProtection(id: id))
            expected += ["protect \(id) acknowledge 1", "unprotect \(id)"]
        }
        #expect(box.takeAll().map(\.label).filter { !$0.hasPrefix("delegate") } == expected)
    }

    @Test("A storm of API calls faster than the main thread drains stays bounded")
    func stormIsBounded() {
        let box = Mailbox()
        var rng = SeededGenerator(seed: 7)
        var largest = 0
        for _ in 0..<200_000 {
            let command: MonitorEngine.Input
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: command = start(Int32.random(in: 1...4, using: &rng))
            case 1: command = start(Int32.random(in: 0...4, using: &rng), .acknowledge)
            case 2: command = .stop
            case 3: command = .setDelegate(WeakDelegate(nil))
            case 4: command = .setCallback(nil)
            default: command = .userAction(token: UInt64.random(in: 1...8, using: &rng))
            }
            _ = box.post(command)
            largest = max(largest, box.waitingCommandCountForTesting)
        }
        #expect(largest <= Mailbox.limit + 1)
        // Folded, at most 8 taps and what lies between them are left.
        #expect(box.takeAll().count <= Mailbox.limit + 1)
    }
}

extension MonitorEngine.Input {
    /// A short, comparable name of the command (commands hold closures, so are not Equatable).
    var label: String {
        switch self {
        case .start(let policy, _): "start \(policy.flow) \(policy.seconds)"
        case .stop: "stop"
        case .setDelegate(let box): "delegate \(box.object == nil ? "nil" : "set")"
        case .setCallback(let callback): "callback \(callback == nil ? "nil" : "set")"
        case .setStrings(let strings): "strings \(strings.language)"
        case .setBeforeForceExit(let hook, let budget): "hook \(hook == nil ? "nil" : "set") \(budget)"
        case .callDetection(let on): "detection \(on)"
        case .setOutcomeHandler(let handler): "outcomes \(handler == nil ? "nil" : "set")"
        case .refusesAcknowledgementWhileScreenCaptured(let on): "capture rule \(on)"
        case .screenCaptureEscalation(let policy, _): "capture escalate \(policy.map { "\($0.flow) \($0.seconds)" } ?? "off")"
        case .observe: "start observe"
        case .beginProtection(let id, let policy, let name, _, _):
            "protect \(id)\(name.map { " \($0)" } ?? "") \(policy.flow) \(policy.seconds)"
        case .endProtection(let id): "unprotect \(id)"
        case .exempt(let id): "exempt \(id)"
        case .removeExemption(let id): "unexempt \(id)"
        case .userAction(let token): "tap \(token)"
        case .setCallVerifier(let box): "verifier \(box == nil ? "nil" : "set")"
        case .verdictBudget(let budget): "verifier budget \(budget)"
        case .screenCapture(let captured, let run): "capture \(run) \(captured)"
        case .calls(let batch, let run): "calls \(run) \(batch.isComplete ? "complete" : "changes") \(batch.calls.map(\.id.rawValue))"
        case .appState(let foreground, let run): "app \(run) \(foreground)"
        case .wake(let run): "wake \(run)"
        case .delegateReleased: "delegate released"
        case .verdictArrived(let request, let verdict): "verdict \(request) \(verdict)"
        case .verdictBudgetExpired(let request): "verdict budget \(request)"
        case .policyKeys(let keys): "policy keys relax \(keys.allowsRelaxation)"
        case .policyAttributes(let attributes): "policy attributes \(attributes.sorted { $0.key < $1.key })"
        case .applyPolicy(let document, _): "policy \(document.version)"
        case .policyRejected(let reason): "policy rejected \(reason)"
        case .wallClockChanged: "clock changed"
        case .policyWake(let run): "policy wake \(run)"
        case .coachingSource(let source): "coaching source \(source.map(\.description) ?? "nil")"
        case .coachingBudget(let budget): "coaching budget \(budget)"
        case .coachingPolicy(let policy): "coaching policy \(policy.medium) \(policy.high)"
        case .coachingAnswered(let request, let answer): "coaching answer \(request) \(answer.level)"
        case .coachingBudgetExpired(let request): "coaching budget over \(request)"
        }
    }
}

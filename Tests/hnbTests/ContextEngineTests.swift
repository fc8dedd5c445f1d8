// Split out of ContextTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

@Suite("Context: which one the engine shows (rule 29)")
struct ContextEngineTests {
    let second = MonitorEngine.second
    let payment = CallMonitorContext(kind: .payment, detail: "You are sending €2,000 to M.")
    let code = CallMonitorContext(kind: .credentials, detail: "Enter the code we sent you.")
    func policy(_ flow: CallMonitorFlow, _ seconds: Int32) -> MonitorPolicy { MonitorPolicy(flow: flow, requestedSeconds: seconds) }

    @Test("A protection's context is presented with its event")
    func presentedWithTheEvent() {
        var engine = MonitorEngine()
        _ = engine.handle(.beginProtection(id: 1, policy(.terminate, 5), context: payment), now: 0)
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0) == [
            .emit(.ringing),
            .present(.terminate, remaining: 5, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, context: payment, on: .builtInDialog),
            .schedule(at: second),
        ])
    }

    @Test("A second protection with the same policy changes only the context: a redraw, no event ends, no countdown moves")
    func sameePolicyIsARedraw() {
        var engine = MonitorEngine()
        _ = engine.handle(.beginProtection(id: 1, policy(.terminate, 5), context: payment), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0)
        _ = engine.handle(.wake(), now: second)
        // Begun last, with the same policy: its context shows.
        #expect(engine.handle(.beginProtection(id: 2, policy(.terminate, 5), context: code), now: second + second / 2) == [
            .context(code, flow: .terminate, remaining: 4, token: 1, button: .available, on: .builtInDialog),
        ])
        #expect(engine.shownEvent?.remaining == 4)
        // Its end brings the first one's back; still the same event, the same wake-ups.
        #expect(engine.handle(.endProtection(id: 2), now: 2 * second - 1) == [.context(payment, flow: .terminate, remaining: 4, token: 1, button: .available, on: .builtInDialog)])
        #expect(engine.handle(.wake(), now: 2 * second) == [.tick(.terminate, remaining: 3, token: 1, button: .available, context: payment, on: .builtInDialog), .schedule(at: 3 * second)])
        #expect(engine.shownEvent?.id == 1 && engine.shownEvent?.context == payment)
    }

    @Test("A protection without a context begun last shows none; one with the laxer policy does not count")
    func lastBegunAndPolicyInForce() {
        var engine = MonitorEngine()
        _ = engine.handle(.beginProtection(id: 1, policy(.terminate, 5), context: payment), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0)
        // Laxer: not in force, nothing changes.
        #expect(engine.handle(.beginProtection(id: 2, policy(.acknowledge, 3), context: code), now: 0) == [])
        // Same policy, no context: begun last, so none shows.
        #expect(engine.handle(.beginProtection(id: 3, policy(.terminate, 5)), now: 0) == [.context(nil, flow: .terminate, remaining: 5, token: 1, button: .available, on: .builtInDialog)])
        #expect(engine.guards.context == nil)
        #expect(engine.handle(.endProtection(id: 3), now: 0) == [.context(payment, flow: .terminate, remaining: 5, token: 1, button: .available, on: .builtInDialog)])
    }

    @Test("None for the app-wide policy, also when a protection with a laxer policy has one")
    func noneForAppWide() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(policy(.terminate, 3)), now: 0)
        _ = engine.handle(.beginProtection(id: 1, policy(.terminate, 5), context: payment), now: 0)
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0) == [
            .emit(.ringing),
            .present(.terminate, remaining: 3, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, context: nil, on: .builtInDialog),
            .schedule(at: second),
        ])
    }

    @Test("A stricter protection is a change of policy (rule 18): its new event carries its context, and the end brings the old policy's back")
    func stricterIsAPolicyChange() {
        var engine = MonitorEngine()
        _ = engine.handle(.beginProtection(id: 1, policy(.acknowledge, 3), context: code), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0)
        let actions = engine.handle(.beginProtection(id: 2, policy(.terminate, 5), context: payment), now: second / 2)
        #expect(actions.count == 5)
        #expect(actions.last == .schedule(at: second / 2 + second))
        #expect(actions[3] == .present(.terminate, remaining: 5, token: 2, button: .available, verdict: .unknown, tellsVerdict: false, context: payment, on: .builtInDialog))
        #expect(!actions.contains { if case .scene(let scene) = $0, case .context = scene.change { true } else { false } })
        let back = engine.handle(.endProtection(id: 2), now: second)
        #expect(back.contains(.present(.acknowledge, remaining: 3, token: 3, button: .hidden, verdict: .unknown, tellsVerdict: false, context: code, on: .builtInDialog)))
        #expect(engine.shownEvent?.context == code)
    }

    @Test("Fail closed: a context whose detail cleans to nothing still warns and still exits on time")
    func garbageDetailStillExits() {
        var engine = MonitorEngine()
        let garbage = CallMonitorContext(kind: .payment, detail: "\u{202E}\u{200B}\u{0000}")
        _ = engine.handle(.beginProtection(id: 1, policy(.terminate, 1), context: garbage), now: 0)
        let shown = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0)
        #expect(shown[1] == .present(.terminate, remaining: 1, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, context: CallMonitorContext(kind: .payment), on: .builtInDialog))
        let exit = engine.handle(.wake(), now: second)
        #expect(exit.last == .exit(code: 0))
    }
}

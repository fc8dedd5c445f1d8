// What still goes through the engine after the exit (its one guard at `handle`'s entry,
// `afterExit`): the app's objects are still handed to the core, a refusal the facade decided is
// still reported, a command that starts monitoring still reads the sources once and starts
// nothing; every other input returns no action.

import Testing
@testable import hnb

@Suite("After the exit: only the app's objects and the facade's refusals go through")
struct AfterExitTests {
    /// An engine that exited: a terminate countdown of 1 s tapped at once.
    static func exited() -> MonitorEngine {
        var engine = MonitorEngine()
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 1)), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0)
        _ = engine.handle(.userAction(token: 1), now: 0)
        return engine
    }

    @Test("Each setting's object is still handed over, exactly as given; a facade refusal keeps its reason")
    func objectsAndRefusals() {
        var engine = Self.exited()
        #expect(engine.hasExited)
        #expect(engine.handle(.setCallback { _ in }, now: 5) == [.install(.callback { _ in })])
        #expect(engine.handle(.setCallback(nil), now: 5) == [.install(.callback(nil))])
        #expect(engine.handle(.setStrings(.english), now: 5) == [.install(.strings(.english))])
        #expect(engine.handle(.setOutcomeHandler { _ in }, now: 5) == [.install(.outcomeHandler { _ in })])
        #expect(engine.handle(.setBeforeForceExit({}, budgetNanoseconds: 7), now: 5) == [.install(.beforeForceExit({}, budgetNanoseconds: 7))])
        let verifier = VerifierBox(verifier: AsyncCallVerifier { .unknown })
        #expect(engine.handle(.setCallVerifier(verifier), now: 5) == [.install(.verifier(verifier))])
        #expect(engine.handle(.setCallVerifier(nil), now: 5) == [.install(.verifier(nil))])
        let refusal = PolicyRefusal(.badSignature, "the signature does not verify")
        #expect(engine.handle(.policyRejected(refusal), now: 5) == [.policy(MonitorEngine.PolicyEvent(rejected: refusal, version: nil))])
        #expect(engine.hasExited)
    }

    @Test("A command that starts monitoring reads the sources once and starts nothing; every other input is ignored")
    func nothingElse() {
        var engine = Self.exited()
        var reads = 0
        let starting: [MonitorEngine.Input] = [
            .start(MonitorPolicy(flow: .terminate, requestedSeconds: 1)), .observe(),
            .beginProtection(id: 1, MonitorPolicy(flow: .terminate, requestedSeconds: 1)),
            .screenCaptureEscalation(MonitorPolicy(flow: .terminate, requestedSeconds: 1)),
        ]
        for input in starting {
            let actions = engine.handle(input, now: 5) {
                reads += 1
                return MonitorEngine.Sensors(isForeground: true, isCaptured: false)
            }
            #expect(actions == [])
        }
        #expect(reads == starting.count)
        let ignored: [MonitorEngine.Input] = [
            .stop, .endProtection(id: 1), .exempt(CallID("A")), .removeExemption(CallID("A")), .callDetection(false),
            .calls(.complete([CallSnapshot(id: CallID("B"))])), .appState(isForeground: false), .wake(), .userAction(token: 1),
            .screenCapture(isCaptured: true), .refusesAcknowledgementWhileScreenCaptured(true), .verdictBudget(1),
            .verdictArrived(request: 1, .unknown), .verdictBudgetExpired(request: 1), .delegateReleased,
            .policyKeys(MonitorEngine.PolicyKeys(allowsRelaxation: true, restored: nil)), .policyAttributes(["a": "b"]),
            .wallClockChanged, .policyWake(),
        ]
        for input in ignored {
            let actions = engine.handle(input, now: 5) {
                reads += 1
                return MonitorEngine.Sensors(isForeground: true, isCaptured: true)
            }
            #expect(actions == [], "\(input)")
        }
        #expect(reads == starting.count)
        #expect(engine.hasExited && engine.callState == .ringing)
    }
}

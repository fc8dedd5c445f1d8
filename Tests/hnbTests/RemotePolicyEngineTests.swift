// The signed remote policy in the engine (issue 28, rules 26 to 28): a document applied at once
// as a change of the policies (rule 18), stricter only unless relaxation is allowed, rollback and
// unchanged, switching at nbf and exp while running, the wall clock's high-water mark, targeting,
// named screens, detection, and where each outcome's policy came from. Pure steps, exact actions.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy

/// An engine with a wall clock of its own, so a test can set the device's date back.
struct PolicyEngineRig {
    var engine = MonitorEngine()
    /// Seconds since 1970 at monotonic 0.
    static let epoch: Double = 1_800_000_000
    /// Added to the wall clock: a user changing the device's date.
    var jump: Double = 0

    mutating func step(_ input: MonitorEngine.Input, at seconds: Double) -> [MonitorEngine.Action] {
        let now = Int64((seconds * 1e9).rounded())
        return engine.handle(input, now: now, wallClock: Date(timeIntervalSince1970: Self.epoch + seconds + jump)) {
            .init(isForeground: true, isCaptured: false)
        }
    }

    /// A verified document (the facade's part), made with the test keys.
    static func document(ver: Int = 1, nbf: Double? = nil, exp: Double = 3600, rules: String) -> (PolicyDocument, [UInt8]) {
        let signer = PolicyTestSigner.shared
        let text = signer.document(ver: ver, iat: Int(epoch), nbf: nbf.map { Int(epoch + $0) }, exp: Int(epoch + exp), rules: rules)
        guard case .success(let document) = signer.verify(text) else { fatalError("the test document does not verify") }
        return (document, text)
    }

    static func apply(ver: Int = 1, nbf: Double? = nil, exp: Double = 3600, rules: String) -> MonitorEngine.Input {
        let (document, text) = document(ver: ver, nbf: nbf, exp: exp, rules: rules)
        return .applyPolicy(document, text: text)
    }

    static func keys(relax: Bool) -> MonitorEngine.Input { .policyKeys(.init(allowsRelaxation: relax, restored: nil)) }
    static let iOS261: MonitorEngine.Input = .policyAttributes(["os": "iOS", "osVersion": "26.1"])
    static let killSwitch = #"[{"when":{"os":"iOS"},"policy":{"appWide":"observe","screens":{"transfer":"off"}}}]"#
    static func terminate(_ seconds: Int32) -> MonitorPolicy { MonitorPolicy(flow: .terminate, requestedSeconds: seconds) }
    static func acknowledge(_ seconds: Int32) -> MonitorPolicy { MonitorPolicy(flow: .acknowledge, requestedSeconds: seconds) }
    static let callA: MonitorEngine.Input = .calls(.changes([CallSnapshot(id: CallID("A"), hasConnected: true)]))
    static let s: Int64 = 1_000_000_000

    static func record(_ ver: Int64, mark: Double, text: [UInt8]?) -> MonitorEngine.Action {
        .persistPolicy(.init(text: text, highestVersion: ver, clockMark: epoch + mark))
    }

    static func outcome(
        _ ending: MonitorEngine.Ending, _ flow: CallMonitorFlow, total: Int32, from start: Double, to end: Double, lowest: Int32,
        source: CallMonitorOutcome.PolicySource, id: UInt64 = 1
    ) -> MonitorEngine.Action {
        var outcome = CallMonitorOutcome(
            ending: ending, flow: flow, seconds: total, startedAt: Int64(start * 1e9), endedAt: Int64(end * 1e9),
            startedDate: Date(timeIntervalSince1970: epoch + start), endedDate: Date(timeIntervalSince1970: epoch + end),
            lowestRemaining: lowest, presentations: [.init(surface: .builtInDialog, at: Int64(start * 1e9), remaining: total)],
            wasScreenCaptured: false
        )
        outcome.policySource = source
        outcome.id = id
        return .outcome(outcome)
    }
}

@Suite("Remote policy in the engine (rules 26 to 28)")
struct RemotePolicyEngineTests {
    typealias R = PolicyEngineRig
    let s = R.s

    @Test("Rule 26: the kill switch, allowed, ends the countdown on screen at once (policyChanged) and nothing warns after it")
    func killSwitchApplied() {
        var rig = R()
        _ = rig.step(R.keys(relax: true), at: 0)
        _ = rig.step(R.iOS261, at: 0)
        _ = rig.step(.start(R.terminate(10)), at: 0)
        #expect(rig.step(R.callA, at: 1) == [
            .emit(.started), .present(.terminate, remaining: 10, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 2 * s),
        ])
        let (document, text) = R.document(rules: R.killSwitch)
        #expect(rig.step(.applyPolicy(document, text: text), at: 3) == [
            .policy(.init(.applied, version: 1)), R.record(1, mark: 3, text: text),
            .dismiss(on: .builtInDialog), .cancelWakeUp,
            R.outcome(.policyChanged, .terminate, total: 10, from: 1, to: 3, lowest: 10, source: .code),
            .schedulePolicyWake(at: 3600 * s),
        ])
        // The call goes on; nothing warns, nothing exits.
        #expect(rig.step(.wake(), at: 4) == [])
        #expect(rig.step(.calls(.changes([CallSnapshot(id: CallID("B"), hasConnected: true)])), at: 20) == [])
        #expect(rig.engine.shownEvent == nil)
    }

    @Test("Rule 26: without the app's permission a relaxing document is refused whole and the countdown runs on")
    func relaxationRefused() {
        var rig = R()
        _ = rig.step(R.keys(relax: false), at: 0)
        _ = rig.step(R.iOS261, at: 0)
        _ = rig.step(.start(R.terminate(10)), at: 0)
        _ = rig.step(R.callA, at: 1)
        // Each refusal names the first setting that weakens the code's policy (issue 38).
        for (rules, weakening) in [
            (R.killSwitch, #"rules[0].policy.appWide: "observe" weakens the code's policy"#),
            (#"[{"policy":{"appWide":{"flow":"terminate","seconds":11}}}]"#, "rules[0].policy.appWide: terminate 11 s is weaker than the code's terminate 10 s"),
            (#"[{"policy":{"appWide":{"flow":"acknowledge","seconds":60}}}]"#, "rules[0].policy.appWide: acknowledge 60 s is weaker than the code's terminate 10 s"),
            (#"[{"policy":{"screens":{"login":"off"}}}]"#, #"rules[0].policy.screens.login: "off" weakens the code's policy"#),
            (#"[{"policy":{"screenCaptured":"off"}}]"#, #"rules[0].policy.screenCaptured: "off" weakens the code's policy"#),
            (#"[{"policy":{"detection":false}}]"#, "rules[0].policy.detection: false turns off the code's call detection"),
            // Not the matching rule, but a rule of the document: refused whole.
            (#"[{"when":{"os":"Linux"},"policy":{"appWide":"observe"}},{"policy":{"appWide":{"flow":"terminate","seconds":3}}}]"#,
             #"rules[0].policy.appWide: "observe" weakens the code's policy"#),
        ] {
            #expect(rig.step(R.apply(ver: 5, rules: rules), at: 2)
                == [.policy(.init(.rejected, version: 5, reason: .relaxationNotAllowed, detail: weakening + ", and the app does not allow relaxation (setPolicyKeys allowsRelaxation)"))], "\(rules)")
        }
        #expect(rig.step(.wake(), at: 2) == [.tick(.terminate, remaining: 9, token: 1, button: .available, on: .builtInDialog), .schedule(at: 3 * s)])
        #expect(rig.engine.remote.highestVersion == 0)
    }

    @Test("Rule 26: a stricter document applies without permission; rule 21 keeps the new countdown within the old deadline; the outcome names the version")
    func stricterApplies() {
        var rig = R()
        _ = rig.step(R.keys(relax: false), at: 0)
        _ = rig.step(.start(R.acknowledge(10)), at: 0)
        _ = rig.step(R.callA, at: 0)
        let (document, text) = R.document(ver: 4, rules: #"[{"policy":{"appWide":{"flow":"terminate","seconds":5}}}]"#)
        #expect(rig.step(.applyPolicy(document, text: text), at: 2) == [
            .policy(.init(.applied, version: 4)), R.record(4, mark: 2, text: text),
            .dismiss(on: .builtInDialog), .cancelWakeUp,
            R.outcome(.policyChanged, .acknowledge, total: 10, from: 0, to: 2, lowest: 10, source: .code),
            .present(.terminate, remaining: 5, token: 2, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 3 * s), .schedulePolicyWake(at: 3600 * s),
        ])
        // A stricter code policy still wins over the document (strictest of all, rule 18).
        #expect(rig.step(.start(R.terminate(2)), at: 3) == [
            .dismiss(on: .builtInDialog), .cancelWakeUp,
            R.outcome(.policyChanged, .terminate, total: 5, from: 2, to: 3, lowest: 5, source: .document(version: 4), id: 2),
            .present(.terminate, remaining: 2, token: 3, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 4 * s),
        ])
    }

    @Test("Rule 27: a version below the highest accepted is a rollback, the same version is unchanged, and neither changes anything")
    func rollbackAndUnchanged() {
        var rig = R()
        _ = rig.step(R.keys(relax: true), at: 0)
        let rules = #"[{"policy":{"appWide":{"flow":"terminate","seconds":5}}}]"#
        let (document, text) = R.document(ver: 3, rules: rules)
        #expect(rig.step(.applyPolicy(document, text: text), at: 1) == [
            .policy(.init(.applied, version: 3)), R.record(3, mark: 1, text: text), .schedulePolicyWake(at: 3600 * s),
        ])
        #expect(rig.step(R.apply(ver: 3, rules: R.killSwitch), at: 2) == [.policy(.init(.unchanged, version: 3))])
        #expect(rig.step(R.apply(ver: 2, rules: R.killSwitch), at: 2)
            == [.policy(.init(.rejected, version: 2, reason: .rollback, detail: "ver: expected 3 or higher (the highest version accepted), got 2"))])
        #expect(rig.engine.remote.document == document)
    }

    @Test("Rule 26: a document arriving before setPolicyKeys, or already past exp, is refused")
    func noKeysAndExpired() {
        var rig = R()
        #expect(rig.step(R.apply(rules: "[]"), at: 0) == [.policy(.init(.rejected, version: 1, reason: .noKeys, detail: "no keys are pinned (setPolicyKeys)"))])
        _ = rig.step(R.keys(relax: true), at: 0)
        #expect(rig.step(R.apply(exp: 10, rules: "[]"), at: 10)
            == [.policy(.init(.rejected, version: 1, reason: .expired, detail: "exp: expected after the device's clock (1800000010), got 1800000010"))])
        let forged = PolicyRefusal(.badSignature, #"signature: does not verify with key "ed-1" (EdDSA)"#)
        #expect(rig.step(.policyRejected(forged), at: 10) == [.policy(.init(.rejected, version: nil, reason: .badSignature, detail: forged.detail))])
    }

    @Test("Rule 28: at exp the document expires by itself while a countdown runs: the event ends policyChanged and the code's policy begins at once, its countdown no longer than the old deadline")
    func expiresWhileCountingDown() {
        var rig = R()
        _ = rig.step(R.keys(relax: true), at: 0)
        _ = rig.step(.start(R.terminate(30)), at: 0)
        let (document, text) = R.document(ver: 2, exp: 4, rules: #"[{"policy":{"appWide":{"flow":"terminate","seconds":10}}}]"#)
        _ = rig.step(.applyPolicy(document, text: text), at: 0)
        _ = rig.step(R.callA, at: 1)
        #expect(rig.engine.shownEvent?.total == 10)
        for second in 2...3 { _ = rig.step(.wake(), at: Double(second)) }
        #expect(rig.step(.policyWake(), at: 4) == [
            .policy(.init(.expired, version: 2)),
            .dismiss(on: .builtInDialog), .cancelWakeUp,
            R.outcome(.policyChanged, .terminate, total: 10, from: 1, to: 4, lowest: 8, source: .document(version: 2)),
            // Rule 21: 30 s from now would end later than the deadline at 11 s: it counts from 11 - 30.
            .present(.terminate, remaining: 7, token: 2, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            // The wake-up that fired was the last: nothing left to cancel.
            .schedule(at: 5 * s),
        ])
    }

    @Test("Rule 28: a document before its nbf is accepted and waits; at nbf it comes into force by itself")
    func notBefore() {
        var rig = R()
        _ = rig.step(R.keys(relax: false), at: 0)
        _ = rig.step(.start(R.acknowledge(10)), at: 0)
        _ = rig.step(R.callA, at: 0)
        let (document, text) = R.document(nbf: 5, rules: #"[{"policy":{"appWide":{"flow":"terminate","seconds":9}}}]"#)
        #expect(rig.step(.applyPolicy(document, text: text), at: 1) == [
            .policy(.init(.applied, version: 1)), R.record(1, mark: 1, text: text), .schedulePolicyWake(at: 5 * s),
        ])
        #expect(rig.step(.policyWake(), at: 5) == [
            .dismiss(on: .builtInDialog), .cancelWakeUp,
            R.outcome(.policyChanged, .acknowledge, total: 10, from: 0, to: 5, lowest: 10, source: .code),
            .present(.terminate, remaining: 9, token: 2, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 6 * s), .schedulePolicyWake(at: 3600 * s),
        ])
    }

    @Test("Rule 28: the clock set back more than 5 minutes behind its high-water mark expires a kill switch: the code's countdown begins")
    func clockSetBackRevivesNothing() {
        var rig = R()
        _ = rig.step(R.keys(relax: true), at: 0)
        _ = rig.step(R.iOS261, at: 0)
        _ = rig.step(.start(R.terminate(10)), at: 0)
        _ = rig.step(R.apply(exp: 3600, rules: R.killSwitch), at: 0)
        #expect(rig.step(R.callA, at: 100) == [.emit(.started)])
        // Back by exactly 5 minutes from the highest reading (100 s): still in force.
        rig.jump = -300
        // Only the wake-up for exp moves: on the monotonic clock it is 300 s further away now.
        #expect(rig.step(.wallClockChanged, at: 100) == [.schedulePolicyWake(at: 3900 * s)])
        rig.jump = -301
        #expect(rig.step(.wallClockChanged, at: 100) == [
            .policy(.init(.expired, version: 1)),
            .present(.terminate, remaining: 10, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 101 * s),
            // It would count again once the clock is back within 5 minutes of the mark.
            .schedulePolicyWake(at: 101 * s),
        ])
        #expect(rig.engine.policySource == .code)
    }

    @Test("Rule 28: a stricter document is not expired by a clock set back: setting the date back never weakens the guard")
    func clockSetBackKeepsStricter() {
        var rig = R()
        _ = rig.step(R.keys(relax: true), at: 0)
        _ = rig.step(.start(R.acknowledge(10)), at: 0)
        _ = rig.step(R.apply(exp: 3600, rules: #"[{"policy":{"appWide":{"flow":"terminate","seconds":5}}}]"#), at: 0)
        rig.jump = -86_400
        #expect(rig.step(R.callA, at: 10).prefix(2) == [
            .emit(.started), .present(.terminate, remaining: 5, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
        ])
    }

    @Test("Rule 26: the first rule whose when matches is in force; attributes that change target another rule at once")
    func targeting() {
        var rig = R()
        _ = rig.step(R.keys(relax: true), at: 0)
        _ = rig.step(.policyAttributes(["os": "iOS", "osVersion": "26.2"]), at: 0)
        _ = rig.step(.start(R.terminate(10)), at: 0)
        _ = rig.step(R.apply(rules: #"[{"when":{"os":"iOS","osVersion":">=26.0 <26.2"},"policy":{"appWide":"observe"}},{"when":{"attributes":{"region":["CN","HK"]}},"policy":{"appWide":{"flow":"acknowledge","seconds":30}}}]"#), at: 0)
        #expect(rig.step(R.callA, at: 1).count == 3)
        #expect(rig.engine.shownEvent?.total == 10)
        // 26.1 is in the first rule's range: the kill switch for that version.
        let switched = rig.step(.policyAttributes(["os": "iOS", "osVersion": "26.1"]), at: 2)
        #expect(switched.contains(.dismiss(on: .builtInDialog)) && !switched.contains { $0.isPresentation })
        #expect(rig.step(.policyAttributes(["os": "iOS", "osVersion": "26.2", "region": "HK"]), at: 3) == [
            .present(.acknowledge, remaining: 30, token: 2, button: .hidden, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 4 * s),
        ])
        #expect(rig.engine.policySource == .document(version: 1))
    }

    @Test("Rule 26: a document's screens address named protections; an unnamed one keeps the code's policy")
    func namedScreens() {
        var rig = R()
        _ = rig.step(R.keys(relax: true), at: 0)
        _ = rig.step(R.apply(rules: #"[{"policy":{"screens":{"transfer":{"flow":"acknowledge","seconds":30},"login":"off"}}}]"#), at: 0)
        _ = rig.step(.beginProtection(id: 1, R.terminate(5), name: "transfer"), at: 0)
        #expect(rig.engine.guards.inForce == R.acknowledge(30))
        _ = rig.step(.beginProtection(id: 2, R.terminate(3), name: "login"), at: 0)
        #expect(rig.engine.guards.inForce == R.acknowledge(30))
        _ = rig.step(.beginProtection(id: 3, R.acknowledge(40)), at: 0)
        #expect(rig.engine.guards.inForce == R.acknowledge(40))
        _ = rig.step(.endProtection(id: 3), at: 0)
        _ = rig.step(.endProtection(id: 1), at: 0)
        // Only "login" is open, and the document switched it off: observe, still monitoring.
        #expect(rig.engine.guards.inForce == nil)
        #expect(rig.engine.isMonitoring)
    }

    @Test("Rule 26: without permission a named screen's document policy only adds to the code's")
    func namedScreensStricterOnly() {
        var rig = R()
        _ = rig.step(R.keys(relax: false), at: 0)
        _ = rig.step(.beginProtection(id: 1, R.acknowledge(10), name: "transfer"), at: 0)
        #expect(rig.step(R.apply(rules: #"[{"policy":{"screens":{"transfer":{"flow":"acknowledge","seconds":5}}}}]"#), at: 0)
            == [.policy(.init(.rejected, version: 1, reason: .relaxationNotAllowed,
                              detail: "rules[0].policy.screens.transfer: acknowledge 5 s is weaker than the code's acknowledge 10 s, and the app does not allow relaxation (setPolicyKeys allowsRelaxation)"))])
        _ = rig.step(R.apply(rules: #"[{"policy":{"screens":{"transfer":{"flow":"terminate","seconds":20}}}}]"#), at: 0)
        #expect(rig.engine.guards.inForce == R.terminate(20))
        // The code opens a stricter one later: the strictest of both holds.
        _ = rig.step(.beginProtection(id: 2, R.terminate(4), name: "transfer"), at: 0)
        #expect(rig.engine.guards.inForce == R.terminate(4))
    }

    @Test("Rule 26: detection off and a verifier budget from the document follow it, and the code's come back at expiry")
    func detectionAndBudget() {
        var rig = R()
        _ = rig.step(R.keys(relax: true), at: 0)
        _ = rig.step(.verdictBudget(2 * s), at: 0)
        _ = rig.step(.start(R.terminate(10)), at: 0)
        #expect(rig.step(R.apply(exp: 10, rules: #"[{"policy":{"detection":false,"verifierBudget":7.5}}]"#), at: 0).contains(.stopCallSource))
        #expect(rig.engine.verdicts.budget == 7_500_000_000)
        #expect(rig.step(.policyWake(), at: 10).contains(.startCallSource))
        #expect(rig.engine.verdicts.budget == 2 * s)
    }

    @Test("Rule 27: the record of a previous launch applies at setPolicyKeys, before any call is seen; keys set again without relaxation drop a relaxing one")
    func restoredAtKeys() {
        var rig = R()
        let (document, text) = R.document(ver: 6, rules: #"[{"policy":{"appWide":"observe"}}]"#)
        _ = rig.step(.start(R.terminate(10)), at: 0)
        let restored = MonitorEngine.RestoredPolicy(document: document, text: text, highestVersion: 6, clockMark: R.epoch + 50)
        #expect(rig.step(.policyKeys(.init(allowsRelaxation: true, restored: restored)), at: 0) == [.schedulePolicyWake(at: 3600 * s)])
        #expect(rig.step(R.callA, at: 1) == [.emit(.started)])
        #expect(rig.step(R.apply(ver: 5, rules: "[]"), at: 2)
            == [.policy(.init(.rejected, version: 5, reason: .rollback, detail: "ver: expected 6 or higher (the highest version accepted), got 5"))])
        #expect(rig.step(R.keys(relax: false), at: 3) == [
            .policy(.init(.rejected, version: 6, reason: .relaxationNotAllowed, detail: #"rules[0].policy.appWide: "observe" weakens the code's policy"# + ", and the app does not allow relaxation (setPolicyKeys allowsRelaxation)")),
            .persistPolicy(.init(text: nil, highestVersion: 6, clockMark: R.epoch + 50)),
            .present(.terminate, remaining: 10, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 4 * s), .cancelPolicyWake,
        ])
    }

    @Test("Rule 26: without permission a document's detection false cannot switch detection off: turned on by the code, detection runs")
    func detectionFalseWithoutRelaxation() {
        var rig = R()
        _ = rig.step(R.keys(relax: false), at: 0)
        _ = rig.step(.callDetection(false), at: 0)
        _ = rig.step(.start(R.terminate(10)), at: 0)
        // The code has detection off: a document that keeps it off weakens nothing and applies.
        let (document, text) = R.document(rules: #"[{"policy":{"detection":false}}]"#)
        #expect(rig.step(.applyPolicy(document, text: text), at: 1) == [
            .policy(.init(.applied, version: 1)), R.record(1, mark: 1, text: text), .schedulePolicyWake(at: 3600 * s),
        ])
        // The code switches it on: the document can only add to the code's, so the source starts.
        #expect(rig.step(.callDetection(true), at: 2) == [.startCallSource])
        #expect(rig.step(R.callA, at: 3) == [
            .emit(.started), .present(.terminate, remaining: 10, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 4 * s),
        ])
    }

    @Test("Rule 26: without permission a screenCaptured laxer than the code's escalation is refused whole; a stricter one applies")
    func laxerScreenCapturedRefused() {
        var rig = R()
        _ = rig.step(R.keys(relax: false), at: 0)
        _ = rig.step(.start(R.acknowledge(30)), at: 0)
        _ = rig.step(.screenCaptureEscalation(R.terminate(5)), at: 0)
        for (rules, weakening) in [
            (#"[{"policy":{"screenCaptured":{"flow":"terminate","seconds":6}}}]"#, "terminate 6 s"),
            (#"[{"policy":{"screenCaptured":{"flow":"acknowledge","seconds":60}}}]"#, "acknowledge 60 s"),
            (#"[{"policy":{"screenCaptured":{"flow":"acknowledge","seconds":0}}}]"#, "acknowledge 0 s"),
        ] {
            #expect(rig.step(R.apply(ver: 2, rules: rules), at: 1) == [.policy(.init(.rejected, version: 2, reason: .relaxationNotAllowed,
                detail: "rules[0].policy.screenCaptured: \(weakening) is weaker than the code's terminate 5 s, and the app does not allow relaxation (setPolicyKeys allowsRelaxation)"))], "\(rules)")
        }
        let (document, text) = R.document(ver: 2, rules: #"[{"policy":{"screenCaptured":{"flow":"terminate","seconds":3}}}]"#)
        #expect(rig.step(.applyPolicy(document, text: text), at: 1) == [
            .policy(.init(.applied, version: 2)), R.record(2, mark: 1, text: text), .schedulePolicyWake(at: 3600 * s),
        ])
    }

    @Test("Rule 28: a kill switch that arrives while the clock reads more than 5 minutes behind its mark is refused as expired; within 5 minutes it applies")
    func killSwitchArrivingBehindTheMark() {
        var rig = R()
        _ = rig.step(R.keys(relax: true), at: 0)
        _ = rig.step(R.iOS261, at: 0)
        _ = rig.step(.start(R.terminate(10)), at: 0)
        // The mark moves to 1000 s; then the date is set back.
        #expect(rig.step(.wallClockChanged, at: 1000) == [])
        rig.jump = -301
        #expect(rig.step(R.apply(exp: 7200, rules: R.killSwitch), at: 1000) == [.policy(.init(.rejected, version: 1, reason: .expired,
            detail: "exp: the device's clock (1800000699) reads more than 5 minutes behind the latest it has read (1800001000), and the document weakens the code's policy"))])
        #expect(rig.engine.remote.highestVersion == 0)
        #expect(rig.engine.remote.document == nil)
        // A stricter document is no relaxation: the clock behind its mark does not refuse it.
        let (stricter, stricterText) = R.document(ver: 2, exp: 7200, rules: #"[{"policy":{"appWide":{"flow":"terminate","seconds":5}}}]"#)
        #expect(rig.step(.applyPolicy(stricter, text: stricterText), at: 1000).prefix(2) == [
            .policy(.init(.applied, version: 2)), R.record(2, mark: 1000, text: stricterText),
        ])
        rig.jump = -300
        let (kill, killText) = R.document(ver: 3, exp: 7200, rules: R.killSwitch)
        #expect(rig.step(.applyPolicy(kill, text: killText), at: 1000).prefix(2) == [
            .policy(.init(.applied, version: 3)), R.record(3, mark: 1000, text: killText),
        ])
    }

    @Test("Rule 28: the clock's mark is written down each time it moves 5 minutes on, so a relaunch with the clock set back finds the kill switch expired")
    func movingMarkWrittenAcrossRelaunch() {
        var rig = R()
        _ = rig.step(R.keys(relax: true), at: 0)
        _ = rig.step(R.iOS261, at: 0)
        let (document, text) = R.document(exp: 7200, rules: R.killSwitch)
        #expect(rig.step(.applyPolicy(document, text: text), at: 0) == [
            .policy(.init(.applied, version: 1)), R.record(1, mark: 0, text: text), .schedulePolicyWake(at: 7200 * s),
        ])
        // The wall clock read again (the wake-up for exp is set again each time): the mark is
        // written when it has moved 5 minutes on since it was last written, not before.
        let wake: MonitorEngine.Action = .schedulePolicyWake(at: 7200 * s)
        #expect(rig.step(.wallClockChanged, at: 299) == [wake])
        #expect(rig.step(.wallClockChanged, at: 300) == [R.record(1, mark: 300, text: text), wake])
        #expect(rig.step(.wallClockChanged, at: 599) == [wake])
        #expect(rig.step(.wallClockChanged, at: 600) == [R.record(1, mark: 600, text: text), wake])
        // The next launch reads the file as written: at 299 s of the wall clock, 301 s behind the
        // mark, the kill switch counts as expired and the code's countdown begins.
        var relaunched = R()
        relaunched.jump = 299
        let restored = MonitorEngine.RestoredPolicy(document: document, text: text, highestVersion: 1, clockMark: R.epoch + 600)
        #expect(relaunched.step(.policyKeys(.init(allowsRelaxation: true, restored: restored)), at: 0) == [
            .policy(.init(.expired, version: 1)), .schedulePolicyWake(at: s),
        ])
        _ = relaunched.step(R.iOS261, at: 0)
        _ = relaunched.step(.start(R.terminate(10)), at: 0)
        #expect(relaunched.step(R.callA, at: 0) == [
            .emit(.started), .present(.terminate, remaining: 10, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: s),
        ])
    }

    @Test("Rule 26 with rule 18: while a document is in force, an event under the code's stricter policy names the code as its source")
    func codeStricterWhileDocumentInForce() {
        var rig = R()
        _ = rig.step(R.keys(relax: false), at: 0)
        _ = rig.step(R.apply(ver: 3, rules: #"[{"policy":{"appWide":{"flow":"terminate","seconds":20}}}]"#), at: 0)
        _ = rig.step(.beginProtection(id: 1, R.terminate(4)), at: 0)
        #expect(rig.engine.guards.inForce == R.terminate(4))
        #expect(rig.engine.policySource == .code)
        _ = rig.step(R.callA, at: 1)
        for second in 2...4 { _ = rig.step(.wake(), at: Double(second)) }
        #expect(rig.step(.wake(), at: 5) == [
            .tick(.terminate, remaining: 0, token: 1, button: .available, on: .builtInDialog),
            .cancelWakeUp, .stopSources(callSource: true),
            R.outcome(.forceExit, .terminate, total: 4, from: 1, to: 5, lowest: 0, source: .code),
            .exit(code: 0),
        ])
    }

    @Test("Rule 25 with rule 26: the document's screenCaptured guards a shared screen where the code set no escalation")
    func documentScreenCapturedWithoutCodeEscalation() {
        var rig = R()
        _ = rig.step(R.keys(relax: false), at: 0)
        _ = rig.step(.start(R.acknowledge(30)), at: 0)
        _ = rig.step(R.apply(ver: 2, rules: #"[{"policy":{"screenCaptured":{"flow":"terminate","seconds":5}}}]"#), at: 0)
        _ = rig.step(.screenCapture(isCaptured: true), at: 0)
        #expect(rig.step(R.callA, at: 1) == [
            .emit(.started), .present(.terminate, remaining: 5, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 2 * s),
        ])
        #expect(rig.engine.policySource == .document(version: 2))
    }

    @Test("Rule 29 with rule 26: when the document makes a named screen the strictest, the event shows that screen's context")
    func contextOfTheScreenTheDocumentMadeStrictest() {
        var rig = R()
        _ = rig.step(R.keys(relax: false), at: 0)
        let transfer = CallMonitorContext(kind: .payment, detail: "To M.")
        let login = CallMonitorContext(kind: .credentials, detail: "PIN")
        _ = rig.step(.beginProtection(id: 1, R.acknowledge(30), name: "transfer", context: transfer), at: 0)
        _ = rig.step(.beginProtection(id: 2, R.acknowledge(20), name: "login", context: login), at: 0)
        _ = rig.step(R.apply(ver: 2, rules: #"[{"policy":{"screens":{"transfer":{"flow":"terminate","seconds":5}}}}]"#), at: 0)
        #expect(rig.engine.guards.inForce == R.terminate(5))
        #expect(rig.engine.guards.context === transfer)
        _ = rig.step(R.callA, at: 1)
        #expect(rig.engine.shownEvent?.context === transfer)
    }

    @Test("Without keys nothing of the remote policy ever adds an action: the engine's other tests see no change")
    func silentWithoutKeys() {
        var rig = R()
        _ = rig.step(.start(R.terminate(3)), at: 0)
        #expect(rig.step(R.callA, at: 0) == [
            .emit(.started), .present(.terminate, remaining: 3, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: s),
        ])
        #expect(rig.step(.wallClockChanged, at: 0) == [])
    }
}

// Rule 35 in the engine: the signed remote policy's `coaching` member sets the coaching policy of
// the protections of a named screen. Stricter only unless the app allows relaxation (off <
// evaluate < acknowledge N, a longer N stricter), refused whole otherwise with the previous
// document kept, and a protection the member does not name keeps the code's. Pure steps, exact
// actions, on the simulated clock.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy

@Suite("Remote policy: the coaching member (rule 35)")
struct RemoteCoachingEngineTests {
    typealias R = PolicyEngineRig

    /// `{"coaching":{"screens":{"transfer":LEVELS}}}` as one rule's policy.
    static func transfer(_ levels: String) -> String { #"[{"policy":{"coaching":{"screens":{"transfer":\#(levels)}}}}]"# }
    static let medium8 = transfer(#"{"medium":{"flow":"acknowledge","seconds":8}}"#)

    /// A rig with a coaching source, the code's coaching `policy`, and keys set.
    static func rig(relax: Bool, policy: CallMonitor.CoachingPolicy = .init()) -> PolicyEngineRig {
        var rig = R()
        _ = rig.step(R.keys(relax: relax), at: 0)
        _ = rig.step(.coachingSource(.app), at: 0)
        _ = rig.step(.coachingPolicy(policy), at: 0)
        return rig
    }

    /// Opens protection `id` (acknowledge 3, a payment) named `name`, and answers its one question
    /// with `level` a second later: the answer's actions.
    static func answer(_ rig: inout PolicyEngineRig, id: UInt64, name: String?, _ level: CallMonitor.CoachingLevel, at time: Double) -> [String] {
        let asked = rig.step(.beginProtection(id: id, ackPolicy(3), name: name, context: coachingContext()), at: time).coachingQuestions
        guard let question = asked.first, asked.count == 1 else { return ["asked \(asked.map(\.id))"] }
        return rig.step(.coachingAnswered(request: question.id, .init(level: level)), at: time + 1).labels
    }

    static let applied: [MonitorEngine.Action] = [.policy(.init(.applied, version: 1))]

    @Test("Rule 35: a document's acknowledge 8 for medium makes a medium answer warn for 8 s where the code's response was off")
    func documentWarnsWhereCodeWasOff() {
        var rig = Self.rig(relax: false, policy: .init(medium: .off, high: .acknowledge(seconds: 10)))
        let (document, text) = R.document(rules: Self.medium8)
        #expect(Array(rig.step(.applyPolicy(document, text: text), at: 1).prefix(1)) == Self.applied)
        #expect(rig.engine.coachingPolicy(for: 1) == .init(medium: .off, high: .acknowledge(seconds: 10)))
        #expect(Self.answer(&rig, id: 1, name: "transfer", .medium, at: 2)
            == ["present acknowledge 8 hidden", "schedule 4", "evidence 1 in 1", "report 1 usedIncreasedFriction"])
        #expect(rig.engine.coachingPolicy(for: 1) == .init(medium: .acknowledge(seconds: 8), high: .acknowledge(seconds: 10)))
    }

    @Test("Rule 35: a protection the coaching member does not name, or an unnamed one, keeps the code's coaching policy")
    func unnamedProtectionKeepsTheCode() {
        var rig = Self.rig(relax: false, policy: .init(medium: .off, high: .acknowledge(seconds: 10)))
        let (document, text) = R.document(rules: Self.medium8)
        #expect(Array(rig.step(.applyPolicy(document, text: text), at: 1).prefix(1)) == Self.applied)
        #expect(Self.answer(&rig, id: 1, name: "login", .medium, at: 2) == ["report 1 usedUnchangedFriction"])
        #expect(Self.answer(&rig, id: 2, name: nil, .medium, at: 4) == ["report 2 usedUnchangedFriction"])
        #expect(rig.engine.shownEvent == nil)
    }

    @Test("Rule 35: without allowsRelaxation a weaker coaching level is refused whole, naming it; the document before stays in force")
    func weakerRefusedWhole() {
        var rig = Self.rig(relax: false)
        let (document, text) = R.document(rules: Self.medium8)
        #expect(Array(rig.step(.applyPolicy(document, text: text), at: 1).prefix(1)) == Self.applied)
        let tail = ", and the app does not allow relaxation (setPolicyKeys allowsRelaxation)"
        for (levels, weakening) in [
            (#"{"medium":"off"}"#, #"rules[0].policy.coaching.screens.transfer.medium: "off" is weaker than the code's acknowledge 5 s"#),
            (#"{"medium":"evaluate"}"#, #"rules[0].policy.coaching.screens.transfer.medium: "evaluate" is weaker than the code's acknowledge 5 s"#),
            (#"{"medium":{"flow":"acknowledge","seconds":20},"high":{"flow":"acknowledge","seconds":9}}"#,
             "rules[0].policy.coaching.screens.transfer.high: acknowledge 9 s is weaker than the code's acknowledge 10 s"),
            // One weaker level among stricter ones and a stricter screen policy: the whole document goes.
            (#"{"medium":{"flow":"acknowledge","seconds":30},"high":{"flow":"acknowledge","seconds":-4}}"#,
             "rules[0].policy.coaching.screens.transfer.high: acknowledge 0 s is weaker than the code's acknowledge 10 s"),
        ] {
            #expect(rig.step(R.apply(ver: 2, rules: Self.transfer(levels)), at: 2)
                == [.policy(.init(.rejected, version: 2, reason: .relaxationNotAllowed, detail: weakening + tail))], "\(levels)")
        }
        #expect(rig.engine.remote.highestVersion == 1)
        // The first document still decides: a medium answer warns for its 8 s, not the code's 5.
        #expect(Self.answer(&rig, id: 1, name: "transfer", .medium, at: 3)
            == ["present acknowledge 8 hidden", "schedule 5", "evidence 1 in 1", "report 1 usedIncreasedFriction"])
    }

    @Test("Rule 35: whether to ask follows the screen's policy in force: a stricter document asks where the code's policy is off for both levels")
    func documentMakesTheScreenAsk() {
        var rig = Self.rig(relax: false, policy: .init(medium: .off, high: .off))
        let (document, text) = R.document(rules: Self.medium8)
        #expect(Array(rig.step(.applyPolicy(document, text: text), at: 1).prefix(1)) == Self.applied)
        // The transfer screen is asked about (the document's medium 8), and its medium answer warns for 8 s.
        #expect(Self.answer(&rig, id: 1, name: "transfer", .medium, at: 2)
            == ["present acknowledge 8 hidden", "schedule 4", "evidence 1 in 1", "report 1 usedIncreasedFriction"])
        // Another screen keeps the code's policy, off for both levels: not asked.
        #expect(rig.step(.beginProtection(id: 2, ackPolicy(3), name: "login", context: coachingContext()), at: 4).coachingQuestions == [])
    }

    @Test("Rule 35: whether to ask follows the screen's policy in force: a relaxing document that turns both levels off asks nothing")
    func relaxingDocumentStopsTheScreenAsking() {
        var rig = Self.rig(relax: true)
        let (document, text) = R.document(rules: Self.transfer(#"{"medium":"off","high":"off"}"#))
        #expect(Array(rig.step(.applyPolicy(document, text: text), at: 1).prefix(1)) == Self.applied)
        #expect(rig.step(.beginProtection(id: 1, ackPolicy(3), name: "transfer", context: coachingContext()), at: 2).coachingQuestions == [])
        // A screen the document does not name keeps the code's policy, and is asked about.
        #expect(rig.step(.beginProtection(id: 2, ackPolicy(3), name: "login", context: coachingContext()), at: 3).coachingQuestions.map(\.id) == [1])
    }

    @Test("Rule 35: with allowsRelaxation the document's levels replace the code's: a shorter warning and off are accepted")
    func relaxationAllowedReplaces() {
        var rig = Self.rig(relax: true)
        let (document, text) = R.document(rules: Self.transfer(#"{"medium":{"flow":"acknowledge","seconds":3},"high":"off"}"#))
        #expect(Array(rig.step(.applyPolicy(document, text: text), at: 1).prefix(1)) == Self.applied)
        #expect(rig.engine.coachingPolicy(for: 1) == .init())
        #expect(Self.answer(&rig, id: 1, name: "transfer", .high, at: 2) == ["report 1 usedUnchangedFriction"])
        #expect(Self.answer(&rig, id: 2, name: "transfer", .medium, at: 4)
            == ["present acknowledge 3 hidden", "schedule 6", "evidence 2 in 1", "report 2 usedIncreasedFriction"])
    }

    @Test("Rule 35: without relaxation an accepted level stays the stricter of both when the code's coaching policy later grows")
    func stricterOfBothWhenCodeGrows() {
        var rig = Self.rig(relax: false)
        let (document, text) = R.document(rules: Self.transfer(#"{"medium":{"flow":"acknowledge","seconds":8},"high":"code"}"#))
        #expect(Array(rig.step(.applyPolicy(document, text: text), at: 1).prefix(1)) == Self.applied)
        _ = rig.step(.coachingPolicy(.init(medium: .acknowledge(seconds: 20), high: .acknowledge(seconds: 12))), at: 1)
        #expect(Self.answer(&rig, id: 1, name: "transfer", .medium, at: 2)
            == ["present acknowledge 20 hidden", "schedule 4", "evidence 1 in 1", "report 1 usedIncreasedFriction"])
    }

    /// The sources of the outcomes among `actions`, in order.
    static func sources(_ actions: [MonitorEngine.Action]) -> [CallMonitorOutcome.PolicySource] {
        actions.compactMap { if case .outcome(let outcome) = $0 { outcome.policySource } else { nil } }
    }

    @Test("Rule 35: a coaching warning whose policy the document's coaching member set records that document as its source; the code's records code")
    func coachingWarningNamesTheDocument() throws {
        var rig = Self.rig(relax: false, policy: .init(medium: .off, high: .acknowledge(seconds: 10)))
        #expect(Array(rig.step(R.apply(ver: 4, rules: Self.medium8), at: 1).prefix(1)) == [.policy(.init(.applied, version: 4))])
        _ = Self.answer(&rig, id: 1, name: "transfer", .medium, at: 2)
        for second in 4...11 { _ = rig.step(.wake(), at: Double(second)) }
        var token = try #require(rig.engine.shownEvent?.token)
        #expect(Self.sources(rig.step(.userAction(token: token), at: 12)) == [.document(version: 4)])
        // A high answer: the code's 10 s, stricter than the document's medium 8, and the code's response.
        _ = Self.answer(&rig, id: 2, name: "transfer", .high, at: 13)
        for second in 15...24 { _ = rig.step(.wake(), at: Double(second)) }
        token = try #require(rig.engine.shownEvent?.token)
        #expect(Self.sources(rig.step(.userAction(token: token), at: 25)) == [.code])
    }

    @Test("Rule 35: with a call live, an event whose policy a document-set coaching answer decides records that document; one the call's own policy decides records code")
    func liveCallEventNamesTheDocument() throws {
        var rig = Self.rig(relax: false, policy: .init(medium: .off, high: .acknowledge(seconds: 10)))
        #expect(Array(rig.step(R.apply(ver: 3, rules: Self.medium8), at: 1).prefix(1)) == [.policy(.init(.applied, version: 3))])
        _ = rig.step(.start(R.acknowledge(2)), at: 1)
        _ = rig.step(R.callA, at: 1)
        // The call's acknowledge 2 shows; the answer's acknowledge 8 replaces it (a stricter policy).
        let answered = Self.answer(&rig, id: 1, name: "transfer", .medium, at: 2)
        #expect(answered.contains("present acknowledge 8 hidden"), "\(answered)")
        #expect(Self.sources(rig.step(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), at: 20)) == [.document(version: 3)])
        // Without the document's coaching deciding: a terminate call policy is stricter than any warning.
        _ = rig.step(.beginProtection(id: 9, R.terminate(30), name: "other"), at: 21)
        _ = rig.step(.calls(.changes([CallSnapshot(id: CallID("B"), hasConnected: true)])), at: 21)
        #expect(Self.sources(rig.step(.endProtection(id: 9), at: 22)) == [.code])
    }

    @Test("Rule 35: a coaching warning the code's response gives records code while a document is in force that does not name its screen")
    func codeWarningUnderDocumentRecordsCode() throws {
        var rig = Self.rig(relax: false)
        #expect(Array(rig.step(R.apply(ver: 5, rules: Self.medium8), at: 1).prefix(1)) == [.policy(.init(.applied, version: 5))])
        #expect(Self.answer(&rig, id: 1, name: "login", .medium, at: 2)
            == ["present acknowledge 5 hidden", "schedule 4", "evidence 1 in 1", "report 1 usedIncreasedFriction"])
        for second in 4...8 { _ = rig.step(.wake(), at: Double(second)) }
        let token = try #require(rig.engine.shownEvent?.token)
        #expect(Self.sources(rig.step(.userAction(token: token), at: 9)) == [.code])
    }

    @Test("Rule 35: when another open protection has the same coaching policy from the code, an event under it records code")
    func sameCoachingPolicyFromTheCodeRecordsCode() throws {
        var rig = Self.rig(relax: false, policy: .init(medium: .acknowledge(seconds: 5), high: .acknowledge(seconds: 8)))
        #expect(Array(rig.step(R.apply(ver: 3, rules: Self.medium8), at: 1).prefix(1)) == [.policy(.init(.applied, version: 3))])
        _ = rig.step(.start(R.acknowledge(2)), at: 1)
        _ = rig.step(R.callA, at: 1)
        // The transfer screen's medium answer: the document's 8 s, stricter than the call's policy.
        _ = Self.answer(&rig, id: 1, name: "transfer", .medium, at: 2)
        // The login screen's high answer: the code's 8 s, the same policy; nothing changes.
        #expect(Self.answer(&rig, id: 2, name: "login", .high, at: 4)
            == ["evidence 2 in 3", "report 2 usedUnchangedFriction", "coachingLevel high acknowledge 8 hidden"])
        #expect(Self.sources(rig.step(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), at: 10)) == [.document(version: 3)])
        // A new call's event under that policy: the code alone gives it too.
        _ = rig.step(.calls(.changes([CallSnapshot(id: CallID("B"), hasConnected: true)])), at: 11)
        #expect(Self.sources(rig.step(.calls(.changes([CallSnapshot(id: CallID("B"), hasEnded: true)])), at: 12)) == [.code])
    }

    @Test("Rule 35: a call's event whose policy the app-wide policy gives as strictly as a document's coaching level records code")
    func callPolicyAsStrictRecordsCode() throws {
        var rig = Self.rig(relax: false, policy: .init(medium: .off, high: .acknowledge(seconds: 10)))
        #expect(Array(rig.step(R.apply(ver: 2, rules: Self.medium8), at: 1).prefix(1)) == [.policy(.init(.applied, version: 2))])
        _ = rig.step(.start(R.acknowledge(8)), at: 1)
        _ = rig.step(R.callA, at: 1)
        // As strict as the call's policy: unchanged; the event now shows the screen's context and level.
        #expect(Self.answer(&rig, id: 1, name: "transfer", .medium, at: 2)
            == ["evidence 1 in 1", "report 1 usedUnchangedFriction", "context acknowledge 8 hidden", "coachingLevel medium acknowledge 8 hidden"])
        _ = rig.step(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), at: 10)
        _ = rig.step(.calls(.changes([CallSnapshot(id: CallID("B"), hasConnected: true)])), at: 11)
        #expect(Self.sources(rig.step(.calls(.changes([CallSnapshot(id: CallID("B"), hasEnded: true)])), at: 12)) == [.code])
    }

    @Test("Rule 35: a coaching warning records the document its own policy came from, whatever decides the screen's stricter terminate policy")
    func coachingWarningUnderTerminateScreenNamesTheDocument() throws {
        var rig = Self.rig(relax: false, policy: .init(medium: .off, high: .acknowledge(seconds: 10)))
        #expect(Array(rig.step(R.apply(ver: 6, rules: Self.medium8), at: 1).prefix(1)) == [.policy(.init(.applied, version: 6))])
        // No call is live: the screen's terminate 30 shows nothing; its medium answer begins the coaching warning.
        let asked = rig.step(.beginProtection(id: 1, R.terminate(30), name: "transfer", context: coachingContext()), at: 2).coachingQuestions
        let question = try #require(asked.first)
        #expect(rig.step(.coachingAnswered(request: question.id, .init(level: .medium)), at: 3).labels
            == ["present acknowledge 8 hidden", "schedule 4", "evidence 1 in 1", "report 1 usedIncreasedFriction"])
        for second in 4...11 { _ = rig.step(.wake(), at: Double(second)) }
        let token = try #require(rig.engine.shownEvent?.token)
        #expect(Self.sources(rig.step(.userAction(token: token), at: 12)) == [.document(version: 6)])
    }

    @Test("Rule 35: the order of coaching responses: off < evaluate < acknowledge N, a longer N stricter, negative N as 0")
    func responseOrder() {
        typealias C = CallMonitor.CoachingResponse
        let ordered: [C] = [.off, .evaluate, .acknowledge(seconds: 0), .acknowledge(seconds: 1), .acknowledge(seconds: Int32.max)]
        for (i, a) in ordered.enumerated() {
            for (j, b) in ordered.enumerated() {
                #expect(a.isAtLeastAsStrict(as: b) == (i >= j), "\(a) vs \(b)")
                #expect(C.stricter(a, b) == ordered[max(i, j)], "\(a) vs \(b)")
            }
        }
        #expect(C.acknowledge(seconds: -3).isAtLeastAsStrict(as: .acknowledge(seconds: 0)))
        #expect(C.acknowledge(seconds: 0).isAtLeastAsStrict(as: .acknowledge(seconds: -3)))
    }
}

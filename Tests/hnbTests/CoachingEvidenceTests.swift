// Issue 40, "Evidence": the outcome records the coaching answers read while its event was on
// screen (level, source, evaluation id, model version, operation id, consumption status), and
// its id, the event's number, reaches the source's report, so the Trust Insights evidence can be
// filed with the outcome. What no event showed is in no outcome.

import Foundation
import Testing
@testable import hnb
@testable import hnbTrustInsights
import hnbTesting

@Suite("Coaching: answers as the outcome's evidence, and the outcome's id (issue 40)")
struct CoachingEvidenceTests {
    /// The outcomes among `actions`, in order.
    private func outcomes(_ actions: [MonitorEngine.Action]) -> [CallMonitorOutcome] {
        actions.compactMap { if case .outcome(let outcome) = $0 { outcome } else { nil } }
    }

    /// The `coachingInOutcome` actions among `actions`, as "request in outcome".
    private func evidence(_ actions: [MonitorEngine.Action]) -> [String] {
        actions.compactMap { if case .coachingInOutcome(let request, let outcome) = $0 { "\(request) in \(outcome)" } else { nil } }
    }

    /// An engine monitoring under `flow` with call A live in the foreground, protection 1 opened
    /// with a payment context (operation TX-1) and asked about as question 1.
    private func liveCallEngine(_ flow: MonitorPolicy, coaching policy: CallMonitor.CoachingPolicy? = nil) -> MonitorEngine {
        var engine = coachingEngine(policy: policy)
        _ = engine.handle(.start(flow), now: 0)
        _ = engine.handle(.appState(isForeground: true), now: 0)
        _ = engine.handle(.calls(.changes([live("A")])), now: 0)
        #expect(engine.handle(.beginProtection(id: 1, flow, context: coachingContext()), now: 0).coachingQuestions.map(\.id) == [1])
        return engine
    }

    private func entry(
        _ level: CallMonitor.CoachingLevel, _ status: CallMonitor.CoachingConsumption, at: Int64 = second,
        evaluation: String? = "ins-1", model: String? = "m-7", source: CallMonitor.CoachingSource = .app
    ) -> CallMonitorOutcome.CoachingEvaluation {
        .init(questionID: 1, at: at, level: level, source: source, evaluationID: evaluation, modelVersion: model, operationID: "TX-1", consumption: status)
    }

    // MARK: With a call live

    @Test("A high answer that strengthens the call's warning is in the new event's outcome, with the evaluation's ids and usedIncreasedFriction")
    func liveCallHigh() throws {
        var engine = liveCallEngine(ackPolicy(3))
        let answered = engine.handle(.coachingAnswered(request: 1, .init(level: .high, evaluationID: "ins-1", modelVersion: "m-7")), now: second)
        // The weaker event ends with no coaching record; the stricter one (id 2) records the answer.
        #expect(outcomes(answered).map(\.id) == [1])
        #expect(outcomes(answered).map(\.coaching) == [[]])
        #expect(evidence(answered) == ["1 in 2"])
        #expect(answered.labels.suffix(2) == ["evidence 1 in 2", "report 1 usedIncreasedFriction"])
        let ended = outcomes(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), now: 3 * second))
        #expect(ended.map(\.id) == [2])
        #expect(ended.map(\.ending) == [.callEnded])
        #expect(ended.map(\.coaching) == [[entry(.high, .usedIncreasedFriction)]])
    }

    @Test("A medium answer under a terminate call is in the event's outcome as usedUnchangedFriction; the event goes on")
    func liveCallMedium() throws {
        var engine = liveCallEngine(terminatePolicy(5))
        let answered = engine.handle(.coachingAnswered(request: 1, .init(level: .medium, evaluationID: "ins-1", modelVersion: "m-7")), now: second)
        // Rule 34: the call's event says the level read, as a redraw only.
        #expect(answered.labels == ["evidence 1 in 1", "report 1 usedUnchangedFriction", "coachingLevel medium terminate 5 available"])
        let ended = outcomes(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), now: 2 * second))
        #expect(ended.map(\.id) == [1])
        #expect(ended.map(\.coaching) == [[entry(.medium, .usedUnchangedFriction)]])
    }

    @Test("An unknown answer and a failed one are recorded as read: unknown, usedUnchangedFriction and notUsedError")
    func liveCallUnknownAndFailed() throws {
        var engine = liveCallEngine(ackPolicy(3))
        #expect(engine.handle(.beginProtection(id: 2, ackPolicy(3), context: coachingContext(.credentials, operation: nil)), now: 0)
            .coachingQuestions.map(\.id) == [2])
        #expect(evidence(engine.handle(.coachingAnswered(request: 1, .init(level: .unknown, evaluationID: "ins-1")), now: second)) == ["1 in 1"])
        #expect(evidence(engine.handle(.coachingAnswered(request: 2, .unavailable), now: 2 * second)) == ["2 in 1"])
        let ended = outcomes(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), now: 3 * second))
        #expect(ended.map(\.coaching) == [[
            entry(.unknown, .usedUnchangedFriction, model: nil),
            .init(questionID: 2, at: 2 * second, level: .unknown, source: .app, consumption: .notUsedError),
        ]])
    }

    @Test("Evaluate only with a call live: recorded as usedEvaluationOnly in the call's outcome")
    func evaluateOnlyLiveCall() throws {
        var engine = liveCallEngine(ackPolicy(3), coaching: .init(medium: .evaluate, high: .evaluate))
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .high, evaluationID: "ins-1", modelVersion: "m-7")), now: second).labels
            == ["evidence 1 in 1", "report 1 usedEvaluationOnly"])
        let ended = outcomes(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), now: 2 * second))
        #expect(ended.map(\.ending) == [.callEnded])
        #expect(ended.map(\.coaching) == [[entry(.high, .usedEvaluationOnly)]])
    }

    // MARK: No call live

    @Test("Evaluate only with no call live: nothing shown, so no outcome records it")
    func evaluateOnlyNoCall() throws {
        var engine = coachingEngine(policy: .init(medium: .evaluate, high: .evaluate))
        _ = engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0)
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .high, evaluationID: "ins-1")), now: second).labels
            == ["report 1 usedEvaluationOnly"])
        #expect(engine.shownEvent == nil)
    }

    @Test("No call live: the coaching warning a high answer began records it; its outcome has the answer")
    func noCallWarning() throws {
        var engine = coachingEngine()
        _ = engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0)
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .high, evaluationID: "ins-1", modelVersion: "m-7")), now: second).labels
            == ["present acknowledge 10 hidden", "schedule 2", "evidence 1 in 1", "report 1 usedIncreasedFriction"])
        let ended = outcomes(engine.handle(.endProtection(id: 1), now: 2 * second))
        #expect(ended.map(\.id) == [1])
        #expect(ended.map(\.coaching) == [[entry(.high, .usedIncreasedFriction)]])
    }

    @Test("No call live, in the background: the answer is recorded when its warning begins on return, at that instant")
    func waitingAnswerRecordedOnReturn() throws {
        var engine = coachingEngine()
        _ = engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0)
        _ = engine.handle(.appState(isForeground: false), now: 0)
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .medium, evaluationID: "ins-1", modelVersion: "m-7")), now: second) == [])
        #expect(evidence(engine.handle(.appState(isForeground: true), now: 4 * second)) == ["1 in 1"])
        let ended = outcomes(engine.handle(.endProtection(id: 1), now: 5 * second))
        #expect(ended.map(\.coaching) == [[entry(.medium, .usedIncreasedFriction, at: 4 * second)]])
    }

    @Test("An answer read after the event ended is not in that event's outcome: the call's outcome has none")
    func answerAfterTheEventEnded() throws {
        var engine = liveCallEngine(terminatePolicy(5))
        let ended = outcomes(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), now: second))
        #expect(ended.map(\.id) == [1])
        #expect(ended.map(\.coaching) == [[]])
        // Read with no call live and nothing on screen: unknown changes nothing and is in no outcome.
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .unknown, evaluationID: "ins-1")), now: 2 * second).labels
            == ["report 1 usedUnchangedFriction"])
        #expect(engine.shownEvent == nil)
    }

    @Test("A high answer read after the call's event ended begins a coaching warning of its own, id 2, which records it")
    func highAnswerAfterTheCallEnded() throws {
        var engine = liveCallEngine(terminatePolicy(5))
        let callEnded = outcomes(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), now: second))
        #expect(callEnded.map(\.coaching) == [[]])
        #expect(evidence(engine.handle(.coachingAnswered(request: 1, .init(level: .high, evaluationID: "ins-1", modelVersion: "m-7")), now: 2 * second))
            == ["1 in 2"])
        let warning = outcomes(engine.handle(.endProtection(id: 1), now: 3 * second))
        #expect(warning.map(\.id) == [2])
        #expect(warning.map(\.coaching) == [[entry(.high, .usedIncreasedFriction, at: 2 * second)]])
    }

    @Test("A question closed without an answer (its protection ended first) is in no outcome")
    func closedWithoutAnswer() throws {
        var engine = liveCallEngine(terminatePolicy(5))
        #expect(engine.handle(.beginProtection(id: 2, terminatePolicy(5), context: coachingContext()), now: 0).coachingQuestions.map(\.id) == [2])
        let closed = engine.handle(.endProtection(id: 2), now: second)
        #expect(closed.coachingReports == ["2 notUsedNotNeeded"])
        #expect(evidence(closed) == [])
        let ended = outcomes(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), now: 2 * second))
        #expect(ended.map(\.coaching) == [[]])
    }

    @Test("Outcome ids follow the events in order and are the same in a second run of the same inputs")
    func idsAreDeterministic() {
        func run() -> [UInt64] {
            var engine = liveCallEngine(ackPolicy(3))
            var ids: [UInt64] = []
            ids += outcomes(engine.handle(.coachingAnswered(request: 1, .init(level: .high)), now: second)).map(\.id)
            ids += outcomes(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), now: 2 * second)).map(\.id)
            // The call ends: the coaching warning of the high answer begins (3), and ends when call B
            // becomes live, whose event (4) ends with it.
            ids += outcomes(engine.handle(.calls(.changes([live("B")])), now: 3 * second)).map(\.id)
            ids += outcomes(engine.handle(.calls(.changes([CallSnapshot(id: CallID("B"), hasEnded: true)])), now: 4 * second)).map(\.id)
            return ids
        }
        #expect(run() == [1, 2, 3, 4])
        #expect(run() == run())
    }

    // MARK: The JSON form and the schema

    /// An outcome made by hand with a coaching record of two answers.
    private func handMade() -> CallMonitorOutcome {
        var outcome = CallMonitorOutcome(
            ending: .callEnded, flow: .acknowledge, seconds: 10, startedAt: 1_000_000_000, endedAt: 3_000_000_000,
            startedDate: Date(timeIntervalSince1970: 1_767_225_601), endedDate: Date(timeIntervalSince1970: 1_767_225_603),
            lowestRemaining: 8, presentations: [.init(surface: .builtInDialog, at: 1_000_000_000, remaining: 10)], wasScreenCaptured: false,
            shown: [.init(surface: .builtInDialog, frames: [.init(at: 1_000_000_000, remaining: 10, title: "T")])]
        )
        outcome.id = 7
        outcome.coaching = [
            .init(questionID: 3, at: 1_000_000_000, level: .high, source: .trustInsights, evaluationID: "ins-\"9\"", modelVersion: "2026.1",
                  operationID: "TX-1", consumption: .usedIncreasedFriction),
            .init(questionID: 4, at: 2_000_000_000, level: .unknown, source: .app, consumption: .notUsedError),
        ]
        return outcome
    }

    @Test("The JSON of an outcome with a coaching record: exact text, version 2, id and coaching in key order")
    func jsonExactText() throws {
        let text = String(decoding: try handMade().jsonData(), as: UTF8.self)
        #expect(text == #"{"coaching":[{"at":1000000000,"consumption":"usedIncreasedFriction","evaluationID":"ins-\"9\"","level":"high","modelVersion":"2026.1","operationID":"TX-1","questionID":3,"source":"trustInsights"},{"at":2000000000,"consumption":"notUsedError","evaluationID":null,"level":"unknown","modelVersion":null,"operationID":null,"questionID":4,"source":"app"}],"endedAt":3000000000,"endedDate":1767225603,"ending":"callEnded","flow":"acknowledge","id":7,"language":"en","lowestRemaining":8,"policySource":"code","policyVersion":null,"presentations":[{"at":1000000000,"remaining":10,"surface":"builtInDialog"}],"schemaVersion":2,"seconds":10,"shown":[{"frames":[{"at":1000000000,"button":null,"contextKind":null,"countdown":null,"detail":null,"kindLine":null,"message":null,"remaining":10,"title":"T","verdict":"unknown","verdictLine":null}],"framesOmitted":0,"surface":"builtInDialog"}],"startedAt":1000000000,"startedDate":1767225601,"verdict":"unknown","verdictArrivedAt":null,"wasScreenCaptured":false}"#)
    }

    @Test("The coaching record validates against the version 2 schema, reads back the same, and the schema refuses a bad entry")
    func schemaValidatesCoaching() throws {
        let outcome = handMade()
        let data = try outcome.jsonData()
        let validator = try outcomeValidator()
        #expect(validator.problems(try JSONTree.parse(data)) == [])
        #expect(try JSONDecoder().decode(CallMonitorOutcome.self, from: data) == outcome)
        guard case .object(let root) = try JSONTree.parse(data), case .array(let entries)? = root["coaching"],
              case .object(let first) = entries[0] else { Issue.record("no coaching entry"); return }
        func broken(_ change: (inout [String: JSONTree]) -> Void) -> [String] {
            var entry = first
            change(&entry)
            var copy = root
            copy["coaching"] = .array([.object(entry)])
            return validator.problems(.object(copy))
        }
        #expect(broken { $0["level"] = .string("low") } == [#"$.coaching[0].level: string("low") is not one of the enum"#])
        #expect(broken { $0["operationID"] = nil } == ["$.coaching[0]: operationID is missing"])
        // A status no answer read can have: the record holds only answers the monitor read.
        #expect(broken { $0["consumption"] = .string("notUsedNotNeeded") }
            == [#"$.coaching[0].consumption: string("notUsedNotNeeded") is not one of the enum"#])
        var noID = root
        noID["id"] = nil
        #expect(validator.problems(.object(noID)) == ["$: id is missing"])
    }

    @Test("The Objective-C record carries the outcome's id and each coaching answer; an index outside them is nil")
    func objectiveCRecord() {
        let outcome = _CallMonitorOutcomeRecord(handMade())
        #expect(outcome.outcomeID == 7)
        #expect(outcome.coachingCount == 2)
        #expect(outcome.coaching(at: 2) == nil && outcome.coaching(at: -1) == nil)
        let answers = (0..<outcome.coachingCount).compactMap { outcome.coaching(at: $0) }
        #expect(answers.map(\.questionID) == [3, 4])
        #expect(answers.map(\.level) == [.high, .unknown])
        #expect(answers.map(\.source) == [.trustInsights, .app])
        #expect(answers.map(\.evaluationID) == [#"ins-"9""#, nil])
        #expect(answers.map(\.modelVersion) == ["2026.1", nil])
        #expect(answers.map(\.operationID) == ["TX-1", nil])
        #expect(answers.map(\.consumption) == [.usedIncreasedFriction, .notUsedError])
        #expect(answers.map(\.at) == [1_000_000_000, 2_000_000_000])
    }

    // MARK: Through the facade: the report names the outcome

    @MainActor
    @Test("The source's report names the outcome that records the answer, before that outcome is handed out; nil when none does")
    func reportNamesTheOutcome() async throws {
        let h = Harness()
        let source = ScriptedCoachingSource()
        h.monitor.setCoachingSource(using: source)
        h.monitor.startMonitoring(withAcknowledgeIn: 3)
        try h.calls.incoming("A")
        let payment = h.monitor.protect(withAcknowledgeIn: 3, context: CallMonitorContext(kind: .payment, operationID: "TX-1"))
        h.advance(1)
        source.answer(1, .init(level: .high, evaluationID: "ins-1", modelVersion: "m-7"))
        await drainMainQueue()
        h.advance(0)
        #expect(source.outcomeIDs == ["1 2"])
        // The call ends: the outcome with id 2 comes after the report that named it. The coaching
        // warning the answer set begins again with no call live (event 3), and ends with its protection.
        try h.calls.end("A")
        payment.end()
        #expect(h.outcomes.map(\.id) == [1, 2, 3])
        #expect(h.outcomes.map { $0.coaching.map(\.evaluationID) } == [[], ["ins-1"], []])
        // A second protection, no call live, evaluate only: nothing shown, so no outcome.
        h.monitor.setCoachingPolicy(.init(medium: .evaluate, high: .evaluate))
        let account = h.monitor.protect(withAcknowledgeIn: 3, context: CallMonitorContext(kind: .accountChange))
        h.advance(0)
        source.answer(2, .init(level: .high))
        await drainMainQueue()
        h.advance(0)
        #expect(source.outcomeIDs == ["1 2", "2 nil"])
        #expect(h.outcomes.count == 3)
        account.end()
        h.monitor.stopMonitoring()
    }

    @Test("The Trust Insights evidence carries the outcome's id; nil unless given")
    func trustInsightsEvidenceOutcomeID() {
        let stamp = Date(timeIntervalSince1970: 1_767_225_600)
        let filed = TrustInsightsEvidence(
            insightID: "ins-1", operationID: "TX-1", consumption: .usedIncreasedFriction, signedPayload: Data([1, 2]),
            serverTimestamp: stamp, outcomeID: 2
        )
        #expect(filed.outcomeID == 2)
        let unfiled = TrustInsightsEvidence(
            insightID: "ins-1", operationID: nil, consumption: .usedEvaluationOnly, signedPayload: Data(), serverTimestamp: stamp
        )
        #expect(unfiled.outcomeID == nil)
    }
}

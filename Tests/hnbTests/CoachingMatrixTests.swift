// Rules 32 and 33 over every level × call live or not × flow: the exact steps, on the manual
// clock, of a protection asked about at 0 and answered at 1 s, then eleven seconds of wake-ups
// and a tap on whatever is on screen. Coaching only ever adds an acknowledge warning; with no call
// live it never exits.

import Foundation
import Testing
@testable import hnb

enum CoachingCallCase: String, CaseIterable, Sendable, CustomStringConvertible {
    case noCallForeground, noCallBackground, liveForeground, liveBackground
    var description: String { rawValue }
    var isLive: Bool { self == .liveForeground || self == .liveBackground }
    var isForeground: Bool { self == .noCallForeground || self == .liveForeground }
}

enum CoachingAnswerCase: String, CaseIterable, Sendable, CustomStringConvertible {
    case unavailable, unknown, medium, high
    var description: String { rawValue }
    var answer: CallMonitor.CoachingAnswer {
        switch self {
        case .unavailable: .unavailable
        case .unknown: .init(level: .unknown)
        case .medium: .init(level: .medium)
        case .high: .init(level: .high)
        }
    }
    /// The default policy's acknowledge seconds for the level, if it shows one.
    var seconds: Int32? {
        switch self {
        case .medium: 5
        case .high: 10
        case .unavailable, .unknown: nil
        }
    }
}

@Suite("Coaching: level × call × flow (rules 32 and 33)")
struct CoachingMatrixTests {
    static let flows: [MonitorPolicy] = [terminatePolicy(5), ackPolicy(3), ackPolicy(30)]

    /// The answer step's expected lines: the table of rule 32 and the status of rule 33.
    /// An answer read while the call's event is on screen (a live call in the foreground) is in
    /// that event's outcome (issue 40): `evidence 1 in 1` before its report.
    private func expectedAnswerStep(_ call: CoachingCallCase, _ flow: MonitorPolicy, _ level: CoachingAnswerCase) -> [String] {
        let inCallEvent = call == .liveForeground ? ["evidence 1 in 1"] : []
        guard let seconds = level.seconds else {
            return inCallEvent + [level == .unavailable ? "report 1 notUsedError" : "report 1 usedUnchangedFriction"]
        }
        switch call {
        case .noCallForeground:
            return ["present acknowledge \(seconds) hidden", "schedule 2", "evidence 1 in 1", "report 1 usedIncreasedFriction"]
        case .noCallBackground:
            return []
        case .liveForeground, .liveBackground:
            // Rule 18: only stricter than the call's own policy changes anything.
            guard flow.flow == .acknowledge, flow.seconds < seconds else {
                // Rule 34: the call's event on screen (foreground) says the level read, as a redraw only.
                let button = flow.flow == .terminate ? "available" : "hidden"
                let redraw = call == .liveForeground ? ["coachingLevel \(level) \(flow.flow) \(flow.seconds) \(button)"] : []
                return inCallEvent + ["report 1 usedUnchangedFriction"] + redraw
            }
            guard call.isForeground else { return ["report 1 usedIncreasedFriction"] }
            return [
                "dismiss", "cancelWakeUp", "outcome policyChanged", "present acknowledge \(seconds) hidden", "schedule 2",
                "evidence 1 in 2", "report 1 usedIncreasedFriction",
            ]
        }
    }

    @Test("Rules 32 and 33: every level, with and without a call, in the foreground and the background, under each flow",
          arguments: CoachingCallCase.allCases, CoachingAnswerCase.allCases)
    func rule32_matrix(call: CoachingCallCase, level: CoachingAnswerCase) throws {
        for flow in Self.flows {
            var engine = coachingEngine()
            // The app state counts from the moment monitoring starts.
            if call.isLive {
                _ = engine.handle(.start(flow), now: 0)
                _ = engine.handle(.appState(isForeground: call.isForeground), now: 0)
                _ = engine.handle(.calls(.changes([live("A")])), now: 0)
            }
            #expect(engine.handle(.beginProtection(id: 1, flow, context: coachingContext()), now: 0).coachingQuestions.map(\.id) == [1])
            if !call.isLive { _ = engine.handle(.appState(isForeground: call.isForeground), now: 0) }
            #expect(engine.handle(.coachingAnswered(request: 1, level.answer), now: second).labels == expectedAnswerStep(call, flow, level),
                    "\(call) \(flow.flow) \(flow.seconds) \(level)")
            // Eleven seconds on, and a tap on what is shown.
            var exits: [Int64] = []
            for tick in 2...12 {
                let now = Int64(tick) * second
                let actions = engine.handle(.wake(), now: now)
                if actions.contains(.exit(code: 0)) { exits.append(now) }
                #expect(actions.coachingReports == [])
            }
            let shown = engine.shownEvent
            if let token = shown?.token {
                let tapped = engine.handle(.userAction(token: token), now: 12 * second).labels
                // Accepted once an acknowledge countdown is over (rule 6), never earlier.
                if shown?.flow == .acknowledge { #expect(tapped.contains("outcome acknowledged") == (shown?.remaining == 0)) }
            }
            // Only the call's own terminate countdown exits, at 5 s; a coaching warning never does.
            let exitsExpected: [Int64] = call == .liveForeground && flow.flow == .terminate ? [5 * second] : []
            #expect(exits == exitsExpected, "\(call) \(flow.flow) \(level)")
            if !call.isLive { #expect(shown.map { $0.flow == .acknowledge && $0.isCoachingWarning } ?? true) }
            // What the person sees with no call live: a coaching warning only in the foreground and only for a level that shows.
            if call == .noCallForeground {
                #expect(shown == nil || level.seconds != nil)
            }
            if call == .noCallBackground { #expect(shown == nil) }
        }
    }

    @Test("Rule 32: a coaching warning ends when a call becomes live, and the call's event begins under the stricter policy at once")
    func rule32_callBecomesLive() {
        for (flow, expected) in [(terminatePolicy(5), "present terminate 5 available"), (ackPolicy(3), "present acknowledge 10 hidden")] {
            var engine = coachingEngine()
            _ = engine.handle(.beginProtection(id: 1, flow, context: coachingContext()), now: 0)
            _ = engine.handle(.coachingAnswered(request: 1, .init(level: .high)), now: second)
            #expect(engine.handle(.calls(.changes([live("A")])), now: 2 * second).labels == [
                "emit started", "dismiss", "cancelWakeUp", "outcome policyChanged", expected, "schedule 3",
            ])
            // The call ends: its event ends, and the coaching warning, not acknowledged, begins again.
            #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasEnded: true)])), now: 3 * second).labels == [
                "emit ended", "dismiss", "cancelWakeUp", "outcome callEnded", "present acknowledge 10 hidden", "schedule 4",
            ])
        }
    }

    @Test("Rule 32: with no call live a change of the other policies leaves the coaching warning running, its countdown unmoved")
    func rule32_otherPoliciesChange() {
        var engine = coachingEngine()
        _ = engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0)
        _ = engine.handle(.coachingAnswered(request: 1, .init(level: .high)), now: 0)
        #expect(engine.handle(.start(terminatePolicy(3)), now: second / 2) == [])
        #expect(engine.handle(.beginProtection(id: 2, ackPolicy(20)), now: second / 2) == [])
        #expect(engine.handle(.wake(), now: second).labels == ["tick acknowledge 9 hidden", "schedule 2"])
    }

    @Test("Rule 32: an acknowledged coaching warning covers its policy and any no stricter until the protection ends")
    func rule32_acknowledged() throws {
        var engine = coachingEngine()
        _ = engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0)
        _ = engine.handle(.coachingAnswered(request: 1, .init(level: .medium)), now: 0)
        for tick in 1...5 { _ = engine.handle(.wake(), now: Int64(tick) * second) }
        let token = try #require(engine.shownEvent?.token)
        #expect(engine.handle(.userAction(token: token), now: 5 * second).labels == ["dismiss", "cancelWakeUp", "outcome acknowledged"])
        // A second protection's medium answer is no stricter: covered.
        _ = engine.handle(.beginProtection(id: 2, ackPolicy(3), context: coachingContext()), now: 6 * second)
        #expect(engine.handle(.coachingAnswered(request: 2, .init(level: .medium)), now: 6 * second).labels == ["report 2 usedUnchangedFriction"])
        // A high one is stricter: a new warning.
        _ = engine.handle(.beginProtection(id: 3, ackPolicy(3), context: coachingContext()), now: 7 * second)
        #expect(engine.handle(.coachingAnswered(request: 3, .init(level: .high)), now: 7 * second).labels == [
            "present acknowledge 10 hidden", "schedule 8", "evidence 3 in 2", "report 3 usedIncreasedFriction",
        ])
        // Its protection ends: the warning falls back to what is left, which the acknowledgement covers.
        #expect(engine.handle(.endProtection(id: 3), now: 8 * second).labels == ["dismiss", "cancelWakeUp", "outcome policyChanged"])
    }
}

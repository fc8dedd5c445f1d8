// Rule 32 as a property: over seeded random scenarios (calls, protections of every kind, the app's
// state, wake-ups, Close App taps, the coaching source's answers of every level at any moment), an
// engine with a coaching source does nothing weaker than the same engine without one: the same
// exits at the same instants, the same terminate countdowns, and wherever the engine without one
// shows an event, one at least as strict; no exit without a live call.

import Foundation
import Testing
@testable import hnb
import hnbTesting

@Suite("Coaching: never weaker (rule 32)")
struct CoachingNeverWeakerTests {
    /// One random scenario: the inputs both engines get, and the answers only the coached one gets.
    private enum Step {
        case input(MonitorEngine.Input)
        /// The coached engine's open question, if any, is answered with this.
        case answer(CallMonitor.CoachingAnswer)
        /// The coached engine's oldest open question's budget runs out.
        case budget
        /// Close App, on whatever each engine shows, if it is a terminate event.
        case tapTerminate
    }

    private static func scenario(seed: UInt64) -> [(Int64, Step)] {
        var random = SeededGenerator(seed: seed)
        let kinds = CallMonitorContext.Kind.allCases
        let answers: [CallMonitor.CoachingAnswer] = [.unavailable, .init(level: .unknown), .init(level: .medium), .init(level: .high)]
        var steps: [(Int64, Step)] = []
        var now: Int64 = 0
        var nextProtection: UInt64 = 1
        var open: [UInt64] = []
        for _ in 0..<60 {
            now += Int64.random(in: 0...1_500_000_000, using: &random)
            let step: Step
            switch Int.random(in: 0..<11, using: &random) {
            case 0:
                let seconds = Int32.random(in: 0...12, using: &random)
                let policy = Bool.random(using: &random) ? terminatePolicy(max(1, seconds)) : ackPolicy(seconds)
                let context = Bool.random(using: &random) ? coachingContext(kinds.randomElement(using: &random)!) : nil
                step = .input(.beginProtection(id: nextProtection, policy, context: context))
                open.append(nextProtection)
                nextProtection += 1
            case 1:
                guard let id = open.randomElement(using: &random) else { continue }
                open.removeAll { $0 == id }
                step = .input(.endProtection(id: id))
            case 2: step = .input(.calls(.changes([live(["A", "B"].randomElement(using: &random)!)])))
            case 3: step = .input(.calls(.changes([CallSnapshot(id: CallID(["A", "B"].randomElement(using: &random)!), hasEnded: true)])))
            case 4: step = .input(.appState(isForeground: Bool.random(using: &random)))
            case 5: step = .input(.start(Bool.random(using: &random) ? terminatePolicy(Int32.random(in: 1...8, using: &random)) : ackPolicy(4)))
            case 6: step = .input(.stop)
            case 7, 8: step = .answer(answers.randomElement(using: &random)!)
            case 9: step = .budget
            default: step = .tapTerminate
            }
            steps.append((now, step))
        }
        return steps
    }

    /// Runs one engine through the scenario with wake-ups every half second; returns the exit instants.
    private struct Run {
        var engine: MonitorEngine
        var exits: [Int64] = []
        var asked: [UInt64] = []
        var reported: [UInt64: Int] = [:]

        mutating func handle(_ input: MonitorEngine.Input, now: Int64) {
            let liveBefore = engine.callState != .idle
            let actions = engine.handle(input, now: now)
            for action in actions {
                switch action {
                case .exit:
                    exits.append(now)
                    #expect(liveBefore, "an exit without a live call at \(now)")
                case .askCoaching(let question, _): asked.append(question.id)
                case .reportCoaching(let request, _): reported[request, default: 0] += 1
                default: break
                }
            }
        }
    }

    @Test("Rule 32: 300 seeded scenarios with and without coaching: the same exits and terminate countdowns, nothing weaker, no exit without a call, one report per question",
          arguments: 0..<300 as Range<UInt64>)
    func rule32_neverWeaker(seed: UInt64) {
        var plain = Run(engine: MonitorEngine())
        var coached = Run(engine: coachingEngine())
        var lastWake: Int64 = 0
        for (now, step) in Self.scenario(seed: seed) {
            while lastWake + second / 2 <= now, !plain.engine.hasExited || !coached.engine.hasExited {
                lastWake += second / 2
                plain.handle(.wake(), now: lastWake)
                coached.handle(.wake(), now: lastWake)
                compare(plain.engine, coached.engine, seed: seed, at: lastWake)
            }
            switch step {
            case .input(let input):
                plain.handle(input, now: now)
                coached.handle(input, now: now)
            case .answer(let answer):
                if let request = coached.engine.coaching.open.first?.request {
                    coached.handle(.coachingAnswered(request: request, answer), now: now)
                }
            case .budget:
                if let request = coached.engine.coaching.open.first?.request {
                    coached.handle(.coachingBudgetExpired(request: request), now: now)
                }
            case .tapTerminate:
                for index in 0..<2 {
                    let engine = index == 0 ? plain.engine : coached.engine
                    guard let event = engine.shownEvent, event.flow == .terminate else { continue }
                    if index == 0 { plain.handle(.userAction(token: event.token), now: now) } else { coached.handle(.userAction(token: event.token), now: now) }
                }
            }
            compare(plain.engine, coached.engine, seed: seed, at: now)
        }
        #expect(plain.exits == coached.exits, "seed \(seed)")
        // Every question asked was reported at most once, and once for each that is decided.
        #expect(coached.reported.values.allSatisfy { $0 == 1 }, "seed \(seed)")
        let undecided = Set(coached.engine.coaching.open.map(\.request) + coached.engine.coaching.waiting.map(\.request))
        #expect(Set(coached.asked) == Set(coached.reported.keys).union(undecided), "seed \(seed)")
    }

    /// Nothing weaker: where the engine without coaching shows an event, the coached one shows one
    /// at least as strict, and a terminate countdown is the same.
    private func compare(_ plain: MonitorEngine, _ coached: MonitorEngine, seed: UInt64, at now: Int64) {
        #expect(plain.hasExited == coached.hasExited, "seed \(seed) at \(now)")
        guard let event = plain.shownEvent else { return }
        guard let other = coached.shownEvent else {
            Issue.record("seed \(seed) at \(now): the coached engine shows nothing where the plain one shows \(event.flow) \(event.total)")
            return
        }
        let policy = MonitorPolicy(flow: event.flow, requestedSeconds: event.total)
        let coachedPolicy = MonitorPolicy(flow: other.flow, requestedSeconds: other.total)
        #expect(coachedPolicy.isAtLeastAsStrict(as: policy), "seed \(seed) at \(now)")
        if event.flow == .terminate { #expect(other.remaining == event.remaining && other.origin == event.origin, "seed \(seed) at \(now)") }
    }
}

// What the coaching suites share (issue 40; rules 31 to 33): an engine with a coaching source, the
// contexts and policies they open protections with, and a source the facade tests script.

import Foundation
import Testing
@testable import hnb
import hnbTesting

typealias Coaching = CallMonitor

/// An acknowledge policy of `seconds`.
func ackPolicy(_ seconds: Int32) -> MonitorPolicy { MonitorPolicy(flow: .acknowledge, requestedSeconds: seconds) }
/// A terminate policy of `seconds`.
func terminatePolicy(_ seconds: Int32) -> MonitorPolicy { MonitorPolicy(flow: .terminate, requestedSeconds: seconds) }

/// A context of `kind`, with an operation id.
func coachingContext(_ kind: CallMonitorContext.Kind = .payment, operation: String? = "TX-1") -> CallMonitorContext {
    CallMonitorContext(kind: kind, detail: nil, operationID: operation)
}

/// An engine with an app coaching source set, and `policy`/`budget` when given: nothing is monitored yet.
func coachingEngine(policy: CallMonitor.CoachingPolicy? = nil, budget: Int64? = nil) -> MonitorEngine {
    var engine = MonitorEngine()
    _ = engine.handle(.coachingSource(.app), now: 0)
    if let policy { _ = engine.handle(.coachingPolicy(policy), now: 0) }
    if let budget { _ = engine.handle(.coachingBudget(budget), now: 0) }
    return engine
}

/// The question the engine asks about protection `name` with `context`, request `id`.
func question(_ id: UInt64, _ name: String? = nil, _ context: CallMonitorContext = coachingContext()) -> CallMonitor.CoachingQuestion {
    CallMonitor.CoachingQuestion(id: id, protectionName: name, context: context)
}

extension [MonitorEngine.Action] {
    /// The consumption reports among the actions, in order.
    var coachingReports: [String] {
        compactMap { action in
            if case .reportCoaching(let request, let status) = action { "\(request) \(status)" } else { nil }
        }
    }

    /// The questions asked among the actions, in order.
    var coachingQuestions: [CallMonitor.CoachingQuestion] {
        compactMap { action in
            if case .askCoaching(let question, _) = action { question } else { nil }
        }
    }
}

/// A coaching source the facade tests answer by hand, on any thread; it records the questions and
/// every report with the virtual time.
final class ScriptedCoachingSource: CoachingSourcing, @unchecked Sendable {
    // @unchecked: every mutable field is behind `lock`.
    nonisolated let kind = CallMonitor.CoachingSource.app
    nonisolated private let lock = NSLock()
    nonisolated(unsafe) private var answers: [UInt64: @Sendable (CallMonitor.CoachingAnswer) -> Void] = [:]
    nonisolated(unsafe) private var _asked: [CallMonitor.CoachingQuestion] = []
    nonisolated(unsafe) private var _reports: [String] = []
    nonisolated(unsafe) private var _outcomeIDs: [String] = []

    nonisolated init() {}

    nonisolated var asked: [CallMonitor.CoachingQuestion] { lock.withLock { _asked } }
    nonisolated var reports: [String] { lock.withLock { _reports } }
    /// Each report's question and the outcome id it named (issue 40), `nil` spelled out.
    nonisolated var outcomeIDs: [String] { lock.withLock { _outcomeIDs } }

    func ask(_ question: CallMonitor.CoachingQuestion, answer: @escaping @Sendable (CallMonitor.CoachingAnswer) -> Void) {
        lock.withLock {
            _asked.append(question)
            answers[question.id] = answer
        }
    }

    /// Answers question `id` with `answer`, from the calling thread.
    nonisolated func answer(_ id: UInt64, _ answer: CallMonitor.CoachingAnswer) {
        let reply = lock.withLock { answers[id] }
        reply?(answer)
    }

    func report(_ question: CallMonitor.CoachingQuestion, _ status: CallMonitor.CoachingConsumption) {
        report(question, status, outcomeID: nil)
    }

    func report(_ question: CallMonitor.CoachingQuestion, _ status: CallMonitor.CoachingConsumption, outcomeID: UInt64?) {
        lock.withLock {
            _reports.append("\(question.id) \(status)")
            _outcomeIDs.append("\(question.id) \(outcomeID.map(String.init) ?? "nil")")
        }
    }
}

/// One action as a short line: what changed, with its instant where it has one, so a matrix can
/// spell whole steps.
func coachingLabel(_ action: MonitorEngine.Action) -> String {
    switch action {
    case .scene(let scene):
        let change: String = switch scene.change {
        case .present: "present"
        case .tick: "tick"
        case .button: "button"
        case .verdict: "verdict"
        case .context: "context"
        case .texts: "texts"
        case .coachingLevel: "coachingLevel \(scene.coachingLevel.map(\.description) ?? "none")"
        }
        return "\(change) \(scene.flow) \(scene.remaining) \(scene.button)"
    case .dismiss: return "dismiss"
    case .schedule(let at): return "schedule \(seconds(at))"
    case .cancelWakeUp: return "cancelWakeUp"
    case .outcome(let outcome): return "outcome \(outcome.ending)"
    case .exit(let code): return "exit \(code)"
    case .armExitWatchdog: return "armExitWatchdog"
    case .askCoaching(let question, let at): return "ask \(question.id) until \(seconds(at))"
    case .reportCoaching(let request, let status): return "report \(request) \(status)"
    case .coachingInOutcome(let request, let outcome): return "evidence \(request) in \(outcome)"
    case .emit(let event): return "emit \(event)"
    case .stopSources: return "stopSources"
    case .startSources: return "startSources"
    default: return "\(action)"
    }
}

extension [MonitorEngine.Action] {
    var labels: [String] { map(coachingLabel) }
}

// Pairs each Trust Insights evaluation with the consumption status the engine decides for it, in
// whichever order the two arrive, so that every evaluation is reported to Apple exactly once
// (issue 40, rule 33). Apple's `reportConsumption` is a method of the evaluation itself, so a
// status decided first (the protection ended, the budget ran out) must wait for the evaluation,
// and an evaluation that arrives first must wait for the status. Pure: generic over the
// evaluation, so the pairing is tested on Linux with a stand-in value.

import Foundation
import hnb

/// The pending half of each question's pair, keyed by the question's id, under one lock.
///
/// `@unchecked Sendable`: Apple's `InsightEvaluation` is not `Sendable`. The slots hand an
/// evaluation out only by removing it under the lock, so exactly one caller ever receives it and
/// no two threads touch it; the stored values are reached only through `lock`.
final class EvaluationReportSlots<Evaluation>: @unchecked Sendable {
    /// What one question is waiting for.
    private enum Slot {
        /// The evaluation arrived; the status has not been decided yet.
        case evaluation(Evaluation)
        /// The status was decided; the evaluation has not arrived yet (or never will).
        case status(CallMonitor.CoachingConsumption)
    }

    private let lock = NSLock()
    private var slots: [UInt64: Slot] = [:]
    /// Ids whose pair is complete or closed, newest last, kept so that a repeated status or a
    /// repeated arrival for them is ignored rather than opening a slot that would never close.
    private var closed: [UInt64] = []
    private var closedSet: Set<UInt64> = []
    /// How many closed ids are remembered; older ones are forgotten first.
    static var closedMemory: Int { 256 }

    /// Questions whose pair is still open (for the tests and the bound).
    var pendingCount: Int { lock.withLock { slots.count } }

    /// The evaluation for question `id` arrived. Returns the status to report with it when the
    /// engine had already decided one (the caller reports now), else keeps it and returns `nil`.
    func arrived(_ id: UInt64, _ evaluation: Evaluation) -> CallMonitor.CoachingConsumption? {
        lock.withLock {
            guard !closedSet.contains(id) else { return nil }
            switch slots[id] {
            case .status(let status):
                slots[id] = nil
                close(id)
                return status
            case .evaluation, nil:
                // A second evaluation for one question cannot come from the adapter (one request
                // per question); keeping the first is the documented choice.
                if slots[id] == nil { slots[id] = .evaluation(evaluation) }
                return nil
            }
        }
    }

    /// The engine decided question `id`'s status. Returns the evaluation to report it on when it
    /// had already arrived (the caller reports now), else keeps the status and returns `nil`.
    /// A second status for the same question is ignored: the first decision stands.
    func decided(_ id: UInt64, _ status: CallMonitor.CoachingConsumption) -> Evaluation? {
        lock.withLock {
            guard !closedSet.contains(id) else { return nil }
            switch slots[id] {
            case .evaluation(let evaluation):
                slots[id] = nil
                close(id)
                return evaluation
            case .status:
                return nil
            case nil:
                slots[id] = .status(status)
                return nil
            }
        }
    }

    /// Question `id` will never have an evaluation (the request threw, or the person has not
    /// authorized it): there is nothing to report to Apple, so a status kept or still to come is
    /// dropped.
    func noEvaluation(_ id: UInt64) {
        lock.withLock {
            slots[id] = nil
            close(id)
        }
    }

    /// Remembers `id` as closed (under the lock), forgetting the oldest beyond the memory.
    private func close(_ id: UInt64) {
        guard closedSet.insert(id).inserted else { return }
        closed.append(id)
        if closed.count > Self.closedMemory {
            closedSet.remove(closed.removeFirst())
        }
    }
}

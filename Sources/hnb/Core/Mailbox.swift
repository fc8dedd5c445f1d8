// The hand-over from other threads to the main thread: what waits, what merges, and how a storm
// of API calls is folded into the few that leave the same state.

import Foundation

/// What other threads hand the main thread: API calls, and the ports' deliveries (call batches,
/// app-state and capture changes, the verifier's answers), kept under one lock and applied by one
/// main-queue block per burst.
///
/// Only the latest state of a call or of the app matters, so call and app-state deliveries are
/// merged: at most one call batch and one app state wait, whatever the rate. Capture changes and
/// the verifier's answers wait in order with the API calls. API calls keep their order; a command
/// that only repeats or overrides the one before it (the same setter again, the same start or
/// stop twice, the same tap twice, a capture change after one from the same run of the source)
/// replaces it. A storm of API calls faster than the main thread can apply them is bounded too:
/// past ``limit`` waiting calls, the queue is folded into the calls that give the same end state
/// (see ``fold(_:)``).
///
/// `@unchecked Sendable`: every stored property is only touched under `lock`.
final class Mailbox: @unchecked Sendable {
    typealias Command = MonitorCore.Command

    /// How many API calls may wait before they are folded.
    static let limit = 256

    private let lock = NSLock()
    private var commands: [Command] = []
    private var calls: (generation: UInt64, batch: CallBatch)?
    private var appState: (generation: UInt64, isForeground: Bool)?
    private var drainScheduled = false

    /// Queues what another thread sent; returns whether the caller must schedule a drain. Call
    /// deliveries and app-state changes are merged into the one waiting, API calls queued.
    func post(_ command: Command) -> Bool {
        switch command {
        case .delivery(.calls(let generation, let batch)): return post(calls: batch, generation: generation)
        case .delivery(.appState(let generation, let isForeground)): return post(isForeground: isForeground, generation: generation)
        default: break
        }
        return lock.withLock {
            if let last = commands.last, let merged = Self.coalesce(last, command) {
                commands[commands.count - 1] = merged
            } else {
                commands.append(command)
                if commands.count > Self.limit { commands = Self.fold(commands) }
            }
            return scheduleIfNeeded()
        }
    }

    /// Queues an API call another thread made; returns whether a drain must be scheduled.
    func post(_ call: MonitorCore.APICall) -> Bool { post(.api(call)) }

    /// Queues or merges a port's delivery; returns whether a drain must be scheduled.
    func post(_ delivery: MonitorCore.Delivery) -> Bool { post(.delivery(delivery)) }

    /// Merges a call delivery into the one waiting; returns whether a drain must be scheduled.
    func post(calls batch: CallBatch, generation: UInt64) -> Bool {
        lock.withLock {
            switch calls {
            case let waiting? where waiting.generation == generation:
                calls = (generation, waiting.batch.merged(with: batch))
            case let waiting? where waiting.generation > generation:
                // A late delivery from an earlier run of the source: stale, and it must not
                // push out the current run's batch.
                break
            default:
                // Nothing waits, or what waits is from an earlier run (stale).
                calls = (generation, batch)
            }
            return scheduleIfNeeded()
        }
    }

    /// Keeps only the latest app state; returns whether a drain must be scheduled.
    func post(isForeground: Bool, generation: UInt64) -> Bool {
        lock.withLock {
            if let waiting = appState, waiting.generation > generation { return false }
            appState = (generation, isForeground)
            return scheduleIfNeeded()
        }
    }

    /// Everything waiting, in the order to apply it: API calls, then the app state, then calls.
    func takeAll() -> [Command] {
        lock.withLock {
            // The common case on the main thread: nothing waits, and nothing is allocated.
            if commands.isEmpty && appState == nil && calls == nil { return [] }
            drainScheduled = false
            var taken = commands
            commands.removeAll(keepingCapacity: true)
            if let appState { taken.append(.delivery(.appState(generation: appState.generation, isForeground: appState.isForeground))) }
            if let calls { taken.append(.delivery(.calls(generation: calls.generation, calls.batch))) }
            appState = nil
            calls = nil
            return taken
        }
    }

    private func scheduleIfNeeded() -> Bool {
        guard !drainScheduled else { return false }
        drainScheduled = true
        return true
    }

    /// The one command that has the effect of `first` followed by `second`, if there is one.
    static func coalesce(_ first: Command, _ second: Command) -> Command? {
        switch (first, second) {
        case (.api(let a), .api(let b)):
            if let slot = a.settingSlot, slot == b.settingSlot { return second }
            switch (a, b) {
            case (.stop, .stop), (.startObserving, .startObserving):
                return second
            case (.start(let a, _), .start(let b, _)) where a == b:
                // The policy in force again changes nothing (rule 11).
                return second
            case (.userAction(let a), .userAction(let b)) where a == b:
                // A presentation's action acts at most once (rule 12).
                return second
            default:
                return nil
            }
        case (.delivery(.capture(let a, _)), .delivery(.capture(let b, _))) where a == b:
            // Only the latest capture state of one run of the source matters.
            return second
        default:
            return nil
        }
    }

    /// Folds a long queue of API calls into the few that leave the monitor in the same state.
    ///
    /// User actions stay where they are, each token once (a later tap of the same presentation
    /// acts no differently: no time passes between queued calls). Between two of them, the
    /// settings made before the last start or stop keep their last values and come first, then
    /// that start or stop, then the settings made after it. So a setting always applies to the
    /// same start as it did (call detection switched off after a start still applies only to the
    /// next one). What is left out are states no time passes in; every difference leans towards
    /// enforcing: a restart to the policy already in force becomes no change, so a fold never
    /// resets a countdown.
    static func fold(_ commands: [Command]) -> [Command] {
        var result: [Command] = []
        var seenTokens: Set<UInt64> = []
        var segment = Segment()
        for command in commands {
            switch command {
            case .api(.userAction(let token)):
                guard seenTokens.insert(token).inserted else { continue }
                result += segment.flush()
                result.append(command)
            case .api(.beginProtection), .api(.endProtection), .api(.exempt), .api(.removeExemption):
                // Rules 18 and 19: never lost, never moved past anything.
                result += segment.flush()
                result.append(command)
            default:
                segment.add(command)
            }
        }
        return result + segment.flush()
    }

    /// The calls between two user actions, folded.
    private struct Segment {
        /// Each setting's last value before the segment's last start or stop, at its slot's
        /// index (a fixed array, not a dictionary: the fold runs under the mailbox lock, in storms).
        private var before = Self.empty
        private var lifecycle: Command?
        /// Each setting's last value after it.
        private var after = Self.empty
        private static let empty = [Command?](repeating: nil, count: MonitorCore.SettingSlot.allCases.count)
        private var others: [Command] = []

        mutating func add(_ command: Command) {
            guard case .api(let call) = command else {
                // Call and app-state deliveries and timers never wait in the queue. A capture
                // delivery does wait here; moving it ahead of a start or stop in the same segment
                // is harmless, because it carries the generation of the source run that sent it,
                // which began before this batch. A verifier's answer waits here too, and moving it
                // is harmless as well: it carries the number of its question, which the engine
                // checks, so moved ahead of a start or stop it can at most be recorded by the
                // event it was asked about, ending there, instead of being ignored; and no verdict
                // changes a timing or an ending (rule 23).
                others.append(command)
                return
            }
            if let slot = call.settingSlot {
                if lifecycle == nil { before[slot.rawValue] = command } else { after[slot.rawValue] = command }
                return
            }
            switch call {
            case .start, .stop, .startObserving:
                for index in after.indices where after[index] != nil { before[index] = after[index] }
                after = Self.empty
                lifecycle = command
            default:
                // User actions are handled by the caller.
                others.append(command)
            }
        }

        mutating func flush() -> [Command] {
            defer { self = Segment() }
            return others + before.compactMap { $0 } + (lifecycle.map { [$0] } ?? []) + after.compactMap { $0 }
        }
    }
}

extension MonitorCore {
    /// The settings an API call can make; a later call to the same setter overrides an earlier
    /// one. The order of the cases is the order a folded queue applies them in; the raw value is
    /// the slot's index in the fold, and comes only from here.
    enum SettingSlot: Int, CaseIterable, Sendable {
        case callDetection, delegate, callback, strings, beforeForceExit, outcomeHandler, refusesAcknowledgementWhileScreenCaptured,
             screenCaptureEscalation
        case callVerifier, callVerifierBudget
    }
}

extension MonitorCore.APICall {
    /// The setting this call makes, or `nil` for a start, a stop or a user action. Exhaustive, so
    /// a new setter cannot be added without saying which slot it fills.
    var settingSlot: MonitorCore.SettingSlot? {
        switch self {
        case .setCallDetection: .callDetection
        case .setDelegate: .delegate
        case .setCallback: .callback
        case .setStrings: .strings
        case .setBeforeForceExit: .beforeForceExit
        case .setOutcomeHandler: .outcomeHandler
        case .setRefusesAcknowledgementWhileScreenCaptured: .refusesAcknowledgementWhileScreenCaptured
        case .setCallVerifier: .callVerifier
        case .setCallVerifierBudget: .callVerifierBudget
        case .setScreenCaptureEscalation: .screenCaptureEscalation
        case .start, .stop, .startObserving, .beginProtection, .endProtection, .exempt, .removeExemption, .userAction: nil
        }
    }
}

// MARK: - Test hooks

extension Mailbox {
    /// How many API calls wait now: for the tests of the bound (`@testable import`). The library
    /// never reads it.
    var waitingCommandCountForTesting: Int { lock.withLock { commands.count } }
}

// What every suite of this target shares: the one stand-in device (CallKit's call list, UIKit's
// application, scenes and screens, NotificationCenter.default) and the recorders of what the real
// adapters deliver. The adapters read process-wide singletons (`UIApplication.shared`,
// `NotificationCenter.default`), so tests that drive them cannot overlap, even across suites:
// the `.appleWorld` trait runs them one at a time, each on a freshly reset device.

import CallKit
import Dispatch
import Foundation
import Testing
import UIKit
import hnbTesting

/// Runs each test alone on a reset device, then checks that it left no CallKit delegate set.
struct AppleWorld: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard !test.isSuite else { return try await function() }
        await AppleWorldTurn.shared.enter()
        await MainActor.run { AppleDevice.reset() }
        do {
            try await function()
        } catch {
            await AppleWorldTurn.shared.leave()
            throw error
        }
        // What the test's sources queued on the main queue runs before the next test resets.
        await drainMain()
        let delegates = StandInPhone.shared.observersWithDelegate
        if delegates != 0 { Issue.record("\(delegates) CallKit observer(s) still have a delegate when the test ends") }
        await AppleWorldTurn.shared.leave()
    }
}

extension Trait where Self == AppleWorld {
    /// The test runs alone on a freshly reset stand-in device (see ``AppleWorld``).
    static var appleWorld: Self { AppleWorld() }
}

/// One test at a time, in the order they ask (an async lock that never blocks a thread).
actor AppleWorldTurn {
    static let shared = AppleWorldTurn()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func enter() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}

/// The device as a whole: both stand-ins, reset together, and what joins them (a suspended app
/// loses CallKit's change notifications too).
@MainActor
enum AppleDevice {
    static func reset() {
        StandInPhone.shared.reset()
        StandInSystem.reset()
        StandInSystem.onSuspension = { StandInPhone.shared.setAppSuspended($0) }
    }
}

/// The hang guard of this target's waits: ``Patience/seconds``, unless a mutation run (which expects
/// waits to fail, and has many to fail) shortens it with `HNB_APPLE_MUTANT_PATIENCE`. Never set in CI.
let patience: Double = ProcessInfo.processInfo.environment["HNB_APPLE_MUTANT_PATIENCE"].flatMap(Double.init) ?? Patience.seconds

/// Lets every block already queued on the main queue run, then returns.
func drainMain() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { continuation.resume() }
    }
}

/// Records what a source delivers, from any thread, in order, and whether each delivery ran on
/// the main queue.
final class Deliveries<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var offMain = 0
    }

    private let state = Locked(State())

    /// What was delivered, in order.
    var values: [Value] { state.value.values }
    /// How many deliveries did not run on the main queue.
    var offMainQueue: Int { state.value.offMain }

    var deliver: @Sendable (Value) -> Void {
        { [self] value in
            let onMain = DispatchQueue.isMainQueue
            state.withLock {
                $0.values.append(value)
                if !onMain { $0.offMain += 1 }
            }
        }
    }

    /// Waits (a hang guard, not a timing) until `count` values came; returns whether they did.
    @discardableResult
    func wait(forCount count: Int) async -> Bool {
        await Patience.wait(within: patience) { self.values.count >= count }
    }
}

extension DispatchQueue {
    private static let mainKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main queue (`Thread.isMainThread` is not reliable under
    /// `swift test` on Linux; a queue-specific value is).
    static var isMainQueue: Bool { getSpecific(key: mainKey) == true }
}

/// A call as the engine sees it, for the expected batches.
func snapshot(_ call: StandInPhone.Call) -> CallSnapshot {
    CallSnapshot(id: CallID(call.uuid), isOutgoing: call.isOutgoing, hasConnected: call.hasConnected, isOnHold: call.isOnHold, hasEnded: call.hasEnded)
}

/// Fixed call identifiers, so failures read the same on every run.
func callUUID(_ n: Int) -> UUID {
    UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))!
}

// The contract every CallSource must keep, as checks anyone can run: the monitor's fail-closed
// guarantees rest on it (a source that forgets live calls on restart leaves a call unguarded).

import Foundation
import hnb

/// Checks a ``CallSource`` against the contract ``CallMonitor`` relies on.
///
/// Every source the library ships passes these checks in the package's own test suite (package
/// API: an app feeds calls of its own through `ExternalCallSource`, which passes them, and never
/// implements a source):
///
/// ```swift
/// let results = await CallSourceConformance.run(CallSourceConformance.Driver(
///     makeSource: { MyCallSource() },
///     placeCall: { source in try await myStack.simulateIncomingCall() },
///     endCall: { source, id in try await myStack.hangUp(id) }
/// ))
/// #expect(results.filter { !$0.passed } == [])
/// ```
///
/// The checks:
/// - the first delivery after ``CallSource/start(_:)`` is a complete list (``CallBatch/complete(_:)``);
/// - it holds every call already in progress;
/// - a call placed or ended while started is reported;
/// - ``CallSource/stop()`` then ``CallSource/start(_:)`` reports the calls in progress again;
/// - nothing is delivered after ``CallSource/stop()``;
/// - deliveries never overlap (a source may deliver from any thread, but one at a time, in order).
package enum CallSourceConformance {
    /// How the checks create and drive the source under test.
    package struct Driver {
        /// Makes a new source with no call in progress; called once per check.
        package var makeSource: @MainActor () async throws -> any CallSource
        /// Makes a call live on what the source watches and returns its identifier as the source
        /// will report it; `nil` for a source that can never report a call (then only the checks
        /// that need no call run).
        package var placeCall: (@MainActor (any CallSource) async throws -> CallID)?
        /// Ends a call that ``placeCall`` made.
        package var endCall: (@MainActor (any CallSource, CallID) async throws -> Void)?
        /// Seconds to wait for a delivery that must come before calling it missing. The waits
        /// end as soon as the delivery comes, so a generous bound costs a passing run nothing,
        /// and a loaded machine cannot miss it (``Patience/seconds`` by default).
        package var patience: Double
        /// Seconds to listen for a delivery that must not come (after ``CallSource/stop()``).
        package var quietPeriod: Double

        /// A driver.
        ///
        /// - Parameters:
        ///   - makeSource: Makes a new source with no call in progress.
        ///   - placeCall: Makes a call live and returns its identifier; `nil` if the source can
        ///     never report a call.
        ///   - endCall: Ends a call that `placeCall` made.
        ///   - patience: Seconds to wait for a delivery that must come (clamped to 0.01…3600;
        ///     NaN means the default).
        ///   - quietPeriod: Seconds to listen for a delivery that must not come (clamped to
        ///     0.01…60; NaN means the default of 1 s).
        package init(
            makeSource: @escaping @MainActor () async throws -> any CallSource,
            placeCall: (@MainActor (any CallSource) async throws -> CallID)? = nil,
            endCall: (@MainActor (any CallSource, CallID) async throws -> Void)? = nil,
            patience: Double = Patience.seconds,
            quietPeriod: Double = 1
        ) {
            self.makeSource = makeSource
            self.placeCall = placeCall
            self.endCall = endCall
            self.patience = patience.isNaN ? Patience.seconds : min(max(patience, 0.01), 3600)
            self.quietPeriod = quietPeriod.isNaN ? 1 : min(max(quietPeriod, 0.01), 60)
        }
    }

    /// The outcome of one check.
    package struct Result: Sendable, Equatable, CustomStringConvertible {
        /// What was checked.
        package let name: String
        /// Why it failed; `nil` when it passed.
        package let failure: String?
        /// Whether the check passed.
        package var passed: Bool { failure == nil }

        /// `PASS name` or `FAIL name: why`, one line for a test log.
        package var description: String {
            failure.map { "FAIL \(name): \($0)" } ?? "PASS \(name)"
        }
    }

    /// Runs every check that the driver supports, one after another, on the main actor.
    ///
    /// - Parameter driver: Creates and drives the source under test.
    /// - Returns: One result per check, in a fixed order.
    @MainActor
    package static func run(_ driver: Driver) async -> [Result] {
        var results: [Result] = []
        func check(_ name: String, _ body: () async throws -> String?) async {
            do {
                results.append(Result(name: name, failure: try await body()))
            } catch {
                results.append(Result(name: name, failure: "threw \(error)"))
            }
        }
        let wait = driver.patience
        let quiet = driver.quietPeriod

        await check("the first delivery after start is a complete list") {
            let source = try await driver.makeSource()
            let recorder = Recorder()
            source.start(recorder.deliver)
            defer { source.stop() }
            guard let first = await recorder.batch(at: 0, within: wait) else { return "nothing was delivered" }
            guard first.isComplete else { return "the first delivery was incremental: \(first)" }
            return first.calls.contains { !$0.hasEnded } ? "a call is live in a source that has none: \(first)" : nil
        }

        guard let placeCall = driver.placeCall else {
            await check("nothing is delivered after stop") {
                let source = try await driver.makeSource()
                let recorder = Recorder()
                source.start(recorder.deliver)
                _ = await recorder.batch(at: 0, within: wait)
                source.stop()
                let count = recorder.count
                try await Task.sleep(nanoseconds: UInt64(quiet * 1e9))
                return recorder.count == count ? nil : "\(recorder.count - count) deliveries came after stop"
            }
            return results
        }

        await check("start delivers the calls already in progress") {
            let source = try await driver.makeSource()
            let id = try await placeCall(source)
            let recorder = Recorder()
            source.start(recorder.deliver)
            defer { source.stop() }
            guard let first = await recorder.batch(at: 0, within: wait) else { return "nothing was delivered" }
            guard first.isComplete else { return "the first delivery was incremental: \(first)" }
            return first.calls.contains { $0.id == id && !$0.hasEnded } ? nil : "call \(id) is missing from \(first)"
        }

        await check("a call placed and ended while started is reported") {
            let source = try await driver.makeSource()
            let recorder = Recorder()
            source.start(recorder.deliver)
            defer { source.stop() }
            _ = await recorder.batch(at: 0, within: wait)
            let id = try await placeCall(source)
            guard await recorder.until(within: wait, { $0.contains(id) }) else { return "call \(id) was never reported live" }
            guard let endCall = driver.endCall else { return nil }
            try await endCall(source, id)
            return await recorder.until(within: wait, { !$0.contains(id) }) ? nil : "the end of call \(id) was never reported"
        }

        await check("stop then start reports the calls in progress again") {
            let source = try await driver.makeSource()
            let recorder = Recorder()
            source.start(recorder.deliver)
            _ = await recorder.batch(at: 0, within: wait)
            let id = try await placeCall(source)
            _ = await recorder.until(within: wait, { $0.contains(id) })
            source.stop()
            let again = Recorder()
            source.start(again.deliver)
            defer { source.stop() }
            guard let first = await again.batch(at: 0, within: wait) else { return "nothing was delivered after the restart" }
            guard first.isComplete else { return "the first delivery after the restart was incremental: \(first)" }
            return first.calls.contains { $0.id == id && !$0.hasEnded } ? nil : "call \(id) was forgotten on restart: \(first)"
        }

        await check("nothing is delivered after stop") {
            let source = try await driver.makeSource()
            let recorder = Recorder()
            source.start(recorder.deliver)
            _ = await recorder.batch(at: 0, within: wait)
            source.stop()
            let count = recorder.count
            let id = try await placeCall(source)
            if let endCall = driver.endCall { try await endCall(source, id) }
            try await Task.sleep(nanoseconds: UInt64(quiet * 1e9))
            return recorder.count == count ? nil : "\(recorder.count - count) deliveries came after stop"
        }

        await check("deliveries never overlap") {
            let source = try await driver.makeSource()
            let recorder = Recorder()
            source.start(recorder.deliver)
            defer { source.stop() }
            _ = await recorder.batch(at: 0, within: wait)
            var ids: [CallID] = []
            for _ in 0..<3 { ids.append(try await placeCall(source)) }
            _ = await recorder.until(within: wait, { live in ids.allSatisfy(live.contains) })
            if let endCall = driver.endCall { for id in ids { try await endCall(source, id) } }
            _ = await recorder.until(within: wait, { live in ids.allSatisfy { !live.contains($0) } })
            return recorder.overlapped ? "two deliveries ran at the same time" : nil
        }
        return results
    }

    /// Records deliveries from any thread and folds them into the set of live calls, as the
    /// engine does. Its whole state is one ``Locked`` value, so no field can be read unlocked.
    private final class Recorder: Sendable {
        private struct State {
            var batches: [CallBatch] = []
            var liveCalls: Set<CallID> = []
            var inside = 0
            var overlapped = false
        }

        private let state = Locked(State())

        /// Whether two deliveries ever ran at the same time.
        var overlapped: Bool { state.withLock { $0.overlapped } }

        var count: Int { state.withLock { $0.batches.count } }

        var deliver: @Sendable (CallBatch) -> Void {
            { [self] batch in
                state.withLock {
                    $0.inside += 1
                    if $0.inside > 1 { $0.overlapped = true }
                }
                // Widen the window in which an overlapping delivery would be seen.
                usleep(200)
                state.withLock {
                    $0.inside -= 1
                    $0.batches.append(batch)
                    if batch.isComplete { $0.liveCalls.removeAll() }
                    for call in batch.calls {
                        if call.hasEnded { $0.liveCalls.remove(call.id) } else { $0.liveCalls.insert(call.id) }
                    }
                }
            }
        }

        /// The delivery at `index`, waiting up to `seconds` for it.
        @MainActor
        func batch(at index: Int, within seconds: Double) async -> CallBatch? {
            guard await until(within: seconds, { _ in self.count > index }) else { return nil }
            return state.withLock { $0.batches[index] }
        }

        /// Waits up to `seconds` until `condition` holds for the live calls; returns whether it did.
        @MainActor
        func until(within seconds: Double, _ condition: @escaping (Set<CallID>) -> Bool) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while true {
                let live = state.withLock { $0.liveCalls }
                if condition(live) { return true }
                if Date() >= deadline { return false }
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
        }
    }
}

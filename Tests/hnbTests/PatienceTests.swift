// The tests' one bound on waiting for what must happen (issue 37, item 13), and the conformance
// checks' split between that patience and the quiet period: a slow source passes, a wait ends as
// soon as its condition holds, and an error or a condition that never holds ends it plainly.

import Dispatch
import Foundation
import Testing
import hnb
import hnbTesting

/// A simulated source whose deliveries come 0.2 s late, in order, from one serial queue, and
/// never after its stop: what a daemon on a loaded machine looks like to the checks.
final class SlowCallSource: CallSource, @unchecked Sendable {
    // `@unchecked Sendable`: the simulated source is only driven from the main actor.
    private let inner = SimulatedCallSource()
    private let queue = DispatchQueue(label: "slow source")
    /// Which run of start/stop is current; a delivery of an earlier run is dropped.
    private let run = Locked(0)

    func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) {
        let mine = run.withLock { $0 += 1; return $0 }
        inner.start { [self] batch in
            queue.asyncAfter(deadline: .now() + 0.2) { [self] in
                // A stop (or a new start) meanwhile makes this run's late deliveries void.
                guard run.value == mine else { return }
                deliver(batch)
            }
        }
    }

    func stop() {
        run.withLock { $0 += 1 }
        inner.stop()
    }

    @MainActor func incoming(_ id: String) throws { try inner.incoming(id) }
    @MainActor func end(_ id: String) throws { try inner.end(id) }
}

struct ThrownByCondition: Error {}

@MainActor
@Suite("Patience: the tests' one bound on waiting for what must happen")
struct PatienceTests {
    @Test("A wait ends as soon as its condition holds, however small the interval: the condition is asked exactly until it holds")
    func endsWhenTheConditionHolds() async {
        var asked = 0
        let held = await Patience.wait(every: 0.001) { asked += 1; return asked == 3 }
        #expect(held)
        #expect(asked == 3)
    }

    @Test("A zero or negative interval polls at the 1 ms floor rather than trapping")
    func intervalFloor() async {
        for interval in [0, -1, -Double.infinity] {
            var asked = 0
            #expect(await Patience.wait(every: interval) { asked += 1; return asked == 2 })
            #expect(asked == 2)
        }
    }

    @Test("A condition that never holds ends the wait with false once the bound given has passed")
    func givesUp() async {
        var asked = 0
        #expect(await Patience.wait(within: 0.05, every: 0.001) { asked += 1; return false } == false)
        #expect(asked >= 2)
    }

    @Test("An error from the condition ends the wait at once and reaches the caller")
    func errorEndsTheWait() async {
        var asked = 0
        await #expect(throws: ThrownByCondition.self) {
            try await Patience.wait(within: 1) { asked += 1; throw ThrownByCondition() }
        }
        #expect(asked == 1)
    }

    @Test("The conformance driver clamps its patience to 0.01…3600 s and its quiet period to 0.01…60 s; NaN means the defaults")
    func driverClamps() {
        func driver(_ patience: Double, _ quiet: Double) -> CallSourceConformance.Driver {
            CallSourceConformance.Driver(makeSource: { NoTelephonyCallSource() }, patience: patience, quietPeriod: quiet)
        }
        #expect(CallSourceConformance.Driver(makeSource: { NoTelephonyCallSource() }).patience == Patience.seconds)
        #expect(CallSourceConformance.Driver(makeSource: { NoTelephonyCallSource() }).quietPeriod == 1)
        #expect(driver(120, 10).patience == 120)
        #expect(driver(120, 10).quietPeriod == 10)
        #expect(driver(1e9, 1e9).patience == 3600)
        #expect(driver(1e9, 1e9).quietPeriod == 60)
        #expect(driver(-1, -1).patience == 0.01)
        #expect(driver(-1, -1).quietPeriod == 0.01)
        #expect(driver(.nan, .nan).patience == Patience.seconds)
        #expect(driver(.nan, .nan).quietPeriod == 1)
    }

    @Test("A source whose deliveries come later than the quiet period passes every check: deliveries that must come are waited for with the patience")
    func slowSourcePasses() async {
        let names = CallNames()
        let results = await CallSourceConformance.run(CallSourceConformance.Driver(
            makeSource: { SlowCallSource() },
            placeCall: { source in
                let id = names.make()
                try (source as! SlowCallSource).incoming(id)
                return CallID(id)
            },
            endCall: { source, id in try (source as! SlowCallSource).end(id.rawValue) },
            quietPeriod: 0.05
        ))
        #expect(results.map(\.description) == ConformanceTests.allChecks)
    }
}

// Split out of PolicyExpiryPrecisionTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy
import hnbTesting

@Suite("Rule 28 (issue 37): the document's switches at their instants exactly")
struct PolicyExpiryPrecisionEngineTests {
    typealias R = PolicyEngineRig
    let s = R.s
    static let terminate9 = #"[{"policy":{"appWide":{"flow":"terminate","seconds":9}}}]"#

    @Test("Rule 28 (issue 37): a document applied at a fractional second is woken for at its exp exactly, and expires there", arguments: [0.25, 0.5, 0.75])
    func expiresAtExp(appliedAt: Double) {
        var rig = R()
        _ = rig.step(R.keys(relax: false), at: 0)
        let (document, text) = R.document(exp: 5, rules: Self.terminate9)
        #expect(rig.step(.applyPolicy(document, text: text), at: appliedAt) == [
            .policy(.init(.applied, version: 1)), R.record(1, mark: appliedAt, text: text), .schedulePolicyWake(at: 5 * s),
        ])
        #expect(rig.step(.policyWake(), at: 5) == [.policy(.init(.expired, version: 1))])
    }

    @Test("Rule 28 (issue 37): a document applied at a fractional second before its nbf comes into force at nbf exactly")
    func comesIntoForceAtNotBefore() {
        var rig = R()
        _ = rig.step(R.keys(relax: false), at: 0)
        _ = rig.step(.start(R.acknowledge(10)), at: 0)
        _ = rig.step(R.callA, at: 0)
        let (document, text) = R.document(nbf: 5, exp: 3600, rules: Self.terminate9)
        #expect(rig.step(.applyPolicy(document, text: text), at: 1.5) == [
            .policy(.init(.applied, version: 1)), R.record(1, mark: 1.5, text: text), .schedulePolicyWake(at: 5 * s),
        ])
        #expect(rig.step(.policyWake(), at: 5) == [
            .dismiss(on: .builtInDialog), .cancelWakeUp,
            R.outcome(.policyChanged, .acknowledge, total: 10, from: 0, to: 5, lowest: 10, source: .code),
            .present(.terminate, remaining: 9, token: 2, button: .available, verdict: .unknown, tellsVerdict: false, on: .builtInDialog),
            .schedule(at: 6 * s), .schedulePolicyWake(at: 3600 * s),
        ])
    }

    @Test("Rule 28 (issue 37): the delay is exact to the microsecond, rounded up, at least one, and capped far beyond any document")
    func delay() {
        #expect(MonitorEngine.policyWakeDelay(from: 100.5, to: 105) == 4_500_000_000)
        #expect(MonitorEngine.policyWakeDelay(from: 100.25, to: 105) == 4_750_000_000)
        // Rounded up, never down: a wake-up before the instant only reschedules.
        #expect(MonitorEngine.policyWakeDelay(from: 100.000_000_6, to: 105) == 5_000_000_000)
        // A wake-up a hair early (the wall clock's rounding) waits on by at least a microsecond.
        #expect(MonitorEngine.policyWakeDelay(from: 105, to: 105) == 1000)
        #expect(MonitorEngine.policyWakeDelay(from: 104.999_999_9, to: 105) == 1000)
        #expect(MonitorEngine.policyWakeDelay(from: 0, to: 2e15) == 1_000_000_000_000_000_000)
        #expect(MonitorEngine.policyWakeDelay(from: 0, to: 999_999_999) == 999_999_999 * s)
    }
}

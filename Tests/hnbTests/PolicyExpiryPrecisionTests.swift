// Issue 37, item 14 (rule 28): a document switches at its nbf and exp exactly, also when it was
// applied at a fractional second; the wake-up for the switch used to be computed in whole seconds
// from the moment it was set, so a document applied at 0.5 s expired at exp + 0.5 s.

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

@MainActor
@Suite("Rule 28 (issue 37) through the API: a document applied at a fractional second expires at its exp exactly")
struct PolicyExpiryPrecisionFacadeTests {
    @Test("Rule 28 (issue 37): applied at 0.5 s with exp at 5 s, the stricter document's event ends at 5 and the code's begins there, within the session's deadline")
    func expiresAtExp() throws {
        let h = Harness(logsOutcomes: true)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-policy-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try h.monitor.setPolicyKeys(jwks: Data(PolicyTestSigner.shared.keys.json.utf8), issuer: "com.bank.app", allowsRelaxation: false, storeDirectory: folder)
        h.monitor.startMonitoring(withTerminateIn: 30)
        try h.calls.incoming("A")
        h.at(0.5)
        let epoch = Int(TestWallClock.epoch)
        let document = Data(PolicyTestSigner.shared.document(iat: epoch, exp: epoch + 5, rules: PolicyExpiryPrecisionEngineTests.terminate9))
        #expect(h.monitor.applyPolicy(document: document) == .applied(version: 1))
        h.at(7)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 30 button=Close App",
            "0.5 dismiss", "0.5 outcome policyChanged", "0.5 alert terminate 9 button=Close App",
            "1.5 alert terminate 8 button=Close App", "2.5 alert terminate 7 button=Close App", "3.5 alert terminate 6 button=Close App",
            "4.5 alert terminate 5 button=Close App",
            // The code's terminate 30 begins at 5, held to the session's deadline (9.5, rule 21).
            "5 dismiss", "5 outcome policyChanged", "5 alert terminate 5 button=Close App",
            "5.5 alert terminate 4 button=Close App", "6.5 alert terminate 3 button=Close App",
        ])
    }
}

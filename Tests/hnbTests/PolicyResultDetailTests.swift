// applyPolicy's refusal carries what it points at (issue 38): for every reason the app can be
// given, the stable reason and the exact detail, from the verifier, the engine and the facade, in
// Swift and in the Objective-C result object.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy
import hnbTesting
@testable import callmonitor

@MainActor
@Suite("Policy: applyPolicy's refusal names its member, claim or call")
struct PolicyResultDetailTests {
    let signer = PolicyTestSigner.shared
    let jwks = Data(PolicyTestSigner.shared.keys.json.utf8)
    static let epoch = Int(TestWallClock.epoch)

    func document(ver: Int = 1, exp: Int = 3600, rules: String = "[]") -> Data {
        Data(signer.document(ver: ver, iat: Self.epoch, exp: Self.epoch + exp, rules: rules))
    }

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-policy-detail-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("Every reason, with its exact detail, through applyPolicy (the verifier's are the verifier's own text)")
    func everyReason() async throws {
        var seen: Set<CallMonitor.PolicyRejection> = []
        func expect(_ result: CallMonitor.PolicyResult, _ reason: CallMonitor.PolicyRejection, _ detail: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(result == .rejected(reason, detail: detail), sourceLocation: sourceLocation)
            #expect(result.description == "rejected \(reason.rawValue): \(detail)", sourceLocation: sourceLocation)
            seen.insert(reason)
        }
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Without keys: noKeys, and tooLarge before that.
        let bare = Harness()
        expect(bare.monitor.applyPolicy(document: document()), .noKeys, "no keys are pinned (setPolicyKeys)")
        expect(bare.monitor.applyPolicy(document: Data(repeating: 0x41, count: 65_537)), .tooLarge, "the document is longer than 64 KiB")

        // The verifier's reasons, each with the text verifyExplained gives.
        let h = Harness()
        try h.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: false, storeDirectory: directory)
        for (reason, bytes, detail) in PolicyRefusalDetailTests.verifierCases(signer) {
            expect(h.monitor.applyPolicy(document: Data(bytes)), CallMonitor.PolicyRejection(reason), detail)
        }

        // The engine's: rollback, expired (past exp, and by the clock's mark), relaxation.
        #expect(h.monitor.applyPolicy(document: document(ver: 4)) == .applied(version: 4))
        expect(h.monitor.applyPolicy(document: document(ver: 3)), .rollback, "ver: expected 4 or higher (the highest version accepted), got 3")
        expect(h.monitor.applyPolicy(document: document(ver: 5, exp: 0)), .expired, "exp: expected after the device's clock (1800000000), got 1800000000")
        expect(h.monitor.applyPolicy(document: document(ver: 5, rules: #"[{"policy":{"appWide":"observe"}}]"#)), .relaxationNotAllowed,
               #"rules[0].policy.appWide: "observe" weakens the code's policy, and the app does not allow relaxation (setPolicyKeys allowsRelaxation)"#)
        h.monitor.startMonitoring(withTerminateIn: 10)
        expect(h.monitor.applyPolicy(document: document(ver: 5, rules: #"[{"when":{"os":"iOS"},"policy":{}},{"policy":{"appWide":{"flow":"terminate","seconds":60}}}]"#)),
               .relaxationNotAllowed,
               "rules[1].policy.appWide: terminate 60 s is weaker than the code's terminate 10 s, and the app does not allow relaxation (setPolicyKeys allowsRelaxation)")
        h.monitor.stopMonitoring()

        // The facade's: no crypto, the wrong thread, a callback, an exited monitor.
        let noCrypto = Harness()
        try noCrypto.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, store: nil, crypto: nil)
        expect(noCrypto.monitor.applyPolicy(document: document()), .cryptoUnavailable, "no platform crypto could be loaded")
        let monitor = noCrypto.monitor
        let data = document()
        expect(await Task.detached { monitor.applyPolicy(document: data) }.value, .notOnMainThread,
               "applyPolicy(document:) was called off the main thread: nothing was read")
        let busy = Harness()
        try busy.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, store: nil, crypto: PolicyTestSigner.crypto)
        var inCallback: CallMonitor.PolicyResult?
        let busyMonitor = busy.monitor
        busy.monitor.setCallback { _ in inCallback = busyMonitor.applyPolicy(document: data) }
        busy.monitor.startMonitoring(withTerminateIn: 1)
        try busy.calls.incoming("A")
        expect(try #require(inCallback), .calledFromCallback,
               "applyPolicy(document:) was called from inside one of the monitor's delegate methods or callbacks: nothing was read")
        busy.monitor.setCallback(nil)
        try busy.calls.connect("A")
        busy.advance(1)
        #expect(busy.take().last == "1 exit 0")
        expect(busy.monitor.applyPolicy(document: data), .exited, "the monitor has exited the app (rule 16): nothing changes any more")

        #expect(seen == Set(CallMonitor.PolicyRejection.allCases))
    }

    @Test("The app's reasons are the engine's and the verifier's, word for word, each to its namesake (hnbPolicy's CallMonitor.PolicyRejection over hnb's PolicyRejection, issue 39)")
    func reasonsMatchTheEngines() {
        #expect(CallMonitor.PolicyRejection.allCases.map(\.rawValue) == hnb.PolicyRejection.allCases.map(\.rawValue))
        for reason in hnb.PolicyRejection.allCases {
            #expect(CallMonitor.PolicyRejection(reason).rawValue == reason.rawValue)
        }
    }

    @Test("The Objective-C result object carries the reason and the detail; nil for an applied document")
    func objectForm() {
        let refused = _CallMonitorPolicyResult(.rejected(.wrongIssuer, detail: #"iss: expected "a", got "b""#))
        #expect(refused.applied == false)
        #expect(refused.reason == "wrongIssuer")
        #expect(refused.detail == #"iss: expected "a", got "b""#)
        let applied = _CallMonitorPolicyResult(.applied(version: 3))
        #expect(applied.applied && applied.version == 3 && applied.reason == nil && applied.detail == nil)
    }

    @Test("The clock set back behind its mark: a relaxing document is expired, and the detail says why")
    func expiredByClock() throws {
        let h = Harness()
        try h.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, store: nil, crypto: PolicyTestSigner.crypto)
        h.advance(1000)
        h.monitor.wallClockChanged()
        h.wall.setJump(-700)
        #expect(h.monitor.applyPolicy(document: document(ver: 2, exp: 7200, rules: #"[{"policy":{"appWide":"observe"}}]"#))
            == .rejected(.expired, detail: "exp: the device's clock (1800000300) reads more than 5 minutes behind the latest it has read (1800001000), and the document weakens the code's policy"))
    }
}

// applyPolicy(document:) only forwards (issue 39): a call from inside a callback is refused
// before anything is verified, and the answer is the document event of the caller's own step,
// never one that a command the app sent from inside that step caused after it.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy
import hnbTesting

@MainActor
@Suite("applyPolicy forwards: the busy check first, the answer from its own step")
struct PolicyFacadeForwardingTests {
    let signer = PolicyTestSigner.shared
    let jwks = Data(PolicyTestSigner.shared.keys.json.utf8)

    func document(ver: Int = 1, rules: String) -> Data {
        let epoch = Int(TestWallClock.epoch)
        return Data(signer.document(ver: ver, iat: epoch, exp: epoch + 3600, rules: rules))
    }

    @Test("From inside a callback applyPolicy answers calledFromCallback without running the crypto; on the main thread outside it the crypto runs once")
    func callbackIsRefusedBeforeAnyVerification() throws {
        let h = Harness()
        let monitor = h.monitor
        let checks = Locked(0)
        let counting = PolicyCrypto { key, message, signature in
            checks.withLock { $0 += 1 }
            return PolicyTestSigner.crypto.verify(key, message, signature)
        }
        try monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, store: nil, crypto: counting)
        let data = document(rules: #"[{"policy":{"appWide":"observe"}}]"#)
        var inCallback: CallMonitor.PolicyResult?
        monitor.setCallback { _ in inCallback = monitor.applyPolicy(document: data) }
        monitor.startMonitoring(withTerminateIn: 10)
        try h.calls.incoming("A")
        #expect(inCallback == .rejected(.calledFromCallback,
                                       detail: "applyPolicy(document:) was called from inside one of the monitor's delegate methods or callbacks: nothing was read"))
        #expect(checks.value == 0)
        monitor.setCallback(nil)
        #expect(monitor.applyPolicy(document: data) == .applied(version: 1))
        #expect(checks.value == 1)
        monitor.stopMonitoring()
    }

    @Test("The answer is the document event of the caller's own step: keys pinned again without relaxation from the outcome handler that step calls drop the document after it, and applyPolicy still answers applied")
    func answerIsTheOwnStepsEvent() throws {
        let h = Harness()
        let monitor = h.monitor
        try monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, store: nil, crypto: PolicyTestSigner.crypto)
        var events: [String] = []
        monitor.setPolicyObserver { event in
            events.append("\(event.result.rawValue) \(event.version.map(String.init) ?? "-") \(event.reason?.rawValue ?? "-")")
        }
        monitor.startMonitoring(withTerminateIn: 10)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        var endings: [CallMonitorOutcomeEnding] = []
        let jwks = jwks
        monitor.setOutcomeHandler { outcome in
            endings.append(outcome.ending)
            // Once, from inside the step that applied the document: posted, so it runs after it.
            if endings.count == 1 {
                try? monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: false, store: nil, crypto: PolicyTestSigner.crypto)
            }
        }
        let laxer = document(rules: #"[{"policy":{"appWide":{"flow":"acknowledge","seconds":60}}}]"#)
        #expect(monitor.applyPolicy(document: laxer) == .applied(version: 1))
        #expect(events == ["applied 1 -", "rejected 1 relaxationNotAllowed"])
        #expect(endings == [.policyChanged, .policyChanged])
        monitor.stopMonitoring()
    }
}

// The signed remote policy through the public API (issue 28): setPolicyKeys, applyPolicy's
// answers, the file kept across launches, and the ways a call can go wrong (off the main thread,
// from a callback, no crypto), each leaving the guard as it was.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy
import hnbTesting
@testable import callmonitor

@MainActor
@Suite("Remote policy through the API")
struct RemotePolicyFacadeTests {
    let signer = PolicyTestSigner.shared
    let jwks = Data(PolicyTestSigner.shared.keys.json.utf8)
    static let epoch = Int(TestWallClock.epoch)

    func document(ver: Int = 1, exp: Int = 3600, rules: String) -> Data {
        Data(signer.document(ver: ver, iat: Self.epoch, exp: Self.epoch + exp, rules: rules))
    }

    static let killSwitch = #"[{"policy":{"appWide":"observe","screens":{"transfer":"off"}}}]"#

    func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-policy-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("The kill switch applies at once, is kept in the file, and a relaunch applies it at setPolicyKeys before any call")
    func killSwitchAcrossLaunches() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let h = Harness(logsOutcomes: true)
        try h.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, storeDirectory: folder)
        h.monitor.startMonitoring(withTerminateIn: 10)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(2)
        _ = h.take()
        #expect(h.monitor.applyPolicy(document: document(ver: 7, rules: Self.killSwitch)) == .applied(version: 7))
        #expect(h.take() == ["2 dismiss", "2 outcome policyChanged"])
        #expect(h.outcomes.map(\.policySource) == [.code])
        #expect(h.monitor.applyPolicy(document: document(ver: 7, rules: "[]")) == .unchanged(version: 7))
        #expect(h.monitor.applyPolicy(document: document(ver: 6, rules: "[]")) == .rejected(.rollback, detail: "ver: expected 7 or higher (the highest version accepted), got 6"))
        h.advance(20)
        #expect(h.take() == [])
        let kept = try #require(PolicyFileStore(directory: folder).load())
        #expect(kept.highestVersion == 7)
        #expect(kept.text == Array(document(ver: 7, rules: Self.killSwitch)))
        h.monitor.stopMonitoring()
        try h.calls.end("A")

        // The next launch: the kept document applies at setPolicyKeys, before any call.
        let relaunched = Harness(logsOutcomes: true)
        try relaunched.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, storeDirectory: folder)
        relaunched.monitor.startMonitoring(withTerminateIn: 10)
        try relaunched.calls.incoming("B")
        try relaunched.calls.connect("B")
        relaunched.advance(15)
        #expect(relaunched.take() == ["0 event ringing", "0 event started"])
        #expect(relaunched.monitor.applyPolicy(document: document(ver: 5, rules: "[]")) == .rejected(.rollback, detail: "ver: expected 7 or higher (the highest version accepted), got 5"))
        relaunched.monitor.stopMonitoring()
        try relaunched.calls.end("B")
    }

    @Test("A relaunch whose keys no longer verify the kept document applies the code's policy, and still refuses older versions")
    func rotatedKeysDropTheKeptDocument() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let h = Harness()
        try h.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, storeDirectory: folder)
        #expect(h.monitor.applyPolicy(document: document(ver: 3, rules: Self.killSwitch)) == .applied(version: 3))
        let other = try PolicySigningKey.generate(.edDSA)
        let rotated = Data(PolicyKeySet(keys: [PolicyKeySet.Key(kid: "ed-2", material: other.publicKey)]).json.utf8)
        let relaunched = Harness(logsOutcomes: true)
        try relaunched.monitor.setPolicyKeys(jwks: rotated, issuer: "com.bank.app", allowsRelaxation: true, storeDirectory: folder)
        let older = signer.sign(header: #"{"alg":"EdDSA","kid":"ed-2","typ":"hnb-policy+jwt"}"#,
                                payload: #"{"iss":"com.bank.app","ver":2,"iat":1,"exp":\#(Self.epoch + 3600),"rules":[]}"#, with: other)
        #expect(relaunched.monitor.applyPolicy(document: Data(older)) == .rejected(.rollback, detail: "ver: expected 3 or higher (the highest version accepted), got 2"))
        relaunched.monitor.startMonitoring(withTerminateIn: 2)
        try relaunched.calls.incoming("A")
        try relaunched.calls.connect("A")
        relaunched.advance(2)
        #expect(relaunched.take().suffix(2) == ["2 outcome forceExit", "2 exit 0"])
    }

    @Test("Rule 27: the kept document is verified again at setPolicyKeys: a forged kill switch written into the file is not applied")
    func forgedDocumentInTheFileIsNotApplied() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Whoever can write the app's files writes a kill switch under the pinned kid, signed with
        // a key of their own.
        let impostor = try PolicySigningKey.generate(.edDSA)
        let forged = signer.sign(header: #"{"alg":"EdDSA","kid":"ed-1","typ":"hnb-policy+jwt"}"#,
                                 payload: #"{"iss":"com.bank.app","ver":9,"iat":1,"exp":\#(Self.epoch + 3600),"rules":\#(Self.killSwitch)}"#, with: impostor)
        PolicyFileStore(directory: folder).save(.init(text: forged, highestVersion: 9, clockMark: TestWallClock.epoch))
        let h = Harness(logsOutcomes: true)
        try h.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, storeDirectory: folder)
        h.monitor.startMonitoring(withTerminateIn: 2)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(2)
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 2 button=Close App", "0 event started",
            "1 alert terminate 1 button=Close App", "2 alert terminate 0 button=Close App", "2 outcome forceExit", "2 exit 0",
        ])
        #expect(h.outcomes.map(\.policySource) == [.code])
    }

    @Test("Rule 28: the clock's mark is read back from the file under the name it was written with: a relaunch with the date set back finds the kill switch expired")
    func clockMarkReadBackAcrossLaunches() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let h = Harness()
        try h.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, storeDirectory: folder)
        #expect(h.monitor.applyPolicy(document: document(ver: 4, rules: Self.killSwitch)) == .applied(version: 4))
        let kept = try #require(PolicyFileStore(directory: folder).load())
        #expect(kept.clockMark == TestWallClock.epoch)
        #expect(kept.highestVersion == 4)

        // The next launch, with the device's date set back 400 s behind the mark.
        let relaunched = Harness(logsOutcomes: true)
        relaunched.wall.setJump(-400)
        try relaunched.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, storeDirectory: folder)
        relaunched.monitor.startMonitoring(withTerminateIn: 2)
        try relaunched.calls.incoming("A")
        try relaunched.calls.connect("A")
        relaunched.advance(2)
        #expect(relaunched.take().suffix(3) == ["2 alert terminate 0 button=Close App", "2 outcome forceExit", "2 exit 0"])
        #expect(relaunched.outcomes.map(\.policySource) == [.code])
    }

    @Test("Rule 26: setPolicyKeys hands the engine the library's os and osVersion: a rule whose when names them applies without setPolicyAttributes")
    func libraryAttributesAtSetPolicyKeys() throws {
        let os = try #require(PolicyAttributes.library["os"])
        let osVersion = try #require(PolicyAttributes.library["osVersion"])
        let h = Harness(logsOutcomes: true)
        try h.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, storeDirectory: try directory())
        let rules = #"[{"when":{"os":"\#(os)","osVersion":"=\#(osVersion)"},"policy":{"appWide":"observe"}}]"#
        #expect(h.monitor.applyPolicy(document: document(ver: 2, rules: rules)) == .applied(version: 2))
        h.monitor.startMonitoring(withTerminateIn: 2)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(3)
        // The kill switch for this OS holds: no warning, no exit.
        #expect(h.take() == ["0 event ringing", "0 event started"])
        // A rule for another OS does not match this device: the code's countdown begins.
        let other = #"[{"when":{"os":"not-\#(os)"},"policy":{"appWide":"observe"}}]"#
        #expect(h.monitor.applyPolicy(document: document(ver: 3, rules: other)) == .applied(version: 3))
        #expect(h.take() == ["3 alert terminate 2 button=Close App"])
        h.monitor.stopMonitoring()
        try h.calls.end("A")
    }

    @Test("A refused document changes nothing: the countdown runs on to the exit")
    func refusedChangesNothing() throws {
        let h = Harness(logsOutcomes: true)
        try h.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, storeDirectory: try directory())
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        // Signed by a key that is not the pinned one under its kid.
        let impostor = try PolicySigningKey.generate(.edDSA)
        let forged = signer.sign(header: #"{"alg":"EdDSA","kid":"ed-1","typ":"hnb-policy+jwt"}"#,
                                 payload: #"{"iss":"com.bank.app","ver":9,"iat":1,"exp":\#(Self.epoch + 3600),"rules":\#(Self.killSwitch)}"#, with: impostor)
        #expect(h.monitor.applyPolicy(document: Data(forged)) == .rejected(.badSignature, detail: #"signature: does not verify with key "ed-1" (EdDSA)"#))
        #expect(h.monitor.applyPolicy(document: Data("not a document".utf8))
            == .rejected(.malformed, detail: "expected three non-empty base64url parts joined by '.' (a JWS compact serialization), got 1 part"))
        #expect(h.monitor.applyPolicy(document: Data(signer.document(iss: "com.evil", rules: Self.killSwitch)))
            == .rejected(.wrongIssuer, detail: #"iss: expected "com.bank.app", got "com.evil""#))
        h.advance(3)
        #expect(h.take().suffix(3) == ["3 alert terminate 0 button=Close App", "3 outcome forceExit", "3 exit 0"])
    }

    @Test("Without crypto (libcrypto missing) a valid kill switch is refused and the countdown runs on (fail closed)")
    func noCrypto() throws {
        let h = Harness(logsOutcomes: true)
        try h.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, store: PolicyFileStore(directory: try directory()), crypto: nil)
        h.monitor.startMonitoring(withTerminateIn: 2)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        #expect(h.monitor.applyPolicy(document: document(rules: Self.killSwitch)) == .rejected(.cryptoUnavailable, detail: "no platform crypto could be loaded"))
        h.advance(2)
        #expect(h.take().suffix(2) == ["2 outcome forceExit", "2 exit 0"])
    }

    @Test("Before setPolicyKeys every document is refused; a key set that is not one throws and keeps the keys set before")
    func keysFirst() throws {
        let h = Harness()
        #expect(h.monitor.applyPolicy(document: document(rules: "[]")) == .rejected(.noKeys, detail: "no keys are pinned (setPolicyKeys)"))
        #expect(throws: CallMonitor.PolicyKeyError(description: "the key set has no key")) {
            try h.monitor.setPolicyKeys(jwks: Data(#"{"keys":[]}"#.utf8), issuer: "com.bank.app")
        }
        #expect(h.monitor.applyPolicy(document: document(rules: "[]")) == .rejected(.noKeys, detail: "no keys are pinned (setPolicyKeys)"))
    }

    @Test("applyPolicy off the main thread or from inside a callback reads nothing and says why")
    func wrongPlace() async throws {
        let h = Harness()
        try h.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, storeDirectory: try directory())
        let monitor = h.monitor
        let data = document(rules: Self.killSwitch)
        let offMain = await Task.detached { monitor.applyPolicy(document: data) }.value
        #expect(offMain == .rejected(.notOnMainThread, detail: "applyPolicy(document:) was called off the main thread: nothing was read"))
        var inCallback: CallMonitor.PolicyResult?
        h.monitor.setCallback { _ in inCallback = monitor.applyPolicy(document: data) }
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        #expect(inCallback == .rejected(.calledFromCallback,
                                       detail: "applyPolicy(document:) was called from inside one of the monitor's delegate methods or callbacks: nothing was read"))
        #expect(h.monitor.applyPolicy(document: data) == .applied(version: 1))
        h.monitor.stopMonitoring()
        try h.calls.end("A")
    }

    @Test("Named screens through the API: the document addresses protect(named:), the outcome names its version")
    func namedScreen() throws {
        let h = Harness(logsOutcomes: true)
        try h.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: false, storeDirectory: try directory())
        let protection = h.monitor.protect(named: "transfer", withAcknowledgeIn: 5)
        #expect(h.monitor.applyPolicy(document: document(ver: 2, rules: #"[{"policy":{"screens":{"transfer":{"flow":"terminate","seconds":3}}}}]"#)) == .applied(version: 2))
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(1)
        protection.end()
        #expect(h.outcomes.map(\.policySource) == [.document(version: 2)])
        try h.calls.end("A")
    }

    /// A port of another kind: only hnbPolicy plugs one in, but whoever does must not turn the
    /// policy API into a crash or a document applied without the pinned keys.
    final class ForeignPort: PolicyPort {
        func persist(_ record: MonitorEngine.PolicyRecord) {}
    }

    @Test("A policy port of another kind plugged into the monitor: every document is refused noKeys, the code's policy holds, nothing crashes")
    func foreignPortRefusesDocuments() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let h = Harness()
        let foreign = ForeignPort()
        _ = h.monitor.policyPort(installingIfNone: { foreign })
        try h.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, storeDirectory: folder)
        h.monitor.setPolicyAttributes(["segment": "retail"])
        #expect(h.monitor.applyPolicy(document: document(ver: 2, rules: Self.killSwitch)) == .rejected(.noKeys, detail: "no keys are pinned (setPolicyKeys)"))
        #expect(h.monitor.pluggedPolicyPort === foreign)
        // The kill switch was refused: a live call still gets the code's countdown and exit.
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("A")
        try h.calls.connect("A")
        h.advance(5)
        #expect(h.take() == ["0 event ringing", "0 alert terminate 3 button=Close App", "0 event started", "1 alert terminate 2 button=Close App",
                             "2 alert terminate 1 button=Close App", "3 alert terminate 0 button=Close App", "3 exit 0"])
        h.monitor.stopMonitoring()
    }

    @Test("With no keys pinned the refusal still goes through the engine: from a callback the answer is calledFromCallback, and after the exit the refusal keeps its own reason (only a document that would apply answers exited)")
    func noKeysAnswersInOrder() throws {
        let h = Harness()
        let monitor = h.monitor
        let data = document(rules: Self.killSwitch)
        #expect(monitor.applyPolicy(document: data) == .rejected(.noKeys, detail: "no keys are pinned (setPolicyKeys)"))
        var inCallback: CallMonitor.PolicyResult?
        monitor.setCallback { _ in inCallback = monitor.applyPolicy(document: data) }
        monitor.startMonitoring(withTerminateIn: 1)
        try h.calls.incoming("A")
        #expect(inCallback == .rejected(.calledFromCallback,
                                       detail: "applyPolicy(document:) was called from inside one of the monitor's delegate methods or callbacks: nothing was read"))
        monitor.setCallback(nil)
        try h.calls.connect("A")
        h.advance(1)
        #expect(h.take().last == "1 exit 0")
        // The engine reports a refusal after the exit too (nothing changes either way), so
        // the answer is the engine's event, not a facade's shortcut.
        #expect(monitor.applyPolicy(document: data) == .rejected(.noKeys, detail: "no keys are pinned (setPolicyKeys)"))
    }

    @Test("A key set that is not one throws and leaves the keys pinned before it in place")
    func badKeySetKeepsTheOldKeys() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let h = Harness()
        try h.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, storeDirectory: folder)
        #expect(throws: CallMonitor.PolicyKeyError.self) {
            try h.monitor.setPolicyKeys(jwks: Data("{}".utf8), issuer: "com.bank.app", allowsRelaxation: true, storeDirectory: folder)
        }
        #expect(h.monitor.applyPolicy(document: document(ver: 4, rules: "[]")) == .applied(version: 4))
    }

    @Test("A kept kill switch dropped at setPolicyKeys without relaxation is dropped from the file too: the next launch that allows relaxation does not bring it back")
    func droppedDocumentLeavesTheFile() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let h = Harness()
        try h.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, storeDirectory: folder)
        #expect(h.monitor.applyPolicy(document: document(ver: 7, rules: Self.killSwitch)) == .applied(version: 7))
        #expect(try #require(PolicyFileStore(directory: folder).load()).text == Array(document(ver: 7, rules: Self.killSwitch)))
        let strict = Harness()
        try strict.monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: false, storeDirectory: folder)
        let kept = try #require(PolicyFileStore(directory: folder).load())
        #expect(kept.text == nil)
        #expect(kept.highestVersion == 7)
    }
}

// Split out of PolicyExpiryPrecisionTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy
import hnbTesting

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

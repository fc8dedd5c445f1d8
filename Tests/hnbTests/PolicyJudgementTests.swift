// The one judgement the bank's tool prints (issue 38): a document judged at an instant by the
// library's verifier and the engine's own steps, so the tool's answer at each edge of the window
// (nbf, exp) and for relaxation is the one applyPolicy(document:) gives.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy

@Suite("Policy judgement: the phones' answer at an instant")
struct PolicyJudgementTests {
    let signer = PolicyTestSigner.shared

    func judge(_ bytes: [UInt8], relax: Bool = true, at seconds: Double) -> PolicyJudgement {
        PolicyDocument.judge(bytes, keys: signer.keys, issuer: "com.bank.app", crypto: PolicyTestSigner.crypto,
                             allowsRelaxation: relax, at: Date(timeIntervalSince1970: seconds))
    }

    @Test("Rule 28 at the edges: notYetValid before nbf, applied from nbf, expired at exp exactly")
    func window() throws {
        let bytes = signer.document(ver: 4, iat: 1_000, nbf: 2_000, exp: 3_000)
        #expect(judge(bytes, at: 1_999.5).verdict == .notYetValid(notBefore: 2_000))
        #expect(judge(bytes, at: 2_000).verdict == .applied)
        #expect(judge(bytes, at: 2_999.999).verdict == .applied)
        let expired = judge(bytes, at: 3_000)
        #expect(expired.verdict == .rejected(.expired))
        // The document read is handed back, so the tool can say which exp passed.
        #expect(expired.document?.expires == 3_000)
        #expect(judge(bytes, at: 10_000).verdict == .rejected(.expired))
    }

    @Test("Relaxation as the engine decides it, after time: an expired kill switch is expired, not relaxationNotAllowed")
    func relaxation() {
        let kill = signer.document(exp: 3_000, rules: #"[{"policy":{"appWide":"observe"}}]"#)
        #expect(judge(kill, relax: true, at: 2_000).verdict == .applied)
        #expect(judge(kill, relax: false, at: 2_000).verdict == .rejected(.relaxationNotAllowed))
        #expect(judge(kill, relax: false, at: 3_000).verdict == .rejected(.expired))
        let stricter = signer.document(exp: 3_000, rules: #"[{"policy":{"appWide":{"flow":"terminate","seconds":5}}}]"#)
        #expect(judge(stricter, relax: false, at: 2_000).verdict == .applied)
    }

    @Test("A refusal of the verifier comes with no document")
    func verifierRefusal() {
        var bytes = signer.document(exp: 3_000)
        bytes[bytes.count - 2] = bytes[bytes.count - 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let judgement = judge(bytes, at: 2_000)
        #expect(judgement.verdict == .rejected(.badSignature))
        #expect(judgement.document == nil)
        let other = PolicyDocument.judge(signer.document(exp: 3_000), keys: signer.keys, issuer: "com.other", crypto: PolicyTestSigner.crypto,
                                         allowsRelaxation: true, at: Date(timeIntervalSince1970: 2_000))
        #expect(other.verdict == .rejected(.wrongIssuer))
    }
}

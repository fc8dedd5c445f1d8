// `callmonitor policy` and the remote policy's coaching member (issue 40, rule 35): sign reads it as
// the phones do and refuses an unknown level, verify prints each screen's levels and, without a
// manifest, names them as laxer than some app's code may be; with a build's manifest it judges them
// against that build's coaching policy.

import Foundation
import Testing

extension CommandLineTests {
    @Suite("callmonitor policy: the coaching member")
    struct PolicyCoachingCommandTests {
        static func payload(_ levels: String) -> String {
            #"{"iss":"i","ver":2,"iat":1767225600,"exp":1767830400,"rules":[{"policy":{"coaching":{"screens":{"transfer":\#(levels)}}}}]}"#
        }

        @Test("Rule 35: sign refuses an unknown coaching level as the phones do: exit 1, one line naming it")
        func unknownLevelNotSigned() async throws {
            let dir = try await PolicyTimeCommandTests.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = dir.appendingPathComponent("payload.json")
            try Data(Self.payload(#"{"medium":"off","unknown":"evaluate"}"#).utf8).write(to: file)
            let sign = try await runTool(["policy", "sign", "--key", dir.appendingPathComponent("k1.pem").path, "--kid", "k1", file.path])
            #expect(sign.status == 1)
            #expect(sign.stdout == "")
            #expect(sign.stderr == "callmonitor: \(file.path): the phones would refuse it (unknownField): rules[0].policy.coaching.screens.transfer: "
                    + "\"unknown\" is not a level: expected only medium and high (unknown is never set: it changes nothing)\n")
        }

        @Test("Rule 35: verify prints the coaching levels; without a manifest they are unjudged, with one a weaker level is refused for that build")
        func verifyJudgesCoaching() async throws {
            let dir = try await PolicyTimeCommandTests.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = dir.appendingPathComponent("payload.json")
            try Data(Self.payload(#"{"medium":{"flow":"acknowledge","seconds":8}}"#).utf8).write(to: file)
            let sign = try await runTool(["policy", "sign", "--key", dir.appendingPathComponent("k1.pem").path, "--kid", "k1", file.path])
            #expect(sign.status == 0)
            let document = dir.appendingPathComponent("doc.jws")
            try Data(sign.stdout.utf8).write(to: document)
            let keys = dir.appendingPathComponent("k1.jwks.json").path
            let verify = try await runTool(["policy", "verify", "--keys", keys, "--issuer", "i", "--at", "1767312000", document.path])
            #expect(verify.status == 0)
            #expect(verify.stdout == """
                signature: valid (EdDSA, kid "k1")
                valid ver 2 iat 1767225600 exp 1767830400
                rule 0: when always
                  appWide: code
                  screenCaptured: code
                  detection: code
                  verifierBudget: code
                  coaching screen transfer: medium acknowledge 8, high code
                cannot check relaxation without a manifest: rules[0].policy.coaching.screens.transfer (coaching medium acknowledge 8, high code) may be laxer than the app's code (--manifest judges it)

                """)
            // A build whose code warns for 10 s on medium refuses it; one with the default 5 s applies it.
            let manifest = #"{"allowsRelaxation":false,"appVersion":"4.2","appWide":null,"attributes":[],"coaching":{"high":{"response":"acknowledge","seconds":10},"medium":{"response":"acknowledge","seconds":MEDIUM}},"detection":true,"issuer":"i","kids":["k1"],"schemaVersion":1,"screenCaptured":null,"screens":[]}"#
            let strict = dir.appendingPathComponent("strict.json")
            let lax = dir.appendingPathComponent("lax.json")
            try Data(manifest.replacingOccurrences(of: "MEDIUM", with: "10").utf8).write(to: strict)
            try Data(manifest.replacingOccurrences(of: "MEDIUM", with: "5").utf8).write(to: lax)
            let judged = try await runTool(["policy", "verify", "--keys", keys, "--issuer", "i", "--at", "1767312000",
                                            "--manifest", strict.path, "--manifest", lax.path, document.path])
            #expect(judged.status == 1)
            #expect(judged.stdout.hasSuffix("""
                manifest \(strict.path) (appVersion 4.2): rejected relaxationNotAllowed (this build does not allow relaxation)
                  rules[0].policy.coaching.screens.transfer: coaching medium acknowledge 8, high code weakens the app's code (coaching medium acknowledge 10, high acknowledge 10)
                manifest \(lax.path) (appVersion 4.2): applied

                """))
        }
    }
}

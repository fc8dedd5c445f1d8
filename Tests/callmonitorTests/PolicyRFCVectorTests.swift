// The published JOSE examples through `callmonitor policy verify` and `explain` (issue 38): the
// signature of RFC 8037 appendix A.4 (Ed25519, its key from A.2) and of RFC 7515 appendix A.3
// (ES256) is genuine, which the signature line says first, while the phones refuse the content
// (neither has a typ); a copy with one signature byte changed reads badSignature. The fixtures
// are typed in from the RFCs (Scenarios/policy/rfc*.jws and their .jwks.json; the key sets add a
// kid and leave out the private d).

import Foundation
import Testing

extension CommandLineTests {
    @Suite("callmonitor policy: the RFC 8037 and RFC 7515 examples")
    struct PolicyRFCVectorTests {
        static let folder = scenarioDirectory.appendingPathComponent("policy")
        static let wrongType = #"rejected wrongType: header typ: expected "hnb-policy+jwt" (or application/hnb-policy+jwt), got none"#

        /// The vector with the first character of its signature changed: the signature's first
        /// byte differs (the last character would only carry padding bits, which the strict
        /// base64url reader refuses as malformed instead).
        static func corrupted(_ document: String) throws -> String {
            let parts = document.trimmingCharacters(in: .newlines).components(separatedBy: ".")
            try #require(parts.count == 3)
            let first = try #require(parts[2].first)
            return parts[0] + "." + parts[1] + "." + (first == "A" ? "B" : "A") + parts[2].dropFirst()
        }

        @Test("Each genuine vector: signature valid under its key, content refused wrongType; one signature byte changed: badSignature", arguments: [
            ("rfc8037-a4", "rfc8037-a2", "EdDSA"),
            ("rfc7515-a3", "rfc7515-a3", "ES256"),
        ])
        func vector(document: String, key: String, alg: String) async throws {
            let keys = Self.folder.appendingPathComponent("\(key).jwks.json").path
            let genuine = try String(contentsOf: Self.folder.appendingPathComponent("\(document).jws"), encoding: .utf8)
            let valid = "signature: valid (\(alg), key \"\(key)\": the header names no kid, so each pinned \(alg) key was tried)"
            let bad = "signature: badSignature: does not verify with key \"\(key)\" (\(alg))"
            for (text, signature) in [(genuine, valid), (try Self.corrupted(genuine), bad)] {
                for command in [["verify"], ["explain", "--attribute", "os=iOS"]] {
                    let result = try await runTool(["policy"] + command + ["--keys", keys, "--issuer", "joe", "--at", "1300819000", "-"], input: text)
                    #expect(result.stdout == signature + "\n" + Self.wrongType + "\n", "\(document) \(command[0])")
                    #expect(result.status == 1)
                    #expect(result.stderr == "")
                }
            }
        }

        @Test("A genuine document refused for its content that is past its exp as well says both (RFC 7515 A.3's exp is 1300819380); a payload without exp says one")
        func alsoExpired() async throws {
            let keys = Self.folder.appendingPathComponent("rfc7515-a3.jwks.json").path
            let document = Self.folder.appendingPathComponent("rfc7515-a3.jws").path
            let result = try await runTool(["policy", "verify", "--keys", keys, "--issuer", "joe", "--at", "1300819380", document])
            #expect(result.status == 1)
            #expect(result.stdout == """
                signature: valid (ES256, key "rfc7515-a3": the header names no kid, so each pinned ES256 key was tried)
                \(Self.wrongType)
                also expired: exp 2011-03-22T18:43:00Z (1300819380) is not after --at 2011-03-22T18:43:00Z (1300819380)

                """)
            let before = try await runTool(["policy", "verify", "--keys", keys, "--issuer", "joe", "--at", "1300819379", document])
            #expect(before.stdout.components(separatedBy: "\n").count == 3)
            let sentence = try await runTool(["policy", "verify", "--keys", Self.folder.appendingPathComponent("rfc8037-a2.jwks.json").path, "--issuer", "joe",
                                              "--at", "2000000000", Self.folder.appendingPathComponent("rfc8037-a4.jws").path])
            #expect(sentence.stdout.components(separatedBy: "\n").count == 3)
        }
    }
}

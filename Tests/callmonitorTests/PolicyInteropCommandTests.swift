// `callmonitor policy verify` with a JWK Set that also holds keys of other types (issue 38): the
// usable key verifies, and each ignored key is listed after the result.

import Foundation
import Testing

extension CommandLineTests {
    @Suite("callmonitor policy: mixed key sets")
    struct PolicyInteropCommandTests {
        @Test("verify lists the keys it ignored (RSA, Ed448) after the result and verifies with the usable one")
        func ignoredKeysListed() async throws {
            let dir = try await PolicyTimeCommandTests.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            _ = try await PolicyTimeCommandTests.signed(PolicyTimeCommandTests.window, in: dir)
            let own = try String(contentsOf: dir.appendingPathComponent("k1.jwks.json"), encoding: .utf8)
            let mixed = #"{"keys":[{"kty":"RSA","kid":"r1","n":"AQAB","e":"AQAB"},{"kty":"OKP","crv":"Ed448","kid":"e1","x":"AA"},"# + own.dropFirst(9)
            try Data(mixed.utf8).write(to: dir.appendingPathComponent("mixed.json"))
            let result = try await runTool(["policy", "verify", "--keys", dir.appendingPathComponent("mixed.json").path, "--issuer", "i",
                                            "--at", "1767312000", dir.appendingPathComponent("doc.jws").path])
            #expect(result.status == 0)
            #expect(result.stdout == """
                signature: valid (EdDSA, kid "k1")
                valid ver 2 iat 1767225600 nbf 1767312000 exp 1767830400
                ignored key "r1" (RSA): not a type the phones verify with (OKP/Ed25519, EC/P-256)
                ignored key "e1" (OKP/Ed448): not a type the phones verify with (OKP/Ed25519, EC/P-256)

                """)
        }
    }
}

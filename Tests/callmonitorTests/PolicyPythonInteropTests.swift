// Documents signed by an independent implementation (issue 38): the article's Python snippet,
// run as written with the `cryptography` package (.ci/run installs it when missing), signs with
// the keys `callmonitor policy keygen` made, and the tool, through the library's verifier and
// engine, judges each: both key types, alg Ed25519, both typ spellings, a mixed key set, and
// documents out of their window.

import Foundation
import Testing

extension CommandLineTests {
    @Suite("callmonitor policy: documents signed with Python's cryptography")
    struct PolicyPythonInteropTests {
        static let payload = #"{"iss":"i","ver":2,"iat":1767225600,"nbf":1767312000,"exp":1767830400,"rules":[]}"#
        static let valid = "valid ver 2 iat 1767225600 nbf 1767312000 exp 1767830400"

        static let ed = #"signature: valid (EdDSA, kid "k1")"# + "\n"
        static let ec = #"signature: valid (ES256, kid "k2")"# + "\n"

        @Test("The article's snippet signs what the tool verifies, and the tool refuses what it should", arguments: [
            ("k1", [String](), "1767312000", 0, ed + valid),
            ("k2", [], "1767312000", 0, ec + valid),
            ("k1", ["Ed25519"], "1767312000", 0, ed + valid),
            ("k1", ["", "application/hnb-policy+jwt"], "1767312000", 0, ed + valid),
            ("k2", ["", "Application/HNB-Policy+JWT"], "1767312000", 0, ec + valid),
            ("k1", ["", "JWT"], "1767312000", 1, ed + #"rejected wrongType: header typ: expected "hnb-policy+jwt" (or application/hnb-policy+jwt), got "JWT""#),
            ("k1", ["ES256"], "1767312000", 1, "signature: not checked (keyTypeMismatch)\nrejected keyTypeMismatch: header alg: key \"k1\" verifies EdDSA, got ES256"),
            ("k1", [], "1767830400", 1, ed + "rejected expired: exp 2026-01-08T00:00:00Z (1767830400) is not after --at 2026-01-08T00:00:00Z (1767830400)"),
            ("k2", [], "1767311999", 1,
             ec + "notYetValid: nbf 2026-01-02T00:00:00Z (1767312000) is after --at 2026-01-01T23:59:59Z (1767311999) (the phones accept it and apply it from nbf; --at 1767312000 judges it then)"),
        ])
        func signedInPython(kid: String, extra: [String], at: String, status: Int32, first: String) async throws {
            let check = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import cryptography"])
            try #require(check.status == 0, "python3 with the cryptography package is needed (pip install cryptography; .ci/run installs it)")
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-python-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let blocks = try PolicyTimeCommandTests.blocks(of: "Signing from your own service").filter { $0.language == "python" }
            try #require(blocks.count == 1)
            try Data(blocks[0].text.utf8).write(to: dir.appendingPathComponent("sign_policy.py"))
            #expect(try await runTool(["policy", "keygen", "--alg", "EdDSA", "--kid", "k1", "--out", dir.path]).status == 0)
            #expect(try await runTool(["policy", "keygen", "--alg", "ES256", "--kid", "k2", "--out", dir.path]).status == 0)
            // One set: an RSA key, both of ours, an Ed448 key.
            func keys(_ name: String) throws -> Substring {
                let text = try String(contentsOf: dir.appendingPathComponent("\(name).jwks.json"), encoding: .utf8)
                return text.dropFirst(9).dropLast(3)
            }
            let set = #"{"keys":[{"kty":"RSA","kid":"r1","n":"AQAB","e":"AQAB"},"# + (try keys("k1")) + "," + (try keys("k2"))
                + #",{"kty":"OKP","crv":"Ed448","kid":"e1","x":"AA"}]}"#
            try Data(set.utf8).write(to: dir.appendingPathComponent("set.json"))
            try Data((Self.payload + "\r\n").utf8).write(to: dir.appendingPathComponent("payload.json"))
            let signed = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"),
                                              ["python3", dir.appendingPathComponent("sign_policy.py").path, dir.appendingPathComponent("\(kid).pem").path,
                                               kid, dir.appendingPathComponent("payload.json").path] + extra)
            #expect(signed.status == 0)
            #expect(signed.stderr == "")
            let verify = try await runTool(["policy", "verify", "--keys", dir.appendingPathComponent("set.json").path, "--issuer", "i", "--at", at, "-"],
                                           input: signed.stdout)
            #expect(verify.status == status)
            #expect(verify.stdout == """
                \(first)
                ignored key "r1" (RSA): not a type the phones verify with (OKP/Ed25519, EC/P-256)
                ignored key "e1" (OKP/Ed448): not a type the phones verify with (OKP/Ed25519, EC/P-256)

                """)
        }
    }
}

// Documents signed by a second independent implementation (issue 38): the article's JavaScript
// snippet, run as written with Node's built-in crypto (Node 18+, no package; .ci/run installs
// nodejs when it is missing), signs with the keys `callmonitor policy keygen` made, and the tool
// judges each: both key types, alg Ed25519, and a typ the phones refuse.

import Foundation
import Testing

extension CommandLineTests {
    @Suite("callmonitor policy: documents signed with Node's crypto")
    struct PolicyNodeInteropTests {
        static let payload = #"{"iss":"i","ver":2,"iat":1767225600,"nbf":1767312000,"exp":1767830400,"rules":[]}"#
        static let valid = "valid ver 2 iat 1767225600 nbf 1767312000 exp 1767830400"

        static let ed = #"signature: valid (EdDSA, kid "k1")"# + "\n"
        static let ec = #"signature: valid (ES256, kid "k2")"# + "\n"

        /// base64url without padding (RFC 7515 section 2), to read the snippet's output against.
        static func base64url(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }

        /// One test, not one per case: keygen and node are spawned once per case only, as
        /// process start-up dominates here.
        @Test("The article's JavaScript snippet signs what the tool verifies, and the tool refuses what it should")
        func signedInNode() async throws {
            let version = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["node", "--version"])
            let major = Int(version.stdout.dropFirst().prefix { $0.isNumber }) ?? 0
            try #require(version.status == 0 && version.stdout.hasPrefix("v") && major >= 18,
                         "Node 18 or later is needed to run the article's JavaScript snippet (node on PATH; .ci/run installs nodejs with apt-get); found: \(version.stdout)\(version.stderr)")
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-node-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let blocks = try PolicyTimeCommandTests.blocks(of: "Signing from your own service").filter { $0.language == "javascript" }
            try #require(blocks.count == 1)
            let script = dir.appendingPathComponent("sign_policy.mjs")
            try Data(blocks[0].text.utf8).write(to: script)
            #expect(try await runTool(["policy", "keygen", "--alg", "EdDSA", "--kid", "k1", "--out", dir.path]).status == 0)
            #expect(try await runTool(["policy", "keygen", "--alg", "ES256", "--kid", "k2", "--out", dir.path]).status == 0)
            func keys(_ name: String) throws -> Substring {
                let text = try String(contentsOf: dir.appendingPathComponent("\(name).jwks.json"), encoding: .utf8)
                return text.dropFirst(9).dropLast(3)
            }
            let set = #"{"keys":["# + (try keys("k1")) + "," + (try keys("k2")) + "]}"
            try Data(set.utf8).write(to: dir.appendingPathComponent("set.json"))
            // A trailing CRLF, as an editor on Windows leaves it: the snippet signs without it.
            try Data((Self.payload + "\r\n").utf8).write(to: dir.appendingPathComponent("payload.json"))
            let cases: [(kid: String, extra: [String], header: String, status: Int32, output: String)] = [
                ("k1", [], #"{"alg":"EdDSA","kid":"k1","typ":"hnb-policy+jwt"}"#, 0, Self.ed + Self.valid),
                ("k2", [], #"{"alg":"ES256","kid":"k2","typ":"hnb-policy+jwt"}"#, 0, Self.ec + Self.valid),
                ("k1", ["Ed25519"], #"{"alg":"Ed25519","kid":"k1","typ":"hnb-policy+jwt"}"#, 0, Self.ed + Self.valid),
                ("k1", ["", "JWT"], #"{"alg":"EdDSA","kid":"k1","typ":"JWT"}"#, 1,
                 Self.ed + #"rejected wrongType: header typ: expected "hnb-policy+jwt" (or application/hnb-policy+jwt), got "JWT""#),
            ]
            for item in cases {
                let signed = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"),
                                                  ["node", script.path, dir.appendingPathComponent("\(item.kid).pem").path,
                                                   item.kid, dir.appendingPathComponent("payload.json").path] + item.extra)
                #expect(signed.status == 0, "\(item.kid) \(item.extra)")
                #expect(signed.stderr == "", "\(item.kid) \(item.extra)")
                // The header as the Python snippet writes it, and the payload without its CRLF (the
                // verifier would also accept the CRLF, so only this shows it was stripped).
                let parts = signed.stdout.split(separator: ".", omittingEmptySubsequences: false)
                #expect(parts.count == 3, "\(item.kid) \(item.extra)")
                #expect(parts.first.map(String.init) == Self.base64url(item.header), "\(item.kid) \(item.extra)")
                #expect(parts.dropFirst().first.map(String.init) == Self.base64url(Self.payload), "\(item.kid) \(item.extra)")
                let verify = try await runTool(["policy", "verify", "--keys", dir.appendingPathComponent("set.json").path, "--issuer", "i",
                                                "--at", "1767312000", "-"], input: signed.stdout)
                #expect(verify.status == item.status, "\(item.kid) \(item.extra)")
                #expect(verify.stdout == item.output + "\n", "\(item.kid) \(item.extra)")
            }
        }
    }
}

// `callmonitor policy sign` refuses what the phones would refuse (issue 38): the payload is read
// with the phones' own reader (duplicate keys, unknown members, wrong types, bad policies), a
// `--kid` that `--keys` does not pin is refused, a SEC 1 EC key is read, an encrypted or RSA key
// is named with what to do, and a bad `--out` is one plain line.

import Foundation
import Testing

extension CommandLineTests {
    @Suite("callmonitor policy sign: nothing the phones would refuse")
    struct PolicySignCommandTests {
        static let good = #"{"iss":"i","ver":2,"iat":1767225600,"exp":1767830400,"rules":[]}"#

        @Test("A payload the phones' reader refuses is not signed: exit 1, one line naming the member", arguments: [
            (#"{"iss":"i","ver":2,"ver":3,"iat":1,"exp":2,"rules":[]}"#, #"(duplicateKey): payload: "ver" appears twice in one object"#),
            (#"{"iss":"i","ver":2,"iat":1,"exp":2,"rules":[],"aud":"x"}"#,
             "(unknownField): aud: expected only iss, ver, iat, nbf, exp and rules (the format refuses unknown claims)"),
            (#"{"iss":"i","ver":2,"iat":1.5,"exp":2,"rules":[]}"#,
             "(invalidClaims): iat: expected an integer NumericDate (whole seconds; the format is stricter than RFC 7519), got 1.5"),
            (#"{"iss":"i","ver":2,"iat":1,"exp":2,"rules":[{"policy":{"screens":{"transfer":{"flow":"terminate","seconds":5.0}}}}]}"#,
             "(invalidPolicy): rules[0].policy.screens.transfer.seconds: expected an integer from -2147483648 to 2147483647, got 5.0"),
            (#"{"iss":"i","ver":2,"iat":1,"exp":2,"rules":[{"policy":{"appwide":"observe"}}]}"#,
             "(unknownField): rules[0].policy.appwide: expected only appWide, screens, screenCaptured, detection, verifierBudget and coaching"),
            ("hello", "(malformed): payload: expected JSON (RFC 8259), stopped at byte 0"),
        ])
        func refusedPayload(payload: String, message: String) async throws {
            let dir = try await PolicyTimeCommandTests.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = dir.appendingPathComponent("payload.json")
            try Data(payload.utf8).write(to: file)
            let sign = try await runTool(["policy", "sign", "--key", dir.appendingPathComponent("k1.pem").path, "--kid", "k1", file.path])
            #expect(sign.status == 1)
            #expect(sign.stdout == "")
            #expect(sign.stderr == "callmonitor: \(file.path): the phones would refuse it \(message)\n")
        }

        @Test("A rule verify would say does nothing (os \"ios\", no platform's) is not signed without --force; with it, signed and the rule named on stderr")
        func inertRuleNeedsForce() async throws {
            let dir = try await PolicyTimeCommandTests.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = dir.appendingPathComponent("payload.json")
            try Data(#"{"iss":"i","ver":2,"iat":1767225600,"exp":1767830400,"rules":[{"when":{"os":"ios"},"policy":{"detection":true}}]}"#.utf8).write(to: file)
            let line = #"rules[0] would do nothing: when.os ["ios"] names no platform (the library writes iOS, macCatalyst, visionOS, macOS, Linux, unknown)"#
            let arguments = ["policy", "sign", "--key", dir.appendingPathComponent("k1.pem").path, "--kid", "k1"]
            let refused = try await runTool(arguments + [file.path])
            #expect(refused.status == 1)
            #expect(refused.stdout == "")
            #expect(refused.stderr == "callmonitor: not signed: a rule would do nothing (--force signs it anyway)\n\(line)\n")
            let forced = try await runTool(arguments + ["--force", file.path])
            #expect(forced.status == 0)
            #expect(forced.stderr == line + "\n")
            #expect(forced.stdout.split(separator: ".").count == 3)
        }

        @Test("A key set with a shared secret or a private key is refused by verify, explain and sign --keys: one line saying why, exit 2")
        func secretsInTheKeySet() async throws {
            let dir = try await PolicyTimeCommandTests.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            _ = try await PolicyTimeCommandTests.signed(Self.good, in: dir)
            let jwks = try String(contentsOf: dir.appendingPathComponent("k1.jwks.json"), encoding: .utf8)
            let keys = try #require(jwks.range(of: #"{"keys":["#))
            for (name, extra, why) in [
                ("oct", #"{"kty":"oct","kid":"s1","k":"c2VjcmV0"},"#, #"key "s1" is a shared secret (kty oct): a key set the apps carry holds public keys only"#),
                ("private", #"{"kty":"OKP","crv":"Ed25519","kid":"p1","x":"AA","d":"AA"},"#, #"key "p1" is a private key: pin only the public part"#),
            ] {
                let bad = dir.appendingPathComponent("\(name).jwks.json")
                try Data(jwks.replacingCharacters(in: keys, with: #"{"keys":["# + extra).utf8).write(to: bad)
                for action in [["verify"], ["explain"]] {
                    let result = try await runTool(["policy"] + action + ["--keys", bad.path, "--issuer", "i", dir.appendingPathComponent("doc.jws").path])
                    #expect(result.status == 2, "\(name) \(action)")
                    #expect(result.stdout == "", "\(name) \(action)")
                    #expect(result.stderr == "callmonitor: \(bad.path): \(why)\n", "\(name) \(action)")
                }
                let payload = dir.appendingPathComponent("payload.json")
                let sign = try await runTool(["policy", "sign", "--key", dir.appendingPathComponent("k1.pem").path, "--kid", "k1", "--keys", bad.path, payload.path])
                #expect(sign.status == 2, "\(name) sign")
                #expect(sign.stderr == "callmonitor: \(bad.path): \(why)\n", "\(name) sign")
            }
        }

        @Test("A key without use is accepted, as RFC 7517 allows and the article says; use other than sig is refused")
        func keyWithoutUse() async throws {
            let dir = try await PolicyTimeCommandTests.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            _ = try await PolicyTimeCommandTests.signed(Self.good, in: dir)
            let jwks = try String(contentsOf: dir.appendingPathComponent("k1.jwks.json"), encoding: .utf8)
            #expect(jwks.contains(#""use":"sig","#))
            let bare = dir.appendingPathComponent("bare.jwks.json")
            try Data(jwks.replacingOccurrences(of: #""use":"sig","#, with: "").utf8).write(to: bare)
            let result = try await runTool(["policy", "verify", "--keys", bare.path, "--issuer", "i", "--at", "1767312000", dir.appendingPathComponent("doc.jws").path])
            #expect(result.status == 0)
            #expect(result.stdout == "signature: valid (EdDSA, kid \"k1\")\nvalid ver 2 iat 1767225600 exp 1767830400\n")
            let encrypting = dir.appendingPathComponent("enc.jwks.json")
            try Data(jwks.replacingOccurrences(of: #""use":"sig""#, with: #""use":"enc""#).utf8).write(to: encrypting)
            let refused = try await runTool(["policy", "verify", "--keys", encrypting.path, "--issuer", "i", dir.appendingPathComponent("doc.jws").path])
            #expect(refused.status == 2)
            #expect(refused.stderr == "callmonitor: \(encrypting.path): key \"k1\" is not for signatures (use \"enc\")\n")
        }

        @Test("With --keys, a kid it does not pin and a key that is not the pinned one are refused; the pinned one signs")
        func kidInKeys() async throws {
            let dir = try await PolicyTimeCommandTests.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = dir.appendingPathComponent("payload.json")
            try Data(Self.good.utf8).write(to: file)
            let keys = dir.appendingPathComponent("k1.jwks.json").path
            let pem = dir.appendingPathComponent("k1.pem").path
            let unknown = try await runTool(["policy", "sign", "--key", pem, "--kid", "k2", "--keys", keys, file.path])
            #expect(unknown.status == 1)
            #expect(unknown.stdout == "")
            #expect(unknown.stderr == "callmonitor: --kid \"k2\" is not in \(keys) (k1): the phones would refuse it (unknownKey)\n")
            let other = dir.appendingPathComponent("other")
            #expect(try await runTool(["policy", "keygen", "--alg", "EdDSA", "--kid", "k1", "--out", other.path]).status == 0)
            let wrongKey = try await runTool(["policy", "sign", "--key", other.appendingPathComponent("k1.pem").path, "--kid", "k1", "--keys", keys, file.path])
            #expect(wrongKey.status == 1)
            #expect(wrongKey.stderr == "callmonitor: \(other.appendingPathComponent("k1.pem").path) is not the key \"k1\" of \(keys): the phones would refuse the signature (badSignature)\n")
            let signed = try await runTool(["policy", "sign", "--key", pem, "--kid", "k1", "--keys", keys, file.path])
            #expect(signed.status == 0)
            let verify = try await runTool(["policy", "verify", "--keys", keys, "--issuer", "i", "--at", "1767312000", "-"], input: signed.stdout)
            #expect(verify.stdout == "signature: valid (EdDSA, kid \"k1\")\nvalid ver 2 iat 1767225600 exp 1767830400\n")
        }

        /// Runs a Python snippet with the `cryptography` package (as PolicyPythonInteropTests does).
        static func python(_ code: String, _ arguments: [String]) async throws -> RunResult {
            let check = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import cryptography"])
            try #require(check.status == 0, "python3 with the cryptography package is needed (pip install cryptography; .ci/run installs it)")
            return try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", code] + arguments)
        }

        /// Writes the PKCS #8 key at argv[1] again as argv[3] (`sec1`, `sec1-encrypted`,
        /// `pkcs8-encrypted`), or a new RSA key (`rsa`), to argv[2].
        static let rewrite = """
            import sys
            from cryptography.hazmat.primitives import serialization as s
            from cryptography.hazmat.primitives.asymmetric import rsa
            key = s.load_pem_private_key(open(sys.argv[1], "rb").read(), None)
            kind = sys.argv[3]
            if kind == "rsa":
                key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            fmt = s.PrivateFormat.PKCS8 if kind == "pkcs8-encrypted" else s.PrivateFormat.TraditionalOpenSSL
            enc = s.BestAvailableEncryption(b"secret") if kind.endswith("encrypted") else s.NoEncryption()
            open(sys.argv[2], "wb").write(key.private_bytes(s.Encoding.PEM, fmt, enc))
            """

        @Test("A SEC 1 EC PRIVATE KEY signs; an encrypted PEM and an RSA key are one line saying what to do")
        func pemForms() async throws {
            let dir = try await PolicyTimeCommandTests.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            #expect(try await runTool(["policy", "keygen", "--alg", "ES256", "--kid", "k2", "--out", dir.path]).status == 0)
            let file = dir.appendingPathComponent("payload.json")
            try Data(Self.good.utf8).write(to: file)
            let keys = dir.appendingPathComponent("k2.jwks.json").path
            func rewritten(_ kind: String, from name: String = "k2") async throws -> String {
                let path = dir.appendingPathComponent("\(kind).pem").path
                let made = try await Self.python(Self.rewrite, [dir.appendingPathComponent("\(name).pem").path, path, kind])
                #expect(made.status == 0, "\(made.stderr)")
                return path
            }
            let sec1 = try await rewritten("sec1")
            #expect(try String(contentsOfFile: sec1, encoding: .utf8).hasPrefix("-----BEGIN EC PRIVATE KEY-----\n"))
            // --keys proves the key read from SEC 1 is the pinned one.
            let signed = try await runTool(["policy", "sign", "--key", sec1, "--kid", "k2", "--keys", keys, file.path])
            #expect(signed.status == 0)
            #expect(signed.stderr == "")
            let verify = try await runTool(["policy", "verify", "--keys", keys, "--issuer", "i", "--at", "1767312000", "-"], input: signed.stdout)
            #expect(verify.stdout == "signature: valid (ES256, kid \"k2\")\nvalid ver 2 iat 1767225600 exp 1767830400\n")
            for kind in ["pkcs8-encrypted", "sec1-encrypted"] {
                let path = try await rewritten(kind)
                let refused = try await runTool(["policy", "sign", "--key", path, "--kid", "k2", file.path])
                #expect(refused.status == 2)
                #expect(refused.stdout == "")
                #expect(refused.stderr == "callmonitor: \(path) is encrypted: sign reads an unencrypted key; decrypt it on the signing server with "
                    + "openssl pkcs8 -topk8 -nocrypt -in \(path) -out KEY.pem\n", "\(kind)")
            }
            let rsa = try await rewritten("rsa")
            let refused = try await runTool(["policy", "sign", "--key", rsa, "--kid", "k2", file.path])
            #expect(refused.status == 2)
            #expect(refused.stderr == "callmonitor: \(rsa) is an RSA key (PKCS #1): the phones verify only Ed25519 (EdDSA) and P-256 (ES256) keys (policy keygen makes one)\n")
        }

        @Test("A --out keygen cannot write is one plain line naming the path, exit 2, never a Foundation error's text", arguments: [
            "file", "proc", "itself",
        ])
        func badOut(kind: String) async throws {
            let dir = try await PolicyTimeCommandTests.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            // Under a regular file, and in /proc, where nobody can create a file.
            let out = switch kind {
            case "file": dir.appendingPathComponent("k1.pem").path + "/keys"
            case "itself": dir.appendingPathComponent("k1.pem").path
            default: "/proc/hnb-keys-\(UUID().uuidString)"
            }
            let result = try await runTool(["policy", "keygen", "--alg", "EdDSA", "--kid", "k9", "--out", out])
            #expect(result.status == 2)
            #expect(result.stdout == "")
            // Issue 53: the line names what is in the way, the file above the folder, or the folder
            // that cannot be written in.
            let obstacle = kind == "proc" ? "cannot write in /proc" : "\(dir.appendingPathComponent("k1.pem").path) is a file, not a folder"
            #expect(result.stderr == "callmonitor: cannot make the folder \(out): \(obstacle)\n")
            let proc = try await runTool(["policy", "keygen", "--alg", "EdDSA", "--kid", "k9", "--out", "/proc"])
            #expect(proc.status == 2)
            #expect(proc.stderr.hasPrefix("callmonitor: cannot write /proc/k9.pem: "))
            #expect(proc.stderr.split(separator: "\n").count == 1)
            #expect(!proc.stderr.contains("Error Domain"))
        }
    }
}

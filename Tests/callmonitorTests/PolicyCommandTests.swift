// `callmonitor policy` (issue 28): keygen, sign, verify and explain through the built tool, with
// either algorithm, and the exit statuses a backend's script relies on.

import Foundation
import Testing

extension CommandLineTests {
    @Suite("callmonitor policy")
    struct PolicyCommandTests {
        static let payload = #"{"iss":"com.bank.app","ver":3,"iat":1767225600,"exp":4102444800,"rules":[{"when":{"os":"iOS","osVersion":">=26.0 <26.2"},"policy":{"appWide":"observe","screens":{"transfer":"off"}}},{"policy":{"screens":{"transfer":{"flow":"terminate","seconds":5}}}}]}"#

        func folder() throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-policy-cli-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        @Test("keygen, sign, verify and explain with each algorithm: the library verifies what the tool signs", arguments: ["EdDSA", "ES256"])
        func roundTrip(alg: String) async throws {
            let dir = try folder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let keys = dir.appendingPathComponent("keys").path
            let keygen = try await runTool(["policy", "keygen", "--alg", alg, "--kid", "k1", "--out", keys])
            #expect(keygen.status == 0)
            #expect(keygen.stdout == "private key \(keys)/k1.pem\npublic key set \(keys)/k1.jwks.json\n")
            let permissions = try FileManager.default.attributesOfItem(atPath: "\(keys)/k1.pem")[.posixPermissions] as? Int
            #expect(permissions == 0o600)
            let payload = dir.appendingPathComponent("payload.json")
            try Data((Self.payload + "\n").utf8).write(to: payload)
            let signed = try await runTool(["policy", "sign", "--key", "\(keys)/k1.pem", "--kid", "k1", payload.path])
            #expect(signed.status == 0)
            let document = dir.appendingPathComponent("doc.jws")
            try Data(signed.stdout.utf8).write(to: document)
            let verify = try await runTool(["policy", "verify", "--keys", "\(keys)/k1.jwks.json", "--issuer", "com.bank.app", "--allow-relaxation", document.path])
            #expect(verify.status == 0)
            #expect(verify.stdout == """
                signature: valid (\(alg), kid "k1")
                valid ver 3 iat 1767225600 exp 4102444800
                rule 0: when os in [iOS], osVersion >=26.0 <26.2
                  appWide: observe
                  screen transfer: off
                  screenCaptured: code
                  detection: code
                  verifierBudget: code
                rule 1: when always
                  appWide: code
                  screen transfer: terminate 5
                  screenCaptured: code
                  detection: code
                  verifierBudget: code

                """)
            let strict = try await runTool(["policy", "verify", "--keys", "\(keys)/k1.jwks.json", "--issuer", "com.bank.app", document.path])
            #expect(strict.status == 1)
            #expect(strict.stdout == "signature: valid (\(alg), kid \"k1\")\nrejected relaxationNotAllowed: rules[0].policy.appWide: \"observe\" weakens the code's policy, "
                    + "and the app does not allow relaxation (setPolicyKeys allowsRelaxation) (--allow-relaxation judges as an app that allows it)\n")
            let explain = try await runTool(["policy", "explain", "--keys", "\(keys)/k1.jwks.json", "--issuer", "com.bank.app", "--allow-relaxation",
                                             "--attribute", "os=iOS", "--attribute", "osVersion=26.2", document.path])
            #expect(explain.status == 0)
            #expect(explain.stdout == """
                signature: valid (\(alg), kid "k1")
                valid ver 3 iat 1767225600 exp 4102444800
                device os=iOS osVersion=26.2
                rule 1 applies
                appWide: code
                screen transfer: terminate 5
                screenCaptured: code
                detection: code
                verifierBudget: code

                """)
            let wrongIssuer = try await runTool(["policy", "verify", "--keys", "\(keys)/k1.jwks.json", "--issuer", "com.other", "--allow-relaxation", document.path])
            #expect(wrongIssuer.status == 1)
            #expect(wrongIssuer.stdout == "signature: valid (\(alg), kid \"k1\")\nrejected wrongIssuer: iss: expected \"com.other\", got \"com.bank.app\"\n")
            // Another key under the same kid: the signature does not verify.
            _ = try await runTool(["policy", "keygen", "--alg", alg, "--kid", "k1", "--out", dir.appendingPathComponent("other").path])
            let forged = try await runTool(["policy", "sign", "--key", dir.appendingPathComponent("other/k1.pem").path, "--kid", "k1", payload.path])
            try Data(forged.stdout.utf8).write(to: document)
            let bad = try await runTool(["policy", "verify", "--keys", "\(keys)/k1.jwks.json", "--issuer", "com.bank.app", "--allow-relaxation", document.path])
            #expect(bad.status == 1)
            #expect(bad.stdout == "signature: badSignature: does not verify with key \"k1\" (\(alg))\nrejected badSignature: signature: does not verify with key \"k1\" (\(alg))\n")
        }

        @Test("Usage errors exit 2 with one line; a command line that is not policy's points to the help, never prints it whole", arguments: [
            (["policy"], "callmonitor: policy needs keygen, sign, verify or explain (see callmonitor policy --help)"),
            (["policy", "keygen", "extra"], "callmonitor: keygen takes no file (see callmonitor policy --help)"),
            (["policy", "sign", "--key", "k.pem", "--kid", "k"], "callmonitor: sign needs one PAYLOAD.json, not 0 (see callmonitor policy --help)"),
            (["policy", "verify", "--keys", "k.json", "--issuer", "i", "a", "b"], "callmonitor: verify needs one document, not 2 (see callmonitor policy --help)"),
            (["policy", "verify", "--issuer", "i", "doc"], "callmonitor: --keys is needed (see callmonitor policy --help)"),
            (["policy", "keygen", "--kid", "k", "--out", "/tmp"], "callmonitor: --alg is needed (see callmonitor policy --help)"),
            (["policy", "keygen", "--alg", "RS256", "--kid", "k", "--out", "/tmp"], "callmonitor: --alg is EdDSA or ES256, not 'RS256'"),
            // A long value is cut, never echoed whole.
            (["policy", "keygen", "--alg", String(repeating: "A", count: 5000), "--kid", "k", "--out", "/tmp"], "callmonitor: --alg is EdDSA or ES256, not '\(String(repeating: "A", count: 40))…'"),
            (["policy", "keygen", "--alg", "EdDSA", "--kid", "../k", "--out", "/tmp"], "callmonitor: --kid may hold letters, digits, '-', '_' and '.' (it names the files)"),
            (["policy", "verify", "--keys", "/nonexistent/keys.json", "--issuer", "i", "doc"], "callmonitor: cannot read /nonexistent/keys.json: no such file"),
            (["policy", "explain", "--attribute", "os", "doc"], "callmonitor: --attribute needs NAME=VALUE (see callmonitor policy --help)"),
            (["policy", "verify", "--kyes", "k.json", "doc"], "callmonitor: unknown option --kyes: did you mean --keys? (see callmonitor policy --help)"),
            (["policy", "verfy"], "callmonitor: unknown policy action 'verfy': did you mean verify? (see callmonitor policy --help)"),
        ])
        func usageErrors(arguments: [String], message: String) async throws {
            let result = try await runTool(arguments)
            #expect(result.status == 2)
            #expect(result.stdout == "")
            #expect(result.stderr == message + "\n")
        }

        @Test("policy --help names every action and the exit statuses")
        func help() async throws {
            let result = try await runTool(["policy", "--help"])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("usage: callmonitor policy keygen|sign|verify|explain … [--alg EdDSA|ES256] [--kid K]"))
            for text in ["--attribute NAME=VALUE", "--allow-relaxation", "exit status: 0 for a valid document"] {
                #expect(result.stdout.contains(text), "missing: \(text)")
            }
        }
    }
}

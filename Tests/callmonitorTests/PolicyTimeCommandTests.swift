// `callmonitor policy verify` and `explain` judge time as the phones do (issue 38): `--at`,
// standard input, and the article's kill-switch walkthrough run as written, so no example in it
// can expire or fail.

import Foundation
import Testing

extension CommandLineTests {
    @Suite("callmonitor policy: time, standard input and the article's walkthrough")
    struct PolicyTimeCommandTests {
        /// A folder with an EdDSA key pair `k1` in it.
        static func keyFolder() async throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-policy-time-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let keygen = try await runTool(["policy", "keygen", "--alg", "EdDSA", "--kid", "k1", "--out", url.path])
            #expect(keygen.status == 0)
            return url
        }

        /// Signs `payload` with the folder's key and writes the document to `doc.jws`; `force` for a
        /// payload with a rule that would do nothing, which sign refuses without it.
        static func signed(_ payload: String, in dir: URL, force: Bool = false) async throws -> String {
            let file = dir.appendingPathComponent("payload.json")
            try Data(payload.utf8).write(to: file)
            let signed = try await runTool(["policy", "sign", "--key", dir.appendingPathComponent("k1.pem").path, "--kid", "k1"]
                + (force ? ["--force"] : []) + [file.path])
            #expect(signed.status == 0)
            try Data(signed.stdout.utf8).write(to: dir.appendingPathComponent("doc.jws"))
            return signed.stdout
        }

        static let window = #"{"iss":"i","ver":2,"iat":1767225600,"nbf":1767312000,"exp":1767830400,"rules":[]}"#

        @Test("--at judges the window as the phones do: notYetValid before nbf, valid inside, expired from exp, with the instants", arguments: [
            ("1767311999", 1, "signature: valid (EdDSA, kid \"k1\")\nnotYetValid: nbf 2026-01-02T00:00:00Z (1767312000) is after --at 2026-01-01T23:59:59Z (1767311999) (the phones accept it and apply it from nbf; --at 1767312000 judges it then)\n"),
            ("2026-01-02T00:00:00Z", 0, "signature: valid (EdDSA, kid \"k1\")\nvalid ver 2 iat 1767225600 nbf 1767312000 exp 1767830400\n"),
            ("2026-01-08T00:59:59.5+01:00", 0, "signature: valid (EdDSA, kid \"k1\")\nvalid ver 2 iat 1767225600 nbf 1767312000 exp 1767830400\n"),
            ("1767830400", 1, "signature: valid (EdDSA, kid \"k1\")\nrejected expired: exp 2026-01-08T00:00:00Z (1767830400) is not after --at 2026-01-08T00:00:00Z (1767830400)\n"),
            ("1767830400.25", 1, "signature: valid (EdDSA, kid \"k1\")\nrejected expired: exp 2026-01-08T00:00:00Z (1767830400) is not after --at 2026-01-08T00:00:00.250Z (1767830400.25)\n"),
        ])
        func at(instant: String, status: Int32, output: String) async throws {
            let dir = try await Self.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            _ = try await Self.signed(Self.window, in: dir)
            let result = try await runTool(["policy", "verify", "--keys", dir.appendingPathComponent("k1.jwks.json").path, "--issuer", "i",
                                            "--at", instant, dir.appendingPathComponent("doc.jws").path])
            #expect(result.stdout == output)
            #expect(result.status == status)
            #expect(result.stderr == "")
        }

        @Test("Without --at the instant is now: a document whose exp has passed is expired (the kill switch of 2026-01-08)")
        func nowByDefault() async throws {
            let dir = try await Self.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            _ = try await Self.signed(Self.window, in: dir)
            for device in [["verify"], ["explain", "--attribute", "os=iOS"]] {
                let result = try await runTool(["policy"] + device + ["--keys", dir.appendingPathComponent("k1.jwks.json").path, "--issuer", "i",
                                                                     dir.appendingPathComponent("doc.jws").path])
                #expect(result.status == 1)
                #expect(result.stdout.hasPrefix("signature: valid (EdDSA, kid \"k1\")\nrejected expired: exp 2026-01-08T00:00:00Z (1767830400) is not after --at "))
            }
        }

        @Test("explain at an instant inside the window names the rule; before it, notYetValid")
        func explainAt() async throws {
            let dir = try await Self.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            _ = try await Self.signed(#"{"iss":"i","ver":2,"iat":1767225600,"nbf":1767312000,"exp":1767830400,"rules":[{"when":{"os":"iOS"},"policy":{"detection":true}}]}"#, in: dir)
            let arguments = ["policy", "explain", "--keys", dir.appendingPathComponent("k1.jwks.json").path, "--issuer", "i", "--attribute", "os=iOS"]
            let inside = try await runTool(arguments + ["--at", "1767312000", dir.appendingPathComponent("doc.jws").path])
            #expect(inside.status == 0)
            #expect(inside.stdout == """
                signature: valid (EdDSA, kid "k1")
                valid ver 2 iat 1767225600 nbf 1767312000 exp 1767830400
                device os=iOS
                rule 0 applies
                appWide: code
                screenCaptured: code
                detection: on
                verifierBudget: code

                """)
            let before = try await runTool(arguments + ["--at", "1767225600", dir.appendingPathComponent("doc.jws").path])
            #expect(before.status == 1)
            #expect(before.stdout.hasPrefix("signature: valid (EdDSA, kid \"k1\")\nnotYetValid: nbf 2026-01-02T00:00:00Z (1767312000) is after --at 2026-01-01T00:00:00Z (1767225600)"))
        }

        @Test("- reads the document from standard input")
        func standardInput() async throws {
            let dir = try await Self.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let document = try await Self.signed(Self.window, in: dir)
            let result = try await runTool(["policy", "verify", "--keys", dir.appendingPathComponent("k1.jwks.json").path, "--issuer", "i",
                                            "--at", "1767312000", "-"], input: document)
            #expect(result.status == 0)
            #expect(result.stdout == "signature: valid (EdDSA, kid \"k1\")\nvalid ver 2 iat 1767225600 nbf 1767312000 exp 1767830400\n")
            let empty = try await runTool(["policy", "verify", "--keys", dir.appendingPathComponent("k1.jwks.json").path, "--issuer", "i", "-"])
            #expect(empty.status == 2)
            #expect(empty.stderr == "callmonitor: standard input is empty\n")
        }

        @Test("A bad --at is a usage error that does not echo a long value", arguments: [
            ("yesterday", "callmonitor: --at is an ISO 8601 date-time (2026-01-08T00:00:00Z) or NumericDate seconds, not 'yesterday'\n"),
            ("2026-01-08", "callmonitor: --at is an ISO 8601 date-time (2026-01-08T00:00:00Z) or NumericDate seconds, not '2026-01-08'\n"),
            (String(repeating: "9x", count: 500), "callmonitor: --at is an ISO 8601 date-time (2026-01-08T00:00:00Z) or NumericDate seconds, not '\(String(repeating: "9x", count: 20))…'\n"),
        ])
        func badInstant(value: String, message: String) async throws {
            let result = try await runTool(["policy", "verify", "--keys", "/nonexistent", "--issuer", "i", "--at", value, "doc"])
            #expect(result.status == 2)
            #expect(result.stderr == message)
        }

        /// The article that holds the walkthrough.
        static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/hnb/hnb.docc/ChangingThePolicyRemotely.md")

        /// The fenced blocks of one section of the article, in order, with their language.
        static func blocks(of section: String) throws -> [(language: String, text: String)] {
            let text = try String(contentsOf: article, encoding: .utf8)
            let start = try #require(text.range(of: "\n## \(section)")).upperBound
            let body = text[start...].components(separatedBy: "\n## ").first ?? ""
            var blocks: [(String, String)] = []
            var current: (String, [String])?
            for line in body.components(separatedBy: "\n") {
                if line.hasPrefix("```") {
                    if let open = current {
                        blocks.append((open.0, open.1.joined(separator: "\n")))
                        current = nil
                    } else {
                        current = (String(line.dropFirst(3)), [])
                    }
                } else if current != nil {
                    current?.1.append(line)
                }
            }
            return blocks
        }

        /// Dates and NumericDates read alike, so the article's example output matches any day's.
        static func undated(_ text: String) -> String {
            text.replacingOccurrences(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, with: "DATE", options: .regularExpression)
                .replacingOccurrences(of: #"\b\d{10}\b"#, with: "N", options: .regularExpression)
        }

        @Test("The article's kill-switch walkthrough runs as written today: each command's output is the text under it, the document in force now and expired after its week")
        func articleWalkthrough() async throws {
            let blocks = try Self.blocks(of: "A worked kill switch for one iOS version")
            // Each shell block is followed by the output it prints.
            try #require(blocks.count == 6)
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-article-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            var script = "export PATH='\(toolURL.deletingLastPathComponent().path)':\"$PATH\"\ncd '\(dir.path)'\n"
            var expected: [(output: String, status: Int32)] = []
            for pair in stride(from: 0, to: blocks.count, by: 2) {
                #expect(blocks[pair].language == "sh")
                #expect(blocks[pair + 1].language == "text")
                script += "echo '@@block'\n\(blocks[pair].text)\necho \"@@status $?\"\n"
                let output = blocks[pair + 1].text
                // The signature line comes first; the content's verdict decides the status.
                let refused = output.components(separatedBy: "\n").contains { $0.hasPrefix("rejected") || $0.hasPrefix("notYetValid") }
                expected.append((Self.undated(output) + "\n", refused ? 1 : 0))
            }
            let run = try await runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script])
            #expect(run.stderr == "")
            let parts = run.stdout.components(separatedBy: "@@block\n").dropFirst()
            try #require(parts.count == expected.count)
            for (part, want) in zip(parts, expected) {
                let status = try #require(part.range(of: "@@status ", options: .backwards))
                #expect(Self.undated(String(part[..<status.lowerBound])) == want.output)
                #expect(part[status.upperBound...] == "\(want.status)\n")
            }
        }
    }
}

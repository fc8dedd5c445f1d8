// `callmonitor policy keygen` never loses a key (issue 38): the key pinned in every shipped app is
// the only way to send a kill switch, so a repeated keygen refuses, and --force replaces only
// after a dated backup; the private key is written 0600.

import Foundation
import Testing

extension CommandLineTests {
    @Suite("callmonitor policy keygen: never over a key")
    struct PolicyKeygenCommandTests {
        func folder() throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-keygen-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        func mode(_ path: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        }

        @Test("keygen over an existing key exits 2 and leaves both files byte-identical", arguments: ["k1.pem", "k1.jwks.json"])
        func refuses(existing: String) async throws {
            let dir = try folder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let first = try await runTool(["policy", "keygen", "--alg", "EdDSA", "--kid", "k1", "--out", dir.path])
            #expect(first.status == 0)
            let pem = try Data(contentsOf: dir.appendingPathComponent("k1.pem"))
            let jwks = try Data(contentsOf: dir.appendingPathComponent("k1.jwks.json"))
            // Either file alone is enough to refuse: the other one is dropped first.
            let other = existing == "k1.pem" ? "k1.jwks.json" : "k1.pem"
            try FileManager.default.removeItem(at: dir.appendingPathComponent(other))
            let again = try await runTool(["policy", "keygen", "--alg", "ES256", "--kid", "k1", "--out", dir.path])
            #expect(again.status == 2)
            #expect(again.stdout == "")
            #expect(again.stderr == "callmonitor: \(dir.path)/\(existing) exists: keygen never replaces a key the apps may pin (--force replaces it after a dated backup)\n")
            #expect(try Data(contentsOf: dir.appendingPathComponent(existing)) == (existing == "k1.pem" ? pem : jwks))
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(other).path))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [existing])
        }

        @Test("--force writes the old key and key set to dated backups (0600) first, then replaces both; the new PEM is 0600")
        func force() async throws {
            let dir = try folder()
            defer { try? FileManager.default.removeItem(at: dir) }
            _ = try await runTool(["policy", "keygen", "--alg", "EdDSA", "--kid", "k1", "--out", dir.path])
            let pem = try Data(contentsOf: dir.appendingPathComponent("k1.pem"))
            let jwks = try Data(contentsOf: dir.appendingPathComponent("k1.jwks.json"))
            let forced = try await runTool(["policy", "keygen", "--alg", "EdDSA", "--kid", "k1", "--out", dir.path, "--force"])
            #expect(forced.status == 0)
            let lines = forced.stdout.split(separator: "\n").map(String.init)
            try #require(lines.count == 4)
            let backups = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".bak") }.sorted()
            try #require(backups.count == 2)
            #expect(lines == ["backup \(dir.path)/\(backups[1])", "backup \(dir.path)/\(backups[0])",
                              "private key \(dir.path)/k1.pem", "public key set \(dir.path)/k1.jwks.json"])
            // k1.jwks.json.20261203T150400Z.bak, k1.pem.20261203T150400Z.bak
            #expect(backups[0].range(of: #"^k1\.jwks\.json\.\d{8}T\d{6}Z\.bak$"#, options: .regularExpression) != nil)
            #expect(backups[1].range(of: #"^k1\.pem\.\d{8}T\d{6}Z\.bak$"#, options: .regularExpression) != nil)
            #expect(try Data(contentsOf: dir.appendingPathComponent(backups[1])) == pem)
            #expect(try Data(contentsOf: dir.appendingPathComponent(backups[0])) == jwks)
            #expect(try mode(dir.appendingPathComponent(backups[1]).path) == 0o600)
            #expect(try Data(contentsOf: dir.appendingPathComponent("k1.pem")) != pem)
            #expect(try Data(contentsOf: dir.appendingPathComponent("k1.jwks.json")) != jwks)
            #expect(try mode(dir.appendingPathComponent("k1.pem").path) == 0o600)
            // No temporary file is left behind.
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).count == 4)
        }

        @Test("The PEM is 0600 even with the umask 000")
        func pemMode() async throws {
            let dir = try folder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let tool = toolURL.path
            let run = try await runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "umask 000 && '\(tool)' policy keygen --alg ES256 --kid k2 --out '\(dir.path)'"])
            #expect(run.status == 0)
            #expect(try mode(dir.appendingPathComponent("k2.pem").path) == 0o600)
        }
    }
}

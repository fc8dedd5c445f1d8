// Bad input for every file argument of `callmonitor policy` (issue 38): missing, empty, binary,
// 10 MB, a directory, a byte-order mark, CRLF. One clear line, exit 2 for what cannot be read and
// 1 for a document the phones refuse; never a crash, never the input echoed back.

import Foundation
import Testing

extension CommandLineTests {
    @Suite("callmonitor policy: bad files")
    struct PolicyBadInputTests {
        enum Kind: String, CaseIterable, Sendable { case missing, empty, binary, huge, directory, bom, crlf }

        /// Writes the bad file of `kind` at `url` from a good `content`.
        static func make(_ kind: Kind, at url: URL, content: String) throws {
            switch kind {
            case .missing: break
            case .empty: try Data().write(to: url)
            case .binary: try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }).write(to: url)
            case .huge: try Data(repeating: 0x41, count: 10 << 20).write(to: url)
            case .directory: try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            case .bom: try Data([0xEF, 0xBB, 0xBF] + Array(content.utf8)).write(to: url)
            case .crlf: try Data((content + "\r\n").utf8).write(to: url)
            }
        }

        @Test("verify's document: each bad file gives one line and its status", arguments: Kind.allCases)
        func document(kind: Kind) async throws {
            let dir = try await PolicyTimeCommandTests.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let good = try await PolicyTimeCommandTests.signed(PolicyTimeCommandTests.window, in: dir)
            let bad = dir.appendingPathComponent("bad.jws")
            try Self.make(kind, at: bad, content: good.trimmingCharacters(in: .newlines))
            let result = try await runTool(["policy", "verify", "--keys", dir.appendingPathComponent("k1.jwks.json").path, "--issuer", "i",
                                            "--at", "1767312000", bad.path])
            let expected: (Int32, String, String) = switch kind {
            case .missing: (2, "", "callmonitor: cannot read \(bad.path): no such file\n")
            case .empty: (2, "", "callmonitor: \(bad.path) is empty\n")
            case .binary: (1, "signature: not checked (malformed)\nrejected malformed: expected three non-empty base64url parts joined by '.' (a JWS compact serialization), got 17 parts\n", "")
            case .huge: (1, "signature: not checked (tooLarge)\nrejected tooLarge: the document is longer than 64 KiB\n", "")
            case .directory: (2, "", "callmonitor: cannot read \(bad.path): it is a directory\n")
            case .bom: (1, "signature: not checked (malformed)\nrejected malformed: the document starts with a byte-order mark: expected the compact JWS alone\n", "")
            case .crlf: (0, "signature: valid (EdDSA, kid \"k1\")\nvalid ver 2 iat 1767225600 nbf 1767312000 exp 1767830400\n", "")
            }
            #expect(result.status == expected.0)
            #expect(result.stdout == expected.1)
            #expect(result.stderr == expected.2)
        }

        @Test("verify's key set, sign's payload and sign's PEM: each bad file is one line on stderr, exit 2", arguments: Kind.allCases)
        func otherFiles(kind: Kind) async throws {
            let dir = try await PolicyTimeCommandTests.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            _ = try await PolicyTimeCommandTests.signed(PolicyTimeCommandTests.window, in: dir)
            let jwks = try String(contentsOf: dir.appendingPathComponent("k1.jwks.json"), encoding: .utf8)
            let pem = try String(contentsOf: dir.appendingPathComponent("k1.pem"), encoding: .utf8)
            let bad = dir.appendingPathComponent("bad")
            // The key set.
            try Self.make(kind, at: bad, content: jwks)
            let verify = try await runTool(["policy", "verify", "--keys", bad.path, "--issuer", "i", "--at", "1767312000", dir.appendingPathComponent("doc.jws").path])
            let keysMessage: String? = switch kind {
            case .missing: "cannot read \(bad.path): no such file"
            case .empty: "\(bad.path) is empty"
            case .binary, .bom: "\(bad.path): the key set is not JSON"
            case .huge: "\(bad.path): the key set is longer than 64 KiB"
            case .directory: "cannot read \(bad.path): it is a directory"
            case .crlf: nil
            }
            if let keysMessage {
                #expect(verify.status == 2)
                #expect(verify.stderr == "callmonitor: \(keysMessage)\n")
            } else {
                #expect(verify.status == 0)
            }
            try? FileManager.default.removeItem(at: bad)
            // The payload.
            try Self.make(kind, at: bad, content: PolicyTimeCommandTests.window)
            let sign = try await runTool(["policy", "sign", "--key", dir.appendingPathComponent("k1.pem").path, "--kid", "k1", bad.path])
            let payloadMessage: String? = switch kind {
            case .missing: "cannot read \(bad.path): no such file"
            case .empty: "\(bad.path) is empty"
            case .huge: "\(bad.path) is longer than 64 KiB: no phone reads a document that long"
            case .directory: "cannot read \(bad.path): it is a directory"
            case .binary, .bom, .crlf: nil
            }
            if let payloadMessage {
                #expect(sign.status == 2)
                #expect(sign.stdout == "")
                #expect(sign.stderr == "callmonitor: \(payloadMessage)\n")
            } else if kind == .crlf {
                // The file's last line break is not part of the payload.
                #expect(sign.status == 0)
            }
            // A binary or BOM payload is no JSON the phones read: refused, not signed.
            if kind == .binary || kind == .bom {
                #expect(sign.status == 1)
                #expect(sign.stdout == "")
                #expect(sign.stderr == "callmonitor: \(bad.path): the phones would refuse it (malformed): payload: expected JSON (RFC 8259), stopped at byte 0\n")
            }
            try? FileManager.default.removeItem(at: bad)
            // The private key.
            try Self.make(kind, at: bad, content: pem)
            let keyed = try await runTool(["policy", "sign", "--key", bad.path, "--kid", "k1", dir.appendingPathComponent("payload.json").path])
            let pemMessage: String? = switch kind {
            case .missing: "cannot read \(bad.path): no such file"
            case .empty: "\(bad.path) is empty"
            case .binary, .huge, .bom: "\(bad.path) is not a PRIVATE KEY PEM"
            case .directory: "cannot read \(bad.path): it is a directory"
            case .crlf: nil
            }
            if let pemMessage {
                #expect(keyed.status == 2)
                #expect(keyed.stderr == "callmonitor: \(pemMessage)\n")
            } else {
                #expect(keyed.status == 0)
            }
            // Nothing is ever echoed: no output is longer than a line or two.
            for result in [verify, sign, keyed] { #expect(result.stderr.count < 300) }
        }
    }
}

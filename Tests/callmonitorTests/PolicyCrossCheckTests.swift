// One judgement, three places (issue 38): documents signed by an independent implementation (the
// article's Python snippet, with the `cryptography` package .ci/run installs) go, byte for byte,
// to `callmonitor policy verify`, to the library (`CallMonitor.applyPolicy(document:)` on a
// monitor built from the test doubles, its wall clock set to the instant judged) and to the
// simulator (`callmonitor simulate`, a scenario that applies the document). The three must name
// the same reason; the library and the simulator carry one detail, and the tool prints it word for
// word where it has nothing of its own to add (it words the instant as `--at`, and relaxation per
// build). The manifest the tool judges relaxation with is written by the library itself
// (`policyManifest(appVersion:)`) from the monitor of the cross-check, so a relaxation check that
// drifted in the engine, the facade or the tool shows here. The RFC 8037 A.4 and RFC 7515 A.3
// vectors (Scenarios/policy), genuine and corrupted, go through the same three places.

import Foundation
import Testing
import hnb
@testable import hnbPolicy
import hnbTesting

extension CommandLineTests {
    @Suite("callmonitor policy: the tool, the library and the simulator agree (Python-signed documents, the RFC vectors)")
    struct PolicyCrossCheckTests {
        /// One document: what Python signs, how it is damaged, and when it is judged.
        struct Case: Sendable, CustomStringConvertible {
            let name: String
            let payload: String
            var alg = ""
            var typ = "hnb-policy+jwt"
            /// A signature byte changed after signing.
            var corrupt = false
            /// The instant judged: `--at`, the library's wall clock, the scenario's `clock`.
            var at = "2026-01-02T00:00:00Z"
            var description: String { name }
        }

        static let window = #"{"iss":"i","ver":2,"iat":1767225600,"nbf":1767312000,"exp":1767830400,"rules":[]}"#
        /// A longer terminate countdown on the screen the app's code guards with 5 seconds.
        static let longer = #"{"iss":"i","ver":2,"iat":1767225600,"exp":4102444800,"rules":[{"policy":{"screens":{"transfer":{"flow":"terminate","seconds":3600}}}}]}"#

        static let cases: [Case] = [
            Case(name: "valid", payload: window),
            Case(name: "ed25519", payload: window, alg: "Ed25519", typ: "application/hnb-policy+jwt"),
            Case(name: "expired", payload: window, at: "2026-01-08T00:00:00Z"),
            Case(name: "notyet", payload: window, at: "2026-01-01T23:59:59Z"),
            Case(name: "relaxing", payload: longer),
            Case(name: "jwt", payload: window, typ: "JWT"),
            Case(name: "corrupted", payload: window, corrupt: true),
        ]

        /// A folder with the EdDSA key pair `k1` and, for each case, `NAME.jws` as the article's
        /// snippet signed it (one Python process for all).
        static func signedFolder() async throws -> URL {
            let check = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import cryptography"])
            try #require(check.status == 0, "python3 with the cryptography package is needed (pip install cryptography; .ci/run installs it)")
            let dir = try await PolicyTimeCommandTests.keyFolder()
            let blocks = try PolicyTimeCommandTests.blocks(of: "Signing from your own service").filter { $0.language == "python" }
            try #require(blocks.count == 1)
            try Data(blocks[0].text.utf8).write(to: dir.appendingPathComponent("sign_policy.py"))
            // One set for all three places: an RSA key, `k1`, an Ed448 key (RFC 7517 §5: the
            // phones ignore the other two).
            let k1 = try String(contentsOf: dir.appendingPathComponent("k1.jwks.json"), encoding: .utf8).dropFirst(9).dropLast(3)
            let set = #"{"keys":[{"kty":"RSA","kid":"r1","n":"AQAB","e":"AQAB"},"# + k1 + #",{"kty":"OKP","crv":"Ed448","kid":"e1","x":"AA"}]}"#
            try Data(set.utf8).write(to: dir.appendingPathComponent("set.json"))
            let jobs = cases.map { ["name": $0.name, "payload": $0.payload, "alg": $0.alg, "typ": $0.typ] }
            try JSONSerialization.data(withJSONObject: jobs).write(to: dir.appendingPathComponent("jobs.json"))
            // The snippet's own function, imported: its `__main__` part is what the interop test runs.
            let driver = """
                import json, os, sys
                sys.path.insert(0, sys.argv[1])
                from sign_policy import sign_policy
                pem = open(os.path.join(sys.argv[1], "k1.pem"), "rb").read()
                for job in json.load(open(os.path.join(sys.argv[1], "jobs.json"))):
                    with open(os.path.join(sys.argv[1], job["name"] + ".jws"), "w") as out:
                        out.write(sign_policy(pem, "k1", job["payload"].encode(), job["alg"], job["typ"]))
                """
            let signed = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", driver, dir.path])
            #expect(signed.status == 0)
            #expect(signed.stderr == "")
            for item in cases where item.corrupt {
                let file = dir.appendingPathComponent("\(item.name).jws")
                var bytes = Array(try Data(contentsOf: file))
                // The signature's first character: a change there always changes a decoded byte.
                let first = try #require(bytes.lastIndex(of: UInt8(ascii: ".")).map { $0 + 1 })
                bytes[first] = bytes[first] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
                try Data(bytes).write(to: file)
            }
            return dir
        }

        /// The library's answer: a monitor of the doubles, configured as the app of the manifest
        /// (terminate 10 app-wide, the screen `transfer` terminate 5, keys `k1` of issuer `i`), its
        /// wall clock at `instant`; with it, the manifest it writes.
        @MainActor
        static func library(_ document: Data, jwks: Data, relax: Bool, at instant: Date) throws -> (result: CallMonitor.PolicyResult, manifest: Data) {
            let monitor = CallMonitor(callSource: SimulatedCallSource(), appState: SimulatedAppState(), scheduler: ManualScheduler(),
                                      alertRenderer: SimulatedAlertRenderer(), terminator: SimulatedTerminator(), wallClock: { instant })
            try monitor.setPolicyKeys(jwks: jwks, issuer: "i", allowsRelaxation: relax, store: nil, crypto: PolicyCrypto.platform)
            monitor.startMonitoring(withTerminateIn: 10)
            let transfer = monitor.protect(named: "transfer", withTerminateIn: 5)
            defer { transfer.end() }
            let manifest = monitor.policyManifest(appVersion: "2.4")
            return (monitor.applyPolicy(document: document), manifest)
        }

        /// The simulator's `policy` line for the same configuration and document.
        static func simulated(_ name: String, in dir: URL, relax: Bool, at instant: String) async throws -> String {
            let scenario = dir.appendingPathComponent("\(name).scenario")
            try Data("""
                0 keys set.json i\(relax ? " relax" : "")
                0 start terminate 10
                0 protect transfer terminate 5
                0 clock \(instant)
                0 policy \(name).jws

                """.utf8).write(to: scenario)
            let result = try await runTool(["simulate", scenario.path])
            #expect(result.status == 0)
            #expect(result.stderr == "")
            let lines = result.stdout.split(separator: "\n").filter { $0.contains(#""kind":"policy""#) }
            try #require(lines.count == 1, "\(result.stdout)")
            return String(lines[0])
        }

        static let signature = #"signature: valid (EdDSA, kid "k1")"#
        /// What `verify` says last of the set's two keys the phones do not use.
        static let ignored = """
            ignored key "r1" (RSA): not a type the phones verify with (OKP/Ed25519, EC/P-256)
            ignored key "e1" (OKP/Ed448): not a type the phones verify with (OKP/Ed25519, EC/P-256)

            """
        static let inWindow = "valid ver 2 iat 1767225600 nbf 1767312000 exp 1767830400"
        static let longerReport = """
            valid ver 2 iat 1767225600 exp 4102444800
            rule 0: when always
              appWide: code
              screen transfer: terminate 3600
              screenCaptured: code
              detection: code
              verifierBudget: code
            """
        static let weaker = "rules[0].policy.screens.transfer: terminate 3600 s is weaker than the code's terminate 5 s, and the app does not allow relaxation (setPolicyKeys allowsRelaxation)"
        static let wrongType = #"header typ: expected "hnb-policy+jwt" (or application/hnb-policy+jwt), got "JWT""#
        static let badSignature = #"signature: does not verify with key "k1" (EdDSA)"#

        /// What each place says, case by case: the tool's standard output with the library's
        /// manifest (`MANIFEST` stands for its path) and its exit status, `applyPolicy`'s answer,
        /// the simulator's `policy` line. The reasons are one; where the tool words the instant
        /// (`--at`) or the build (`manifest …`) its detail is its own, and the library's and the
        /// simulator's are one text.
        static let expected: [String: (stdout: String, status: Int32, library: CallMonitor.PolicyResult, simulator: String)] = [
            "valid": ("\(signature)\n\(inWindow)\nmanifest MANIFEST (appVersion 2.4): applied\n", 0, .applied(version: 2),
                      #"{"t":0,"kind":"policy","result":"applied","version":2,"reason":null,"detail":null}"#),
            "ed25519": ("\(signature)\n\(inWindow)\nmanifest MANIFEST (appVersion 2.4): applied\n", 0, .applied(version: 2),
                        #"{"t":0,"kind":"policy","result":"applied","version":2,"reason":null,"detail":null}"#),
            "expired": ("\(signature)\nrejected expired: exp 2026-01-08T00:00:00Z (1767830400) is not after --at 2026-01-08T00:00:00Z (1767830400)\n", 1,
                        .rejected(.expired, detail: "exp: expected after the device's clock (1767830400), got 1767830400"),
                        #"{"t":0,"kind":"policy","result":"rejected","version":2,"reason":"expired","detail":"exp: expected after the device's clock (1767830400), got 1767830400"}"#),
            // The phones keep a document before its nbf and apply it from then: applied, which
            // the tool says in words beside its notYetValid.
            "notyet": ("\(signature)\nnotYetValid: nbf 2026-01-02T00:00:00Z (1767312000) is after --at 2026-01-01T23:59:59Z (1767311999) (the phones accept it and apply it from nbf; --at 1767312000 judges it then)\n",
                       1, .applied(version: 2), #"{"t":0,"kind":"policy","result":"applied","version":2,"reason":null,"detail":null}"#),
            "relaxing": ("\(signature)\n\(longerReport)\nmanifest MANIFEST (appVersion 2.4): rejected relaxationNotAllowed (this build does not allow relaxation)\n  rules[0].policy.screens.transfer: terminate 3600 weakens the app's code (screen transfer terminate 5)\n",
                         1, .rejected(.relaxationNotAllowed, detail: weaker),
                         #"{"t":0,"kind":"policy","result":"rejected","version":2,"reason":"relaxationNotAllowed","detail":"\#(weaker)"}"#),
            "jwt": ("\(signature)\nrejected wrongType: \(wrongType)\n", 1, .rejected(.wrongType, detail: wrongType),
                    #"{"t":0,"kind":"policy","result":"rejected","version":null,"reason":"wrongType","detail":"header typ: expected \"hnb-policy+jwt\" (or application/hnb-policy+jwt), got \"JWT\""}"#),
            "corrupted": (#"signature: badSignature: does not verify with key "k1" (EdDSA)"# + "\nrejected badSignature: \(badSignature)\n", 1,
                          .rejected(.badSignature, detail: badSignature),
                          #"{"t":0,"kind":"policy","result":"rejected","version":null,"reason":"badSignature","detail":"signature: does not verify with key \"k1\" (EdDSA)"}"#),
        ]

        /// The reason the tool's output names (its first `rejected`, at the top or for a build):
        /// `applied` when none (also for notYetValid, which the phones keep and apply from nbf).
        static func reason(tool stdout: String) -> String {
            guard let range = stdout.range(of: "rejected ") else { return "applied" }
            return String(stdout[range.upperBound...].prefix { $0.isLetter })
        }

        /// The reason of `applyPolicy`'s answer, `applied` for none.
        static func reason(_ result: CallMonitor.PolicyResult) -> String {
            if case .rejected(let reason, _) = result { reason.rawValue } else { "applied" }
        }

        /// The reason of a simulator `policy` line, `applied` for `null`.
        static func reason(simulator line: String) -> String {
            guard let range = line.range(of: #""reason":""#) else { return "applied" }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }

        /// Verifies a case's document at its instant, with the manifests given.
        static func verify(_ item: Case, in dir: URL, manifests: [URL]) async throws -> RunResult {
            try await runTool(["policy", "verify", "--keys", dir.appendingPathComponent("set.json").path, "--issuer", "i", "--at", item.at]
                + manifests.flatMap { ["--manifest", $0.path] } + [dir.appendingPathComponent("\(item.name).jws").path])
        }

        @Test("Each Python-signed document: verify with the library's manifest, applyPolicy on a monitor at the same instant, and the simulator give one answer")
        func crossCheck() async throws {
            let dir = try await Self.signedFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let jwks = try Data(contentsOf: dir.appendingPathComponent("set.json"))
            #expect(Set(Self.expected.keys) == Set(Self.cases.map(\.name)))
            for item in Self.cases {
                let want = try #require(Self.expected[item.name])
                let document = try Data(contentsOf: dir.appendingPathComponent("\(item.name).jws"))
                let instant = try #require(ISO8601DateFormatter().date(from: item.at))
                let (result, manifest) = try await Self.library(document, jwks: jwks, relax: false, at: instant)
                #expect(String(decoding: manifest, as: UTF8.self) == Self.strictManifest, "\(item)")
                let manifestFile = dir.appendingPathComponent("app-2.4.json")
                try manifest.write(to: manifestFile)
                let verify = try await Self.verify(item, in: dir, manifests: [manifestFile])
                let line = try await Self.simulated(item.name, in: dir, relax: false, at: item.at)
                #expect(verify.stdout == want.stdout.replacingOccurrences(of: "MANIFEST", with: manifestFile.path) + Self.ignored, "\(item)")
                #expect(verify.status == want.status, "\(item)")
                #expect(verify.stderr == "", "\(item)")
                #expect(result == want.library, "\(item)")
                #expect(line == want.simulator, "\(item)")
                // One reason in all three places, derived from what each said.
                #expect(Self.reason(tool: verify.stdout) == Self.reason(result), "\(item)")
                #expect(Self.reason(simulator: line) == Self.reason(result), "\(item)")
                // Where the tool has nothing of its own to add, its refusal is applyPolicy's answer word for word.
                if case .rejected(let reason, let detail) = result, reason == .wrongType || reason == .badSignature {
                    #expect(verify.stdout.split(separator: "\n").dropFirst().first.map(String.init) == result.description, "\(item): \(detail)")
                }
            }
        }

        static let strictManifest = #"{"allowsRelaxation":false,"appVersion":"2.4","appWide":{"flow":"terminate","seconds":10},"attributes":[],"coaching":{"high":{"response":"acknowledge","seconds":10},"medium":{"response":"acknowledge","seconds":5}},"detection":true,"issuer":"i","kids":["k1"],"schemaVersion":1,"screenCaptured":null,"screens":[{"flow":"terminate","name":"transfer","seconds":5}]}"#

        @Test("Relaxation: without a manifest the tool cannot judge it; with the library's manifests, verify, explain and sign refuse it for the build that refuses relaxation and pass it for the one that allows it, as the library and the simulator do")
        func relaxation() async throws {
            let dir = try await Self.signedFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let jwks = try Data(contentsOf: dir.appendingPathComponent("set.json"))
            let item = try #require(Self.cases.first { $0.name == "relaxing" })
            let document = try Data(contentsOf: dir.appendingPathComponent("relaxing.jws"))
            let instant = try #require(ISO8601DateFormatter().date(from: item.at))

            let bare = try await Self.verify(item, in: dir, manifests: [])
            #expect(bare.stdout == "\(Self.signature)\n\(Self.longerReport)\ncannot check relaxation without a manifest: rules[0].policy.screens.transfer (terminate 3600) may be laxer than the app's code (--manifest judges it)\n" + Self.ignored)
            #expect(bare.status == 0)
            #expect(bare.stderr == "")

            let (strict, strictManifest) = try await Self.library(document, jwks: jwks, relax: false, at: instant)
            let (relaxed, relaxedManifest) = try await Self.library(document, jwks: jwks, relax: true, at: instant)
            #expect(strict == .rejected(.relaxationNotAllowed, detail: Self.weaker))
            #expect(relaxed == .applied(version: 2))
            #expect(String(decoding: relaxedManifest, as: UTF8.self) == Self.strictManifest.replacingOccurrences(of: #""allowsRelaxation":false"#, with: #""allowsRelaxation":true"#))
            let strictFile = dir.appendingPathComponent("strict.json")
            let relaxedFile = dir.appendingPathComponent("relaxed.json")
            try strictManifest.write(to: strictFile)
            try relaxedManifest.write(to: relaxedFile)
            let both = try await Self.verify(item, in: dir, manifests: [strictFile, relaxedFile])
            #expect(both.stdout == """
                \(Self.signature)
                \(Self.longerReport)
                manifest \(strictFile.path) (appVersion 2.4): rejected relaxationNotAllowed (this build does not allow relaxation)
                  rules[0].policy.screens.transfer: terminate 3600 weakens the app's code (screen transfer terminate 5)
                manifest \(relaxedFile.path) (appVersion 2.4): applied

                """ + Self.ignored)
            #expect(both.status == 1)
            #expect(both.stderr == "")
            let onlyRelaxed = try await Self.verify(item, in: dir, manifests: [relaxedFile])
            #expect(onlyRelaxed.stdout == "\(Self.signature)\n\(Self.longerReport)\nmanifest \(relaxedFile.path) (appVersion 2.4): applied\n" + Self.ignored)
            #expect(onlyRelaxed.status == 0)

            // explain and sign judge with the same manifests; Ed25519 is deterministic, so what
            // sign writes for the build that allows relaxation is Python's document, byte for byte.
            let explain = try await runTool(["policy", "explain", "--keys", dir.appendingPathComponent("set.json").path, "--issuer", "i", "--at", item.at,
                                             "--attribute", "os=iOS", "--manifest", strictFile.path, "--manifest", relaxedFile.path, dir.appendingPathComponent("relaxing.jws").path])
            #expect(explain.stdout == """
                \(Self.signature)
                valid ver 2 iat 1767225600 exp 4102444800
                device os=iOS
                rule 0 applies
                appWide: code
                screen transfer: terminate 3600
                screenCaptured: code
                detection: code
                verifierBudget: code
                manifest \(strictFile.path) (appVersion 2.4): rejected relaxationNotAllowed (this build does not allow relaxation)
                  rules[0].policy.screens.transfer: terminate 3600 weakens the app's code (screen transfer terminate 5)
                manifest \(relaxedFile.path) (appVersion 2.4): applied

                """ + Self.ignored)
            #expect(explain.status == 1)
            #expect(explain.stderr == "")
            let payload = dir.appendingPathComponent("relaxing.json")
            try Data(Self.longer.utf8).write(to: payload)
            let sign = ["policy", "sign", "--key", dir.appendingPathComponent("k1.pem").path, "--kid", "k1", "--manifest"]
            let refused = try await runTool(sign + [strictFile.path, payload.path])
            #expect(refused.stdout == "")
            #expect(refused.stderr == """
                callmonitor: not signed: a build given with --manifest would refuse it
                manifest \(strictFile.path) (appVersion 2.4): rejected relaxationNotAllowed (this build does not allow relaxation)
                  rules[0].policy.screens.transfer: terminate 3600 weakens the app's code (screen transfer terminate 5)

                """)
            #expect(refused.status == 1)
            let signed = try await runTool(sign + [relaxedFile.path, payload.path])
            #expect(signed.stdout == String(decoding: document, as: UTF8.self) + "\n")
            #expect(signed.stderr == "")
            #expect(signed.status == 0)

            #expect(try await Self.simulated("relaxing", in: dir, relax: false, at: item.at)
                == #"{"t":0,"kind":"policy","result":"rejected","version":2,"reason":"relaxationNotAllowed","detail":"\#(Self.weaker)"}"#)
            #expect(try await Self.simulated("relaxing", in: dir, relax: true, at: item.at)
                == #"{"t":0,"kind":"policy","result":"applied","version":2,"reason":null,"detail":null}"#)
        }

        @Test("The RFC 8037 A.4 and RFC 7515 A.3 vectors, genuine and with one signature byte changed: verify, applyPolicy and the simulator name one reason", arguments: [
            ("rfc8037-a4", "rfc8037-a2", "EdDSA"),
            ("rfc7515-a3", "rfc7515-a3", "ES256"),
        ])
        func rfcVectors(document name: String, key: String, alg: String) async throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-cross-rfc-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let jwks = try Data(contentsOf: PolicyRFCVectorTests.folder.appendingPathComponent("\(key).jwks.json"))
            try jwks.write(to: dir.appendingPathComponent("set.json"))
            let genuine = try String(contentsOf: PolicyRFCVectorTests.folder.appendingPathComponent("\(name).jws"), encoding: .utf8)
            for (variant, text) in [("genuine", genuine), ("corrupted", try PolicyRFCVectorTests.corrupted(genuine))] {
                try Data(text.utf8).write(to: dir.appendingPathComponent("\(variant).jws"))
                let verify = try await runTool(["policy", "verify", "--keys", dir.appendingPathComponent("set.json").path, "--issuer", "joe",
                                                "--at", "2011-03-22T18:30:00Z", dir.appendingPathComponent("\(variant).jws").path])
                let instant = Date(timeIntervalSince1970: 1_300_818_600)
                let result = try await MainActor.run {
                    let monitor = CallMonitor(callSource: SimulatedCallSource(), appState: SimulatedAppState(), scheduler: ManualScheduler(),
                                              alertRenderer: SimulatedAlertRenderer(), terminator: SimulatedTerminator(), wallClock: { instant })
                    try monitor.setPolicyKeys(jwks: jwks, issuer: "joe", allowsRelaxation: false, store: nil, crypto: PolicyCrypto.platform)
                    return monitor.applyPolicy(document: Data(text.utf8))
                }
                let scenario = dir.appendingPathComponent("\(variant).scenario")
                try Data("0 keys set.json joe\n0 clock 2011-03-22T18:30:00Z\n0 policy \(variant).jws\n".utf8).write(to: scenario)
                let simulated = try await runTool(["simulate", scenario.path])
                // The header is read before the signature on the phones, so the corrupted copy is
                // wrongType there too; only the tool's signature line can say badSignature.
                let signature = variant == "genuine"
                    ? "signature: valid (\(alg), key \"\(key)\": the header names no kid, so each pinned \(alg) key was tried)"
                    : "signature: badSignature: does not verify with key \"\(key)\" (\(alg))"
                #expect(verify.stdout == signature + "\n" + PolicyRFCVectorTests.wrongType + "\n", "\(variant)")
                #expect(verify.status == 1)
                #expect(verify.stderr == "")
                #expect(result == .rejected(.wrongType, detail: #"header typ: expected "hnb-policy+jwt" (or application/hnb-policy+jwt), got none"#), "\(variant)")
                #expect(result.description == PolicyRFCVectorTests.wrongType, "\(variant): the tool's refusal is applyPolicy's answer word for word")
                #expect(simulated.stdout == #"{"t":0,"kind":"policy","result":"rejected","version":null,"reason":"wrongType","detail":"header typ: expected \"hnb-policy+jwt\" (or application/hnb-policy+jwt), got none"}"# + "\n", "\(variant)")
                #expect(simulated.status == 0)
                #expect(simulated.stderr == "")
            }
        }
    }
}

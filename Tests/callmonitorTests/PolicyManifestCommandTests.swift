// `callmonitor policy verify --manifest` and `explain --manifest` (issue 38): each app build's
// answer from its manifest (applied, refused and why, the rules and screens that do nothing
// there), relaxation the tool cannot judge without one, and a manifest file that is not one.

import Foundation
import Testing

extension CommandLineTests {
    @Suite("callmonitor policy: app manifests")
    struct PolicyManifestCommandTests {
        static let at = "1767312000"

        /// A folder with an EdDSA key pair `k1`; `doc.jws` holds a document of `rules`.
        static func folder(rules: String, force: Bool = false) async throws -> URL {
            let dir = try await PolicyTimeCommandTests.keyFolder()
            _ = try await PolicyTimeCommandTests.signed(#"{"iss":"i","ver":2,"iat":1767225600,"exp":4102444800,"rules":\#(rules)}"#, in: dir, force: force)
            return dir
        }

        /// Writes a manifest as `CallMonitor.policyManifest()` writes it and returns its path.
        static func manifest(
            _ name: String, in dir: URL, appVersion: String = "2.4", relax: Bool = false, appWide: String = "null",
            screens: String = #"[{"flow":"terminate","name":"transfer","seconds":5}]"#, attributes: String = #"["segment"]"#,
            issuer: String = #""i""#, kids: String = #"["k1"]"#
        ) throws -> String {
            let text = #"{"allowsRelaxation":\#(relax),"appVersion":"\#(appVersion)","appWide":\#(appWide),"attributes":\#(attributes),"detection":true,"issuer":\#(issuer),"kids":\#(kids),"schemaVersion":1,"screenCaptured":null,"screens":\#(screens)}"#
            let url = dir.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }

        static func verify(_ dir: URL, _ extra: [String], command: String = "verify") async throws -> RunResult {
            try await runTool(["policy", command, "--keys", dir.appendingPathComponent("k1.jwks.json").path, "--issuer", "i", "--at", at]
                + extra + [dir.appendingPathComponent("doc.jws").path])
        }

        static let longerCountdown = #"[{"policy":{"screens":{"transfer":{"flow":"terminate","seconds":3600}}}}]"#

        @Test("A longer terminate countdown: without a manifest 'cannot check relaxation', with one that does not allow it relaxationNotAllowed and which part, with one that does applied")
        func relaxation() async throws {
            let dir = try await Self.folder(rules: Self.longerCountdown)
            defer { try? FileManager.default.removeItem(at: dir) }
            let report = """
                signature: valid (EdDSA, kid "k1")
                valid ver 2 iat 1767225600 exp 4102444800
                rule 0: when always
                  appWide: code
                  screen transfer: terminate 3600
                  screenCaptured: code
                  detection: code
                  verifierBudget: code

                """
            let bare = try await Self.verify(dir, [])
            #expect(bare.stdout == report + "cannot check relaxation without a manifest: rules[0].policy.screens.transfer (terminate 3600) may be laxer than the app's code (--manifest judges it)\n")
            #expect(bare.status == 0)
            #expect(bare.stderr == "")
            let allowed = try await Self.verify(dir, ["--allow-relaxation"])
            #expect(allowed.stdout == report)
            #expect(allowed.status == 0)

            let strict = try Self.manifest("strict.json", in: dir)
            let refused = try await Self.verify(dir, ["--manifest", strict])
            #expect(refused.stdout == report + """
                manifest \(strict) (appVersion 2.4): rejected relaxationNotAllowed (this build does not allow relaxation)
                  rules[0].policy.screens.transfer: terminate 3600 weakens the app's code (screen transfer terminate 5)

                """)
            #expect(refused.status == 1)
            #expect(refused.stderr == "")

            let relaxing = try Self.manifest("relaxing.json", in: dir, relax: true)
            let applied = try await Self.verify(dir, ["--manifest", relaxing])
            #expect(applied.stdout == report + "manifest \(relaxing) (appVersion 2.4): applied\n")
            #expect(applied.status == 0)
        }

        @Test("Detection off, which any app that forbids relaxation refuses: with --manifest the report above the builds judges the content alone, so a build that allows relaxation applies it (exit 0) and one that does not refuses it below")
        func contentJudgedAloneAboveTheBuilds() async throws {
            let dir = try await Self.folder(rules: #"[{"policy":{"detection":false}}]"#)
            defer { try? FileManager.default.removeItem(at: dir) }
            let forbidding = try await Self.verify(dir, [])
            #expect(forbidding.status == 1)
            #expect(forbidding.stdout.contains("relaxationNotAllowed"))
            let content = try await Self.verify(dir, ["--allow-relaxation"])
            #expect(content.status == 0)
            #expect(!content.stdout.contains("relaxationNotAllowed"))

            let relaxing = try Self.manifest("relaxing.json", in: dir, relax: true)
            let applied = try await Self.verify(dir, ["--manifest", relaxing])
            #expect(applied.stdout == content.stdout + "manifest \(relaxing) (appVersion 2.4): applied\n")
            #expect(applied.status == 0)
            #expect(applied.stderr == "")

            let strict = try Self.manifest("strict.json", in: dir)
            let refused = try await Self.verify(dir, ["--manifest", strict])
            #expect(refused.stdout.hasPrefix(content.stdout + "manifest \(strict) (appVersion 2.4): rejected relaxationNotAllowed"))
            #expect(refused.status == 1)
        }

        @Test("Acknowledge where the code says terminate is relaxationNotAllowed; a shorter countdown is applied; without a manifest both are named as unjudged only when they could be laxer")
        func acknowledgeForTerminate() async throws {
            let dir = try await Self.folder(rules: #"[{"policy":{"appWide":{"flow":"acknowledge","seconds":30},"screens":{"transfer":{"flow":"terminate","seconds":1}}}}]"#)
            defer { try? FileManager.default.removeItem(at: dir) }
            let base = try await Self.verify(dir, ["--allow-relaxation"])
            #expect(base.status == 0)
            let bare = try await Self.verify(dir, [])
            #expect(bare.stdout == base.stdout + "cannot check relaxation without a manifest: rules[0].policy.appWide (acknowledge 30) may be laxer than the app's code (--manifest judges it)\n")
            #expect(bare.status == 0)
            let terminate = try Self.manifest("terminate.json", in: dir, appWide: #"{"flow":"terminate","seconds":10}"#)
            let refused = try await Self.verify(dir, ["--manifest", terminate])
            #expect(refused.stdout == base.stdout + """
                manifest \(terminate) (appVersion 2.4): rejected relaxationNotAllowed (this build does not allow relaxation)
                  rules[0].policy.appWide: acknowledge 30 weakens the app's code (appWide terminate 10)

                """)
            #expect(refused.status == 1)
            let acknowledge = try Self.manifest("acknowledge.json", in: dir, appWide: #"{"flow":"acknowledge","seconds":10}"#)
            let stricter = try await Self.verify(dir, ["--manifest", acknowledge])
            #expect(stricter.stdout == base.stdout + "manifest \(acknowledge) (appVersion 2.4): applied\n")
            #expect(stricter.status == 0)
        }

        @Test("Two app versions, two answers: the one that allows relaxation applies it, the other refuses; explain --manifest says the same; another issuer or an unpinned kid is that build's refusal")
        func twoVersions() async throws {
            let dir = try await Self.folder(rules: Self.longerCountdown)
            defer { try? FileManager.default.removeItem(at: dir) }
            let old = try Self.manifest("app-2.4.json", in: dir, appVersion: "2.4", relax: true)
            let new = try Self.manifest("app-2.5.json", in: dir, appVersion: "2.5", relax: false)
            let base = try await Self.verify(dir, ["--allow-relaxation"])
            let both = try await Self.verify(dir, ["--manifest", old, "--manifest", new])
            let answers = """
                manifest \(old) (appVersion 2.4): applied
                manifest \(new) (appVersion 2.5): rejected relaxationNotAllowed (this build does not allow relaxation)
                  rules[0].policy.screens.transfer: terminate 3600 weakens the app's code (screen transfer terminate 5)

                """
            #expect(both.stdout == base.stdout + answers)
            #expect(both.status == 1)
            let explainBase = try await Self.verify(dir, ["--allow-relaxation", "--attribute", "os=iOS"], command: "explain")
            let explain = try await Self.verify(dir, ["--manifest", old, "--attribute", "os=iOS", "--manifest", new], command: "explain")
            #expect(explain.stdout == explainBase.stdout + answers)
            #expect(explain.status == 1)
            let onlyOld = try await Self.verify(dir, ["--manifest", old])
            #expect(onlyOld.status == 0)

            let otherIssuer = try Self.manifest("other-issuer.json", in: dir, relax: true, issuer: #""com.other""#)
            let otherKey = try Self.manifest("other-key.json", in: dir, relax: true, kids: #"["k2"]"#)
            let noKeys = try Self.manifest("no-keys.json", in: dir, relax: true, issuer: "null", kids: "[]")
            let refusals = try await Self.verify(dir, ["--manifest", otherIssuer, "--manifest", otherKey, "--manifest", noKeys])
            #expect(refusals.stdout == base.stdout + """
                manifest \(otherIssuer) (appVersion 2.4): rejected wrongIssuer: iss: expected "com.other", got "i"
                manifest \(otherKey) (appVersion 2.4): rejected unknownKey: header kid: expected one of the pinned keys (), got "k1"
                manifest \(noKeys) (appVersion 2.4): rejected noKeys: no keys are pinned (setPolicyKeys)

                """)
            #expect(refusals.status == 1)
        }

        static let inert = #"[{"when":{"os":"ios"},"policy":{"appWide":{"flow":"terminate","seconds":1}}},{"when":{"appVersion":">=3.0"},"policy":{"detection":true}},{"when":{"attributes":{"region":["DE"]}},"policy":{"detection":true}},{"policy":{"screens":{"trasnfer":{"flow":"terminate","seconds":1}}}}]"#

        @Test("Rules that would do nothing: an os that is no platform's (with or without a manifest), an appVersion range that excludes the build, an attribute it never sets, a screen it never opens; the exit status stays 0")
        func wouldDoNothing() async throws {
            let dir = try await Self.folder(rules: Self.inert, force: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let bare = try await Self.verify(dir, [])
            #expect(bare.stdout == """
                signature: valid (EdDSA, kid "k1")
                valid ver 2 iat 1767225600 exp 4102444800
                rule 0: when os in [ios]
                  appWide: terminate 1
                  screenCaptured: code
                  detection: code
                  verifierBudget: code
                rule 1: when appVersion >=3.0
                  appWide: code
                  screenCaptured: code
                  detection: on
                  verifierBudget: code
                rule 2: when region in [DE]
                  appWide: code
                  screenCaptured: code
                  detection: on
                  verifierBudget: code
                rule 3: when always
                  appWide: code
                  screen trasnfer: terminate 1
                  screenCaptured: code
                  detection: code
                  verifierBudget: code
                rules[0] would do nothing: when.os ["ios"] names no platform (the library writes iOS, macCatalyst, visionOS, macOS, Linux, unknown)

                """)
            #expect(bare.status == 0)
            let build = try Self.manifest("app.json", in: dir)
            let judged = try await Self.verify(dir, ["--manifest", build])
            #expect(judged.stdout == bare.stdout + """
                manifest \(build) (appVersion 2.4): applied
                  rules[1] would do nothing on this build: when.appVersion >=3.0 excludes 2.4
                  rules[2] would do nothing on this build: when.attributes.region is an attribute the app never sets (it sets: segment)
                  rules[3].policy.screens.trasnfer would do nothing on this build: the app opens no screen of that name (it opens: transfer)

                """)
            #expect(judged.status == 0)
            // The build that matches every rule: nothing is said of it but applied.
            let matching = try Self.manifest("app-3.json", in: dir, appVersion: "3.1",
                                             screens: #"[{"flow":"terminate","name":"trasnfer","seconds":5}]"#, attributes: #"["region"]"#)
            let applied = try await Self.verify(dir, ["--manifest", matching])
            #expect(applied.stdout == bare.stdout + "manifest \(matching) (appVersion 3.1): applied\n")
        }

        @Test("A rule's when.attributes may name what the library itself sets on every device (os, osVersion, appVersion): not flagged as an attribute the app never sets")
        func libraryAttributesAreNotInert() async throws {
            let rules = #"[{"when":{"attributes":{"appVersion":["2.4"],"os":["iOS"],"osVersion":["26.1.0"]}},"policy":{"detection":true}}]"#
            let dir = try await Self.folder(rules: rules)
            defer { try? FileManager.default.removeItem(at: dir) }
            let bare = try await Self.verify(dir, [])
            #expect(bare.status == 0)
            #expect(!bare.stdout.contains("would do nothing"))
            // The manifest lists only the app's own attributes (segment), never the library's.
            let build = try Self.manifest("app.json", in: dir)
            let judged = try await Self.verify(dir, ["--manifest", build])
            #expect(judged.stdout == bare.stdout + "manifest \(build) (appVersion 2.4): applied\n")
            #expect(judged.status == 0)
        }

        @Test("A manifest that cannot be read is one line on stderr and exit 2, never echoed", arguments: [
            ("missing", "cannot read DIR/missing.json: no such file"),
            ("not JSON", "DIR/bad.json is not a manifest: expected JSON (a manifest written by CallMonitor.policyManifest()), stopped at byte 0"),
            ("version 2", "DIR/bad.json is not a manifest: schemaVersion: expected 1, got 2 (a manifest this version of callmonitor does not read)"),
            ("seconds", "DIR/bad.json is not a manifest: appWide.seconds: expected an integer from 0 to 2147483647, got 1.5"),
            ("missing member", "DIR/bad.json is not a manifest: kids: missing"),
        ])
        func badManifest(kind: String, message: String) async throws {
            let dir = try await Self.folder(rules: "[]")
            defer { try? FileManager.default.removeItem(at: dir) }
            let good = #"{"allowsRelaxation":false,"appVersion":null,"appWide":null,"attributes":[],"detection":true,"issuer":"i","kids":["k1"],"schemaVersion":1,"screenCaptured":null,"screens":[]}"#
            let text: String? = switch kind {
            case "missing": nil
            case "not JSON": "manifest? " + String(repeating: "secret ", count: 2000)
            case "version 2": good.replacingOccurrences(of: #""schemaVersion":1"#, with: #""schemaVersion":2,"future":true"#)
            case "seconds": good.replacingOccurrences(of: #""appWide":null"#, with: #""appWide":{"flow":"terminate","seconds":1.5}"#)
            default: good.replacingOccurrences(of: #","kids":["k1"]"#, with: "")
            }
            let path = dir.appendingPathComponent(text == nil ? "missing.json" : "bad.json").path
            if let text { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
            let result = try await Self.verify(dir, ["--manifest", path])
            #expect(result.stderr == "callmonitor: " + message.replacingOccurrences(of: "DIR", with: dir.path) + "\n")
            #expect(result.status == 2)
            #expect(result.stdout == "")
        }

        @Test("sign --manifest signs only what every build accepts: a relaxation one refuses, or a kid it does not pin, is its answer on stderr, exit 1, no document")
        func signWithManifest() async throws {
            let dir = try await PolicyTimeCommandTests.keyFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let payload = dir.appendingPathComponent("payload.json")
            try Data(#"{"iss":"i","ver":2,"iat":1767225600,"exp":4102444800,"rules":\#(Self.longerCountdown)}"#.utf8).write(to: payload)
            let sign = ["policy", "sign", "--key", dir.appendingPathComponent("k1.pem").path, "--kid", "k1"]
            let relaxing = try Self.manifest("app-2.4.json", in: dir, appVersion: "2.4", relax: true)
            let accepted = try await runTool(sign + ["--manifest", relaxing, payload.path])
            #expect(accepted.status == 0)
            #expect(accepted.stderr == "")
            #expect(accepted.stdout.split(separator: ".").count == 3)
            let strict = try Self.manifest("app-2.5.json", in: dir, appVersion: "2.5")
            let otherKey = try Self.manifest("app-2.6.json", in: dir, appVersion: "2.6", relax: true, kids: #"["k2"]"#)
            let refused = try await runTool(sign + ["--manifest", relaxing, "--manifest", strict, "--manifest", otherKey, payload.path])
            #expect(refused.stderr == """
                callmonitor: not signed: a build given with --manifest would refuse it
                manifest \(strict) (appVersion 2.5): rejected relaxationNotAllowed (this build does not allow relaxation)
                  rules[0].policy.screens.transfer: terminate 3600 weakens the app's code (screen transfer terminate 5)
                manifest \(otherKey) (appVersion 2.6): rejected unknownKey: header kid: expected one of the pinned keys (), got "k1"

                """)
            #expect(refused.status == 1)
            #expect(refused.stdout == "")
            let unreadable = try await runTool(sign + ["--manifest", dir.appendingPathComponent("none.json").path, payload.path])
            #expect(unreadable.stderr == "callmonitor: cannot read \(dir.appendingPathComponent("none.json").path): no such file\n")
            #expect(unreadable.status == 2)
        }

        @Test("--manifest with --allow-relaxation, or without a file, is a usage error")
        func usage() async throws {
            let dir = try await Self.folder(rules: "[]")
            defer { try? FileManager.default.removeItem(at: dir) }
            let build = try Self.manifest("app.json", in: dir)
            let both = try await Self.verify(dir, ["--manifest", build, "--allow-relaxation"])
            #expect(both.stderr == "callmonitor: --allow-relaxation and --manifest: each manifest says whether its build allows relaxation\n")
            #expect(both.status == 2)
            let dangling = try await runTool(["policy", "verify", "--keys", "k", "--issuer", "i", "doc", "--manifest"])
            #expect(dangling.stderr == "callmonitor: --manifest needs a FILE (see callmonitor policy --help)\n")
            #expect(dangling.status == 2)
        }
    }
}

// The app's manifest (issue 38): what `CallMonitor.policyManifest()` writes from a configured
// monitor validates against Schemas/callmonitor-manifest.v1.schema.json (checked with the outcome
// schema's checker, which refuses any keyword it does not know), is the same bytes for the same
// configuration, and reads back as it was written.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy
import hnbTesting

/// The manifest schema file, from the package root.
let manifestSchemaURL = outcomeSchemaURL.deletingLastPathComponent().appendingPathComponent("callmonitor-manifest.v1.schema.json")

@MainActor
@Suite("The app's manifest (issue 38)")
struct PolicyManifestTests {
    /// A key set of two Ed25519 keys (RFC 8037's public key under two names).
    static let jwks = Data(#"{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"2026-07","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"},{"kty":"OKP","crv":"Ed25519","kid":"2026-01","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}"#.utf8)

    static func monitor() -> CallMonitor {
        CallMonitor(ports: .simulated(calls: SimulatedCallSource(), scheduler: ManualScheduler()))
    }

    /// The configuration whose bytes are pinned below: an acknowledge app-wide policy, two
    /// protections of one name (the stricter counts), another named screen, an unnamed one
    /// (documents cannot address it), the capture escalation, detection off, two attributes and
    /// two keys with relaxation allowed.
    static func configured() throws -> (CallMonitor, [CallMonitorProtection]) {
        let monitor = monitor()
        try monitor.setPolicyKeys(jwks: jwks, issuer: "com.bank.app", allowsRelaxation: true, store: nil, crypto: PolicyCrypto.platform)
        monitor.setPolicyAttributes(["segment": "private", "region": "DE"])
        monitor.startMonitoring(withAcknowledgeIn: 10)
        let protections = [
            monitor.protect(named: "transfer", withTerminateIn: 8),
            monitor.protect(named: "transfer", withTerminateIn: 5),
            monitor.protect(named: "login", withAcknowledgeIn: 3),
            monitor.protect(withTerminateIn: 2),
        ]
        monitor.protectWhileScreenCaptured(withTerminateIn: 4)
        monitor.setCallDetectionEnabled(false)
        return (monitor, protections)
    }

    static let configuredBytes = #"{"allowsRelaxation":true,"appVersion":"4.2","appWide":{"flow":"acknowledge","seconds":10},"attributes":["region","segment"],"coaching":{"high":{"response":"acknowledge","seconds":10},"medium":{"response":"acknowledge","seconds":5}},"detection":false,"issuer":"com.bank.app","kids":["2026-01","2026-07"],"schemaVersion":1,"screenCaptured":{"flow":"terminate","seconds":4},"screens":[{"flow":"acknowledge","name":"login","seconds":3},{"flow":"terminate","name":"transfer","seconds":5}]}"#

    @Test("A configured monitor's manifest is exactly these bytes, every time: keys sorted, the strictest of a name, unnamed protections left out")
    func exactBytes() throws {
        let (monitor, protections) = try Self.configured()
        let first = monitor.policyManifest(appVersion: "4.2")
        #expect(String(decoding: first, as: UTF8.self) == Self.configuredBytes)
        #expect(monitor.policyManifest(appVersion: "4.2") == first)
        let (again, others) = try Self.configured()
        #expect(again.policyManifest(appVersion: "4.2") == first)
        for protection in protections + others { protection.end() }
    }

    @Test("The manifest follows the monitor: a protection ended leaves it, stopMonitoring removes the app-wide policy, observing writes none")
    func followsTheMonitor() throws {
        let (monitor, protections) = try Self.configured()
        protections[1].end()
        protections[2].end()
        monitor.stopMonitoring()
        monitor.stopProtectingWhileScreenCaptured()
        monitor.setCallDetectionEnabled(true)
        #expect(String(decoding: monitor.policyManifest(appVersion: "4.3"), as: UTF8.self)
            == #"{"allowsRelaxation":true,"appVersion":"4.3","appWide":null,"attributes":["region","segment"],"coaching":{"high":{"response":"acknowledge","seconds":10},"medium":{"response":"acknowledge","seconds":5}},"detection":true,"issuer":"com.bank.app","kids":["2026-01","2026-07"],"schemaVersion":1,"screenCaptured":null,"screens":[{"flow":"terminate","name":"transfer","seconds":8}]}"#)
        monitor.startMonitoring()
        #expect(String(decoding: monitor.policyManifest(appVersion: "4.3"), as: UTF8.self).contains(#""appWide":null,"#))
        for protection in protections { protection.end() }
    }

    /// Monitors configured in several ways, each with its manifest.
    static func manifests() throws -> [(String, Data)] {
        var out: [(String, Data)] = []
        let bare = monitor()
        out.append(("nothing set", bare.policyManifest()))
        let (configured, protections) = try Self.configured()
        out.append(("configured", configured.policyManifest(appVersion: "4.2")))
        let odd = monitor()
        try odd.setPolicyKeys(jwks: jwks, issuer: "https://bank.example/\"policy\"\n", allowsRelaxation: false, store: nil, crypto: PolicyCrypto.platform)
        odd.setPolicyAttributes(["os": "Android", "étage": "3"])
        odd.startMonitoring(withTerminateIn: -5)
        let quoted = odd.protect(named: "über \"x\"\t", withAcknowledgeIn: -1)
        odd.protectWhileScreenCaptured(withAcknowledgeIn: Int32.max)
        out.append(("clamped seconds, escaped names, a library attribute the app tried to set", odd.policyManifest(appVersion: "")))
        let observing = monitor()
        observing.startMonitoring()
        out.append(("observing", observing.policyManifest(appVersion: "1")))
        for protection in protections + [quoted] { protection.end() }
        return out
    }

    @Test("Every manifest validates against the schema and reads back as the same bytes")
    func validatesAndReadsBack() throws {
        let schema = try OutcomeSchema(contentsOf: manifestSchemaURL)
        for (name, data) in try Self.manifests() {
            let json = try StrictJSON.parse(Array(data))
            #expect(schema.errors(in: json) == [], "\(name)")
            let read = try PolicyManifest.parse(Array(data))
            #expect(Data(read.json.utf8) == data, "\(name)")
        }
    }

    @Test("The clamps and escapes are the monitor's: terminate at least 1, acknowledge at least 0, names and the issuer as JSON strings, os not the app's")
    func clampsAndEscapes() throws {
        let odd = try #require(try Self.manifests().first { $0.0.hasPrefix("clamped") }).1
        #expect(String(decoding: odd, as: UTF8.self)
            == #"{"allowsRelaxation":false,"appVersion":"","appWide":{"flow":"terminate","seconds":1},"attributes":["étage"],"coaching":{"high":{"response":"acknowledge","seconds":10},"medium":{"response":"acknowledge","seconds":5}},"detection":true,"issuer":"https://bank.example/\"policy\"\n","kids":["2026-01","2026-07"],"schemaVersion":1,"screenCaptured":{"flow":"acknowledge","seconds":2147483647},"screens":[{"flow":"acknowledge","name":"über \"x\"\t","seconds":0}]}"#)
    }

    @Test("The schema check can fail on a manifest: a missing member, a wrong type, an unknown member, seconds below 0")
    func schemaRefuses() throws {
        let schema = try OutcomeSchema(contentsOf: manifestSchemaURL)
        func errors(_ text: String) throws -> [String] { schema.errors(in: try StrictJSON.parse(Array(text.utf8))) }
        #expect(try errors(Self.configuredBytes.replacingOccurrences(of: #""detection":false,"#, with: "")) == ["$: missing detection"])
        #expect(try errors(Self.configuredBytes.replacingOccurrences(of: #""kids":["2026-01","2026-07"]"#, with: #""kids":"2026-01""#))
            == [#"$.kids: "2026-01" is not of type ["array"]"#])
        #expect(try errors(Self.configuredBytes.replacingOccurrences(of: #""schemaVersion":1"#, with: #""schemaVersion":1,"extra":0"#))
            == ["$: unexpected member extra"])
        #expect(try errors(Self.configuredBytes.replacingOccurrences(of: #""seconds":4"#, with: #""seconds":-4"#))
            == ["$.screenCaptured.seconds: -4.0 breaks minimum 0.0"])
    }

    @Test("The reader refuses a manifest it did not write, naming the member at fault: a screen listed twice (the later entry would hide a stricter one), an unknown member, a wrong flow, seconds past Int32")
    func readerRefuses() throws {
        func refusal(_ text: String) -> String? {
            do {
                _ = try PolicyManifest.parse(Array(text.utf8))
                return nil
            } catch let error as PolicyManifest.ReadError {
                return error.message
            } catch {
                return "not a ReadError: \(error)"
            }
        }
        #expect(refusal(Self.configuredBytes) == nil)
        let twice = Self.configuredBytes.replacingOccurrences(
            of: #"{"flow":"terminate","name":"transfer","seconds":5}"#,
            with: #"{"flow":"terminate","name":"transfer","seconds":5},{"flow":"acknowledge","name":"transfer","seconds":0}"#)
        #expect(refusal(twice) == #"screens[2].name: "transfer" is listed twice"#)
        #expect(refusal(Self.configuredBytes.replacingOccurrences(of: #""schemaVersion":1"#, with: #""schemaVersion":1,"extra":0"#))
            == "extra: not a member of a manifest (expected only allowsRelaxation, appVersion, appWide, attributes, coaching, detection, issuer, kids, schemaVersion, screenCaptured, screens)")
        #expect(refusal(Self.configuredBytes.replacingOccurrences(of: #""flow":"terminate","name":"transfer""#, with: #""flow":"close","name":"transfer""#))
            == #"screens[1].flow: expected "terminate" or "acknowledge", got "close""#)
        #expect(refusal(Self.configuredBytes.replacingOccurrences(of: #""seconds":4"#, with: #""seconds":2147483648"#))
            == "screenCaptured.seconds: expected an integer from 0 to 2147483647, got 2147483648")
    }
}

// The engine's side of the app's manifest (issue 38): a manifest sets up a fresh engine with the
// code it describes and reads back the same; the parts `relaxations(of:)` names are exactly the
// engine's verdict (a document is refused `relaxationNotAllowed` for a build when and only when a
// part weakens that build's code); and every part a build can refuse is among those the tool
// names as unjudged without a manifest (`PolicyManifest.strictest(for:)`), so "cannot check
// relaxation without a manifest" never misses one.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy

@Suite("The app's manifest and the engine's relaxation check")
struct PolicyManifestEngineTests {
    let signer = PolicyTestSigner.shared
    static let at = Date(timeIntervalSince1970: 1_767_312_000)

    /// Settings a document (or, without "off", a build's code) can have for one part.
    static let settings = [#"{"flow":"terminate","seconds":1}"#, #"{"flow":"terminate","seconds":5}"#, #"{"flow":"terminate","seconds":3600}"#,
                           #"{"flow":"acknowledge","seconds":0}"#, #"{"flow":"acknowledge","seconds":30}"#, #""off""#]

    /// One-part documents for the app-wide policy, two screens and the escalation, and both
    /// detection values.
    static let rules: [String] = {
        var rules: [String] = []
        for setting in settings {
            rules.append(#"[{"policy":{"appWide":\#(setting == #""off""# ? #""observe""# : setting)}}]"#)
            rules.append(#"[{"policy":{"screens":{"transfer":\#(setting)}}}]"#)
            rules.append(#"[{"when":{"os":"iOS"},"policy":{"screens":{"login":\#(setting)}}}]"#)
            rules.append(#"[{"policy":{"screenCaptured":\#(setting)}}]"#)
        }
        rules.append(#"[{"policy":{"detection":false}}]"#)
        rules.append(#"[{"policy":{"detection":true}},{"policy":{"appWide":{"flow":"acknowledge","seconds":3},"screens":{"transfer":{"flow":"terminate","seconds":2}}}}]"#)
        return rules
    }()

    /// Builds whose code differs part by part; none allows relaxation.
    static let builds: [PolicyManifest] = {
        func policy(_ flow: CallMonitorFlow, _ seconds: Int32) -> MonitorPolicy { MonitorPolicy(flow: flow, requestedSeconds: seconds) }
        var builds: [PolicyManifest] = []
        let codes: [MonitorPolicy?] = [nil, policy(.terminate, 1), policy(.terminate, 10), policy(.acknowledge, 3), policy(.acknowledge, 30)]
        for (index, code) in codes.enumerated() {
            var build = PolicyManifest()
            build.issuer = "com.bank.app"
            build.kids = ["ed-1", "ec-1"]
            build.appWide = code
            build.screens = code.map { ["transfer": $0] } ?? [:]
            build.screenCaptured = codes[(index + 2) % codes.count]
            build.detection = index % 2 == 0
            // Rule 35: the code's coaching policy reads back too (a manifest without it adopts the strictest).
            build.coaching = index % 2 == 0 ? CallMonitor.CoachingPolicy() : .init(medium: .off, high: .evaluate)
            builds.append(build)
        }
        return builds
    }()

    @Test("A manifest's code, set up on a fresh engine, reads back as the same manifest")
    func roundTrip() {
        for build in Self.builds {
            var engine = MonitorEngine()
            engine.adoptCode(of: build)
            var read = engine.codeManifest()
            read.issuer = build.issuer
            read.kids = build.kids
            #expect(read.json == build.json)
        }
    }

    @Test("The parts named are the engine's verdict: refused relaxationNotAllowed exactly when a part weakens the build's code")
    func partsAreTheVerdict() throws {
        var refusals = 0
        for rules in Self.rules {
            let bytes = signer.document(rules: rules)
            let document = try #require(signer.verify(bytes).value)
            for build in Self.builds {
                let verdict = PolicyDocument.judge(bytes, keys: signer.keys, crypto: PolicyTestSigner.crypto, manifest: build, at: Self.at).verdict
                let parts = document.relaxations(of: build)
                #expect((verdict == .rejected(.relaxationNotAllowed)) == !parts.isEmpty, "\(rules) against \(build.json)")
                #expect(verdict == .applied || verdict == .rejected(.relaxationNotAllowed), "\(rules)")
                if !parts.isEmpty { refusals += 1 }
                var relaxing = build
                relaxing.allowsRelaxation = true
                #expect(PolicyDocument.judge(bytes, keys: signer.keys, crypto: PolicyTestSigner.crypto, manifest: relaxing, at: Self.at).verdict == .applied)
            }
        }
        // Neither all nor none: 14 app-wide, 14 transfer, 5 login (off only: no build opens it),
        // 14 escalation, 3 detection off and 3 of the two-rule document, counted by hand.
        #expect(refusals == 53)
    }

    @Test("Every part any build refuses is named without a manifest: the strictest code is refused by each of them")
    func unjudgedCoversEveryBuild() throws {
        for rules in Self.rules {
            let document = try #require(signer.verify(signer.document(rules: rules)).value)
            let unjudged = document.relaxations(of: .strictest(for: document))
            for build in Self.builds {
                for part in document.relaxations(of: build) {
                    #expect(unjudged.contains(part), "\(part.path) of \(rules)")
                }
            }
        }
    }

    @Test("The parts of a two-rule document, in order, with their paths")
    func paths() throws {
        let document = try #require(signer.verify(signer.document(rules: #"[{"policy":{"detection":false,"screenCaptured":"off"}},{"policy":{"appWide":{"flow":"acknowledge","seconds":3},"screens":{"b":{"flow":"terminate","seconds":9},"a":{"flow":"terminate","seconds":2}}}}]"#)).value)
        var build = PolicyManifest()
        build.appWide = MonitorPolicy(flow: .terminate, requestedSeconds: 10)
        build.screens = ["a": MonitorPolicy(flow: .terminate, requestedSeconds: 3), "b": MonitorPolicy(flow: .terminate, requestedSeconds: 3)]
        #expect(document.relaxations(of: build).map(\.path) == [
            "rules[0].policy.screenCaptured", "rules[0].policy.detection", "rules[1].policy.appWide", "rules[1].policy.screens.b",
        ])
    }
}

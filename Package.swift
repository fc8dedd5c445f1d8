// swift-tools-version:6.1
// The `hnb` package: the CallMonitor library (module `hnb`, as the API reference spells it)
// and the `callmonitor` command-line tool (simulator, demo, benchmark).
// Tools version 6.1 for package traits: the `Telephony` trait (off by default) adds the Linux
// ModemManager/oFono call sources and their libdbus dependency, so a plain build needs nothing
// beyond the toolchain.
import PackageDescription

// Applied to every target so the library and its tools are held to one standard.
// Warnings are turned into errors by CI (`-Xswiftc -warnings-as-errors`), not here:
// unsafe flags would stop apps from depending on this package.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "hnb",
    defaultLocalization: "en",
    platforms: [.iOS(.v13), .macCatalyst(.v13), .macOS(.v10_15), .visionOS(.v1)],
    products: [
        .library(name: "hnb", targets: ["hnb"]),
        // Test doubles (manual scheduler, simulated sources, recorders, conformance checks) for an
        // app's tests or a DEBUG-only simulation switch; an app's release code imports only hnb.
        .library(name: "hnbTesting", targets: ["hnbTesting"]),
        // SwiftUI view modifiers (`callMonitorProtection(terminateIn:context:)`): a product of its
        // own so that a UIKit app never links SwiftUI. Where SwiftUI does not exist (Linux) only
        // its plain logic is compiled, which the tests use.
        .library(name: "hnbSwiftUI", targets: ["hnbSwiftUI"]),
        // Session recording (`startRecording(to:maxBytes:)`, `stopRecording()`): a product of its
        // own, so that an app that does not record links no file writer (issue 39). It plugs into
        // hnb's one step observer.
        .library(name: "hnbRecording", targets: ["hnbRecording"]),
        // The signed remote policy (`setPolicyKeys`, `applyPolicy(document:)`, the attributes and
        // the manifest): a product of its own, so that an app that takes no policy from its
        // server links no verifier, crypto loader, JSON reader or policy file (issue 39). It
        // hands hnb's engine an already verified document and keeps hnb's policy record.
        .library(name: "hnbPolicy", targets: ["hnbPolicy"]),
        // Apple's coaching insight (Trust Insights, iOS 27) as the monitor's coaching source
        // (`useTrustInsights(evidence:)`, issue 40): a product of its own, so that an app that does
        // not use it never links TrustInsights. Weak-linked; on other platforms only its plain
        // logic is compiled, which the tests use.
        .library(name: "hnbTrustInsights", targets: ["hnbTrustInsights"]),
        .executable(name: "callmonitor", targets: ["callmonitor"]),
    ],
    traits: [
        .trait(
            name: "Telephony",
            description: "Linux phones: ModemManager and oFono call sources over the D-Bus system bus (needs libdbus-1-dev)."
        ),
    ],
    targets: [
        // libdbus, only when the Telephony trait is enabled (Debian: libdbus-1-dev).
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(
            name: "hnb",
            dependencies: [.target(name: "CDBus", condition: .when(platforms: [.linux], traits: ["Telephony"]))],
            // The built-in dialog's translations (one Localizable.strings per language) and the
            // privacy manifest, PrivacyInfo.xcprivacy, which Xcode reads from the resource bundle.
            resources: [.process("Resources")],
            swiftSettings: strict
        ),
        .target(name: "hnbTesting", dependencies: ["hnb"], swiftSettings: strict),
        .target(name: "hnbSwiftUI", dependencies: ["hnb"], swiftSettings: strict),
        // The scenario language, read and written (issue 39): the tool parses it, the recorder
        // writes it, the tests use both. A target, not a product: SwiftPM builds it as a module of
        // its own wherever a product's target depends on it, so no `.library` is needed.
        .target(name: "ScenarioLanguage", dependencies: ["hnb"], swiftSettings: strict),
        .target(name: "hnbRecording", dependencies: ["hnb", "ScenarioLanguage"], swiftSettings: strict),
        .target(name: "hnbPolicy", dependencies: ["hnb"], swiftSettings: strict),
        .target(name: "hnbTrustInsights", dependencies: ["hnb"], swiftSettings: strict),
        .executableTarget(
            name: "callmonitor", dependencies: ["hnb", "hnbTesting", "hnbRecording", "hnbPolicy", "ScenarioLanguage"], swiftSettings: strict
        ),
        // The tool too: the random-sequence suite replays its recordings in the simulator (issue 29).
        .testTarget(name: "hnbTests", dependencies: ["hnb", "hnbTesting", "hnbSwiftUI", "hnbRecording", "hnbPolicy", "hnbTrustInsights", "ScenarioLanguage", "callmonitor"], swiftSettings: strict),
        // Issue 52: the Apple adapters (Sources/hnb/Apple) run on Linux. Behavioural stand-ins for
        // what they use of CallKit and UIKit, test-only: no product names them, so no app builds
        // them. Their modules are not called CallKit or UIKit: SwiftPM puts every module of the
        // package on every target's import path, and a module by those names would make
        // `canImport(UIKit)` true inside hnb's own Linux build.
        .target(name: "CallKitStandIn", path: "Tests/AppleStandIns/CallKitStandIn", swiftSettings: strict),
        .target(
            name: "UIKitStandIn", path: "Tests/AppleStandIns/UIKitStandIn",
            // A released iOS 17 SDK's UIKit, so the adapters' `canImport(UIKit, _version: 7059)`
            // branch is the one compiled (as on the phones).
            swiftSettings: strict + [.unsafeFlags(["-user-module-version", "7100"])]
        ),
        // The adapter files themselves (symlinks into Sources/hnb/Apple, not copies), compiled in
        // this test module against the stand-ins: `-module-alias` points their `import CallKit` /
        // `import UIKit` at the stand-ins for this module's files only, and the implicit
        // `@testable import hnb` gives them what they see inside hnb (they have no `import hnb`).
        .testTarget(
            name: "hnbAppleTests",
            dependencies: ["hnb", "hnbTesting", "CallKitStandIn", "UIKitStandIn"],
            swiftSettings: strict + [.unsafeFlags([
                "-module-alias", "CallKit=CallKitStandIn", "-module-alias", "UIKit=UIKitStandIn",
                "-Xfrontend", "-testable-import-module", "-Xfrontend", "hnb",
                // Swift Testing's overlay for UIKit (`_Testing_UIKit`, loaded when a file imports
                // both) exists only beside Apple's UIKit.
                "-Xfrontend", "-disable-cross-import-overlays",
            ])]
        ),
        .testTarget(
            name: "callmonitorTests",
            dependencies: ["callmonitor", "hnb", "hnbTesting", "hnbRecording", "hnbPolicy", "ScenarioLanguage"],
            // Scenario files are read from the source tree by path; they are not bundle resources.
            exclude: ["Scenarios"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)

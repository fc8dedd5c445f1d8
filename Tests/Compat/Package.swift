// swift-tools-version:6.0
// Compiles the Swift snippets of the API reference, as written, against `hnb` in an app built in
// Swift 6 mode and in one built in Swift 5 mode, the hnbTesting product as an app's tests use
// it, the hnbRecording product as an app that records uses it, the hnbPolicy product as an
// app that takes its policy from its server uses it, and every product together (with
// hnbTrustInsights, Apple's coaching insight). CI builds it; nothing here runs.
import PackageDescription

let package = Package(
    name: "ReferenceSnippets",
    dependencies: [.package(name: "hnb", path: "../..")],
    targets: [
        .executableTarget(
            name: "ReferenceSnippetsSwift6",
            dependencies: [.product(name: "hnb", package: "hnb")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The same main.swift (a symbolic link), compiled in Swift 5 mode.
        .executableTarget(
            name: "ReferenceSnippetsSwift5",
            dependencies: [.product(name: "hnb", package: "hnb")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The test-support product, imported as an app's tests import it.
        .executableTarget(
            name: "TestingProduct",
            dependencies: [.product(name: "hnb", package: "hnb"), .product(name: "hnbTesting", package: "hnb")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The recording product, imported as an app that records imports it (issue 39).
        .executableTarget(
            name: "RecordingProduct",
            dependencies: [.product(name: "hnb", package: "hnb"), .product(name: "hnbRecording", package: "hnb")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The signed remote policy's product, imported as an app that applies documents imports it.
        .executableTarget(
            name: "PolicyProduct",
            dependencies: [.product(name: "hnb", package: "hnb"), .product(name: "hnbPolicy", package: "hnb")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "EveryProduct",
            dependencies: [
                .product(name: "hnb", package: "hnb"), .product(name: "hnbPolicy", package: "hnb"),
                .product(name: "hnbRecording", package: "hnb"), .product(name: "hnbSwiftUI", package: "hnb"),
                .product(name: "hnbTrustInsights", package: "hnb"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)

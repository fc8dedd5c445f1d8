// Compiled only by scripts/objc-header for hnbPolicy's header, never shipped. LibCrypto.swift
// (C through pointers) and PolicyPlatformAttributes.swift (Bundle) are left out of that compile;
// these stand in for what the rest of the product uses of them. Neither declares @objc API.

/// Stands in for LibCrypto.swift's loader.
final class LibCrypto: Sendable {
    static var shared: LibCrypto? { nil }
}

extension PolicyCrypto {
    init(libCrypto: LibCrypto) { preconditionFailure("header generation only") }
}

extension PolicyAttributes {
    static var library: [String: String] { [:] }
}

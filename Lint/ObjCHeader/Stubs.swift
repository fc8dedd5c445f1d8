// Compiled only by scripts/objc-header, never shipped. The header is generated from the files
// that declare or use the Objective-C API; these stand in for what they lean on from the files
// left out (those that call C through pointers, which the Objective-C-interop front end on Linux
// cannot type-check, and Localization.swift, which needs Bundle).

extension LivePorts {
    static func make() -> CallMonitor.Ports { preconditionFailure("header generation only") }
}

extension CallMonitorStrings {
    static func localized(language: String? = nil) -> CallMonitorStrings {
        preconditionFailure("header generation only")
    }
}

/// Stands in for Localization.swift's plural rules.
public enum PluralCategory: String, Sendable { case zero, one, two, few, many, other }

/// Stands in for Localization.swift's plural rules.
public enum PluralRules {
    public static func category(of n: Int, in language: String) -> PluralCategory { .other }
}

/// Stand in for Localization.swift's language-tag helpers.
func baseCode(_ tag: String) -> String { tag }
func languageTagParts(_ tag: String) -> [Substring] { [Substring(tag)] }

import Foundation

/// Stands in for the signed policy's platform parts (LibCrypto.swift, PolicyFileStore.swift,
/// PolicyPlatformAttributes.swift), which reach C, files and Bundle.
package final class LibCrypto: Sendable {
    package static let shared: LibCrypto? = nil
}

extension PolicyCrypto {
    package init(libCrypto: LibCrypto) { preconditionFailure("header generation only") }
}

package struct PolicyFileStore: Sendable {
    package let directory: URL
    package init(directory: URL) { self.directory = directory }
    package static var defaultDirectory: URL? { nil }
    func save(_ record: MonitorEngine.PolicyRecord) {}
    func load() -> (text: [UInt8]?, highestVersion: Int64, clockMark: Double)? { nil }
}

extension PolicyAttributes {
    static var library: [String: String] { [:] }
}

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

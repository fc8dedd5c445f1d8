// The languages the tool can show the built-in dialog in: the library's 22.

import hnb

enum Languages {
    static var available: [String] { LanguageMatcher.shipped }

    /// The dialog's texts for `code` (a tag such as `de`, `pt-BR` or `no`), or nil when it names
    /// none of the shipped languages. The tool's own bundle has no translations to put first.
    static func strings(for code: String) -> CallMonitorStrings? {
        let matched = LanguageMatcher.bestMatch(preferred: [code])
        let isEnglish = code.lowercased() == "en" || code.lowercased().hasPrefix("en-") || code.lowercased().hasPrefix("en_")
        guard matched != "en" || isEnglish else { return nil }
        // The tag itself, not the matched base: its region can change the plural rule (pt-PT).
        return .localized(language: code, appBundle: nil)
    }
}

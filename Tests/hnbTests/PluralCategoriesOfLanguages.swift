// Which plural categories each language uses: what the translation tests check every shipped
// table against. Only the tests need the list (the library picks a category for a number with
// `PluralRules.category(of:in:)`), so it lives here and not in the shipped binary.

@testable import hnb

extension PluralRules {
    /// Every category `language` uses (for any number, fractions included), `other` last.
    static func categories(of language: String) -> [PluralCategory] {
        switch baseCode(language) {
        case "ru", "uk", "pl", "cs", "sk", "lt": [.one, .few, .many, .other]
        case "hr", "sr", "bs", "ro": [.one, .few, .other]
        case "fr", "pt", "es", "it": [.one, .many, .other]
        case "lv": [.zero, .one, .other]
        case "en", "de", "nl", "sv", "da", "nb", "fi", "el", "bg", "hu", "tr", "et", "ca", "gl": [.one, .other]
        default: [.other]
        }
    }
}

// Localization of the built-in dialog: choosing a language, CLDR plural forms for the 22
// languages, reading Localizable.strings tables, and the app → library → English fallback chain.

import Foundation

/// A CLDR plural category.
enum PluralCategory: String, Sendable, CaseIterable {
    /// The category names CLDR uses; each language uses some of them (see ``PluralRules``).
    case zero, one, two, few, many, other
}

/// The CLDR cardinal plural rules for whole numbers: the 22 shipped languages, Portugal's
/// Portuguese, and languages a host app may add (Lithuanian, Latvian, the Serbo-Croatian family,
/// and the languages without plural forms).
///
/// A language with no rule here gets `other` for every count: an app's plain `KEY` then serves
/// every count, which is never wrong, whereas borrowing English's `one` could pick a form that
/// does not fit.
enum PluralRules {
    /// The category of the whole number `n` (negative numbers use their magnitude) in `language`
    /// (a tag such as `ru`, `pt-PT` or `lt`; `other` for a language without a rule here).
    static func category(of n: Int, in language: String) -> PluralCategory {
        let n = n.magnitude
        let mod10 = n % 10
        let mod100 = n % 100
        if isPortugalPortuguese(language) {
            // pt-PT: "one" is exactly 1 (in Brazil 0 is "one" too).
            if n == 1 { return .one }
            return n != 0 && n % 1_000_000 == 0 ? .many : .other
        }
        switch baseCode(language) {
        case "ru", "uk":
            if mod10 == 1 && mod100 != 11 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        case "pl":
            if n == 1 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        case "hr", "sr", "bs":
            if mod10 == 1 && mod100 != 11 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .other
        case "cs", "sk":
            if n == 1 { return .one }
            if (2...4).contains(n) { return .few }
            return .other
        case "ro":
            if n == 1 { return .one }
            if n == 0 || (1...19).contains(mod100) { return .few }
            return .other
        case "fr", "pt":
            if n <= 1 { return .one }
            return n % 1_000_000 == 0 ? .many : .other
        case "es", "it":
            if n == 1 { return .one }
            return n != 0 && n % 1_000_000 == 0 ? .many : .other
        case "lt":
            // "many" is for fractions only, so whole numbers never reach it.
            if (11...19).contains(mod100) { return .other }
            if mod10 == 1 { return .one }
            if mod10 >= 2 { return .few }
            return .other
        case "lv":
            if mod10 == 0 || (11...19).contains(mod100) { return .zero }
            if mod10 == 1 && mod100 != 11 { return .one }
            return .other
        case "en", "de", "nl", "sv", "da", "nb", "fi", "el", "bg", "hu", "tr", "et", "ca", "gl":
            return n == 1 ? .one : .other
        default:
            return .other
        }
    }

    /// Whether `tag` names Portuguese as written in Portugal (`pt-PT`, `pt_PT.UTF-8`).
    static func isPortugalPortuguese(_ tag: String) -> Bool { pluralLanguage(tag) == "pt-PT" }
}

/// Picks the language of the built-in dialog.
package enum LanguageMatcher {
    /// The 22 languages shipped with the library, as `.lproj` names.
    package static let shipped = [
        "en", "de", "fr", "es", "it", "pt", "nl", "ru", "pl", "tr", "bg",
        "cs", "da", "el", "fi", "hr", "hu", "nb", "ro", "sk", "sv", "uk",
    ]

    /// The first of `preferred` that `available` has, comparing base languages (`de-AT` and
    /// `de_AT.UTF-8` match `de`; `no`, `nn` and `nb-NO` match `nb`); English when none does.
    package static func bestMatch(preferred: [String], available: [String] = shipped) -> String {
        bestMatchTag(preferred: preferred, available: available).base
    }

    /// ``bestMatch(preferred:available:)`` with the preferred tag that matched, whose region
    /// can matter for plural rules (`pt-PT`); the tag is `en` when nothing matched.
    static func bestMatchTag(preferred: [String], available: [String]) -> (base: String, tag: String) {
        let offered = Set(available.map(baseCode))
        for language in preferred {
            let base = baseCode(language)
            if offered.contains(base) { return (base, language) }
        }
        return ("en", "en")
    }

    /// The languages `bundle` has its own `Localizable` table for, as base codes: the app's
    /// side of the choice, which Apple's bundle lookup makes from the app's and the
    /// frameworks' localizations together.
    static func localizations(of bundle: Bundle) -> [String] {
        let directory = bundle.resourceURL ?? bundle.bundleURL
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { name -> String? in
            guard name.hasSuffix(".lproj"), name != "Base.lproj" else { return nil }
            let folder = directory.appendingPathComponent(name)
            let hasTable = ["Localizable.strings", "Localizable.stringsdict"].contains {
                FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
            }
            return hasTable ? baseCode(String(name.dropLast(".lproj".count))) : nil
        }
    }

    #if !canImport(Darwin)
    /// The user's preferred languages from the POSIX environment, in priority order:
    /// `LANGUAGE` (a colon-separated list), then `LC_ALL`, `LC_MESSAGES`, `LANG`. `C` and `POSIX`
    /// name no language and are skipped. Not compiled on Apple platforms, which have the system's
    /// list (and the binary is smaller without it).
    package static func preferredLanguages(environment: [String: String]) -> [String] {
        var result: [String] = []
        if let list = environment["LANGUAGE"] {
            result += list.split(separator: ":").map(String.init)
        }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name] { result.append(value) }
        }
        return result.filter { !$0.isEmpty && baseCode($0) != "c" && baseCode($0) != "posix" }
    }
    #endif

    /// The user's preferred languages on this platform: the system's list on Apple platforms, the
    /// environment elsewhere (Foundation on Linux ignores the environment here).
    static func systemPreferredLanguages() -> [String] {
        #if canImport(Darwin)
        Locale.preferredLanguages
        #else
        preferredLanguages(environment: ProcessInfo.processInfo.environment)
        #endif
    }
}

/// The parts of a language tag or POSIX locale name (`de-AT` → `de`, `AT`; `pt_PT.UTF-8` → `pt`,
/// `PT`, `UTF`, `8`), split in one place so that the binary holds one copy of the split.
func languageTagParts(_ tag: String) -> [Substring] {
    tag.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "." || $0 == "@" })
}

/// The base language of a language tag or POSIX locale name, lower-cased, with Norwegian folded
/// into Bokmål (the one Norwegian the library ships).
func baseCode(_ tag: String) -> String {
    let base = languageTagParts(tag).first.map(String.init) ?? ""
    switch base.lowercased() {
    case "no", "nn", "nb": return "nb"
    case let other: return other
    }
}

/// A `Localizable.strings` table read from a bundle for one language.
enum StringsTable {
    /// The entries of `<language>.lproj/Localizable.strings` in `bundle`, or nil when the bundle
    /// has none. Text and binary (compiled) property-list forms are both read.
    ///
    /// The file is read directly rather than through `Bundle.localizedString`, which follows the
    /// process's language instead of the chosen one and, on Linux, crashes when a `.stringsdict`
    /// holds the key.
    static func load(from bundle: Bundle, language: String) -> [String: String]? {
        let directory = bundle.resourceURL ?? bundle.bundleURL
        var candidates = [language, language == "nb" ? "no" : nil, language == "en" ? "Base" : nil].compactMap { $0 }
        // Then regional folders of the language (an app may ship only `lt-LT.lproj` or `pt-BR.lproj`).
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        for folder in folders where folder.hasSuffix(".lproj") {
            let name = String(folder.dropLast(".lproj".count))
            if baseCode(name) == language && !candidates.contains(name) { candidates.append(name) }
        }
        for name in candidates {
            let folder = directory.appendingPathComponent("\(name).lproj")
            let strings = (try? Data(contentsOf: folder.appendingPathComponent("Localizable.strings"))).flatMap(parse)
            let plurals = (try? Data(contentsOf: folder.appendingPathComponent("Localizable.stringsdict"))).flatMap(parsePlurals)
            guard strings != nil || plurals != nil else { continue }
            // As on Apple platforms, a key's plural rule in the .stringsdict wins over its .strings entry.
            return (strings ?? [:]).merging(plurals ?? [:]) { _, plural in plural }
        }
        return nil
    }

    /// The plural rules of a `.stringsdict` file (also what Xcode compiles a String Catalog's
    /// plural variations into), flattened into the table's own form: `KEY.one`, `KEY.few`, …
    /// for each category given, and `KEY` for `other`.
    ///
    /// Only the rule's variables are substituted here; the number goes in later through the same
    /// safe formatter as every other string, never through `String(format:)`.
    static func parsePlurals(_ data: Data) -> [String: String]? {
        guard let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
              let rules = plist as? [String: Any] else { return nil }
        var table: [String: String] = [:]
        for (key, value) in rules {
            guard let rule = value as? [String: Any], let format = rule["NSStringLocalizedFormatKey"] as? String else { continue }
            for category in PluralCategory.allCases {
                guard let text = substitute(format, rule: rule, category: category) else { continue }
                table[category == .other ? key : "\(key).\(category.rawValue)"] = text
            }
        }
        return table
    }

    /// `format` with each `%#@name@` replaced by that variable's form for `category`; nil when no
    /// variable has a form for this category (so the lookup falls through to `other`).
    private static func substitute(_ format: String, rule: [String: Any], category: PluralCategory) -> String? {
        var result = ""
        var found = category == .other
        var rest = Substring(format)
        while let start = rest.range(of: "%#@") {
            result += rest[..<start.lowerBound]
            let afterStart = rest[start.upperBound...]
            guard let end = afterStart.firstIndex(of: "@") else {
                result += rest[start.lowerBound...]
                rest = ""
                break
            }
            let name = String(afterStart[..<end])
            let variable = rule[name] as? [String: Any]
            if let form = variable?[category.rawValue] as? String {
                found = true
                result += form
            } else {
                result += (variable?["other"] as? String) ?? ""
            }
            rest = afterStart[afterStart.index(after: end)...]
        }
        result += rest
        return found ? result : nil
    }

    /// The string entries of a `.strings` file; non-string values are dropped.
    static func parse(_ data: Data) -> [String: String]? {
        guard let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
              let dictionary = plist as? [String: Any] else { return nil }
        return dictionary.compactMapValues { $0 as? String }
    }
}

/// Finds the library's own resource bundle without the generated `Bundle.module`, which stops
/// the process when the bundle is missing: a missing bundle must only mean English texts.
enum LibraryBundle {
    static let bundle: Bundle? = {
        let names = ["hnb_hnb.bundle", "hnb_hnb.resources"]
        var places: [URL] = [Bundle.main.resourceURL, Bundle.main.bundleURL, Bundle.main.executableURL?.deletingLastPathComponent()].compactMap { $0 }
        #if canImport(ObjectiveC)
        // In a framework the resources sit next to the framework's own code.
        places.insert(Bundle(for: BundleToken.self).bundleURL, at: 0)
        places.insert(Bundle(for: BundleToken.self).resourceURL ?? Bundle(for: BundleToken.self).bundleURL, at: 0)
        #endif
        for place in places {
            for name in names {
                let url = place.appendingPathComponent(name)
                if let bundle = Bundle(url: url), FileManager.default.fileExists(atPath: url.path) { return bundle }
            }
        }
        #if canImport(ObjectiveC)
        // Built into the framework itself (an xcframework with its resources inside).
        let own = Bundle(for: BundleToken.self)
        if own.url(forResource: "Localizable", withExtension: "strings", subdirectory: nil, localization: "en") != nil { return own }
        #endif
        return nil
    }()

    #if canImport(ObjectiveC)
    private final class BundleToken {}
    #endif
}

extension CallMonitorStrings {
    /// The library's own bundle of translations, or nil if it cannot be found (then only the
    /// app's strings and the English defaults are used).
    public static var libraryBundle: Bundle? { LibraryBundle.bundle }

    /// The built-in dialog's texts in the user's language, resolved through the fallback chain:
    /// the host app's own `Localizable.strings` first, then the library's translation, then the
    /// English default, key by key.
    ///
    /// ```swift
    /// let strings = CallMonitorStrings.localized()              // the user's language
    /// let german = CallMonitorStrings.localized(language: "de") // an explicit choice
    /// ```
    ///
    /// The language is chosen from the app's localizations and the library's together, as
    /// Apple's bundle lookup does: an app that ships its own `lt.lproj/Localizable.strings`
    /// shows Lithuanian to a Lithuanian user (its keys, English for any it lacks), though the
    /// library has no Lithuanian.
    ///
    /// - Parameters:
    ///   - language: A language tag (`de`, `pt-PT`, `nb-NO`); nil picks from the user's preferred
    ///     languages. Either way the best of the app's and the library's languages is used
    ///     (English if none).
    ///   - appBundle: The host app's bundle, checked first; nil skips it.
    ///   - libraryBundle: The library's translations; nil skips them.
    public static func localized(
        language: String? = nil,
        appBundle: Bundle? = .main,
        libraryBundle: Bundle? = CallMonitorStrings.libraryBundle
    ) -> CallMonitorStrings {
        let preferred = language.map { [$0] } ?? LanguageMatcher.systemPreferredLanguages()
        let appLanguages = appBundle.map(LanguageMatcher.localizations(of:)) ?? []
        let (chosen, tag) = LanguageMatcher.bestMatchTag(preferred: preferred, available: LanguageMatcher.shipped + appLanguages)
        var tables: [Table] = []
        for bundle in [appBundle, libraryBundle].compactMap({ $0 }) {
            if let table = StringsTable.load(from: bundle, language: chosen) {
                tables.append { key in table[key] }
            }
        }
        // Portugal's plural rule differs from Brazil's (0 is "other"), so the region is kept there.
        let rulesLanguage = chosen == "pt" && PluralRules.isPortugalPortuguese(tag) ? "pt-PT" : chosen
        return CallMonitorStrings(language: rulesLanguage, tables: tables)
    }
}

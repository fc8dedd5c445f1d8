// The built-in dialog in 22 languages: complete tables, CLDR plural forms, language matching,
// the app → library → English chain with real bundles on disk, and hostile overrides.

import Foundation
import Testing
@testable import hnb
import hnbTesting

/// The shipped translations, read from the source tree.
let resourcesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/hnb/Resources")

func shippedTable(_ language: String) throws -> [String: String] {
    let data = try Data(contentsOf: resourcesDirectory.appendingPathComponent("\(language).lproj/Localizable.strings"))
    return try #require(StringsTable.parse(data))
}

let countdownKeys: [CallMonitorStrings.Key] = [.closeCountdown, .acknowledgeCountdown]
let sampleCounts = [0, 1, 2, 3, 5, 11, 21, 22, 25, 101, 111]

@Suite("Localization", .nothingLeftScheduled)
struct LocalizationTests {
    @Test("Exactly the 22 languages of the reference are shipped")
    func shippedLanguages() throws {
        let directories = try FileManager.default.contentsOfDirectory(atPath: resourcesDirectory.path)
            .filter { $0.hasSuffix(".lproj") }.map { String($0.dropLast(6)) }
        #expect(Set(directories) == Set(LanguageMatcher.shipped))
        #expect(LanguageMatcher.shipped.count == 22)
    }

    @Test("Each language has every key, the plural forms its rules need, and nothing else", arguments: LanguageMatcher.shipped)
    func completeTable(language: String) throws {
        let table = try shippedTable(language)
        var expected = Set(CallMonitorStrings.Key.allCases.map(\.rawValue))
        for key in countdownKeys {
            for category in PluralRules.categories(of: language) where category != .other {
                expected.insert("\(key.rawValue).\(category.rawValue)")
            }
        }
        #expect(Set(table.keys) == expected)
        for (key, value) in table {
            #expect(!value.trimmingCharacters(in: .whitespaces).isEmpty, "\(language): \(key) is empty")
            let placeholders = value.components(separatedBy: "%d").count - 1
            if key.hasPrefix("call_monitor_close_countdown") || key.hasPrefix("call_monitor_acknowledge_countdown") {
                #expect(placeholders == 1, "\(language): \(key) needs exactly one %d")
                #expect(value.filter { $0 == "%" }.count == 1, "\(language): \(key) has a stray %")
            } else {
                #expect(!value.contains("%"), "\(language): \(key) must not contain %")
            }
        }
    }

    @Test("English is the reference's text, word for word")
    func englishMatchesReference() throws {
        let table = try shippedTable("en")
        for key in CallMonitorStrings.Key.allCases {
            #expect(table[key.rawValue] == key.englishDefault)
        }
        #expect(table["call_monitor_close_countdown.one"] == "App will close in %d second.")
    }

    @Test("The library's bundle is found at run time and serves every language", arguments: LanguageMatcher.shipped)
    func libraryBundleServes(language: String) throws {
        #expect(CallMonitorStrings.libraryBundle != nil)
        let strings = CallMonitorStrings.localized(language: language, appBundle: nil)
        let table = try shippedTable(language)
        #expect(strings.language == language)
        for key in CallMonitorStrings.Key.allCases where !countdownKeys.contains(key) {
            #expect(strings.text(key) == table[key.rawValue])
        }
    }

    @Test("Countdowns use the language's plural form for every sample count", arguments: LanguageMatcher.shipped)
    func pluralForms(language: String) throws {
        let table = try shippedTable(language)
        let strings = CallMonitorStrings.localized(language: language, appBundle: nil)
        for key in countdownKeys {
            for n in sampleCounts {
                let category = PluralRules.category(of: n, in: language)
                let form = try #require(category == .other ? table[key.rawValue] : table["\(key.rawValue).\(category.rawValue)"])
                #expect(strings.countdown(key, remaining: Int32(n)) == form.replacingOccurrences(of: "%d", with: String(n)))
            }
            for n in 0...3600 {
                #expect(strings.countdown(key, remaining: Int32(n)).contains(String(n)))
            }
        }
    }

    @Test("CLDR categories for the sample counts", arguments: [
        (["en", "de", "nl", "sv", "da", "nb", "fi", "el", "bg", "hu", "tr", "es", "it"],
         [PluralCategory.other, .one, .other, .other, .other, .other, .other, .other, .other, .other, .other]),
        (["fr", "pt"], [.one, .one, .other, .other, .other, .other, .other, .other, .other, .other, .other]),
        (["ru", "uk"], [.many, .one, .few, .few, .many, .many, .one, .few, .many, .one, .many]),
        (["pl"], [.many, .one, .few, .few, .many, .many, .many, .few, .many, .many, .many]),
        (["hr"], [.other, .one, .few, .few, .other, .other, .one, .few, .other, .one, .other]),
        (["cs", "sk"], [.other, .one, .few, .few, .other, .other, .other, .other, .other, .other, .other]),
        (["ro"], [.few, .one, .few, .few, .few, .few, .other, .other, .other, .few, .few]),
        // Portugal: 0 is "other" (in Brazil it is "one").
        (["pt-PT", "pt_PT.UTF-8"], [.other, .one, .other, .other, .other, .other, .other, .other, .other, .other, .other]),
        // Languages a host app may add.
        (["lt", "lt-LT"], [.other, .one, .few, .few, .few, .other, .one, .few, .few, .one, .other]),
        (["lv"], [.zero, .one, .other, .other, .other, .zero, .one, .other, .other, .one, .zero]),
        // No rule known: "other" for every count, the one form that is never wrong.
        (["ja", "xx", ""], [.other, .other, .other, .other, .other, .other, .other, .other, .other, .other, .other]),
    ])
    func cldrCategories(languages: [String], expected: [PluralCategory]) {
        for language in languages {
            #expect(sampleCounts.map { PluralRules.category(of: $0, in: language) } == expected, "\(language)")
        }
    }

    @Test("Categories a language uses: Lithuanian four, Latvian three with zero, unknown only other")
    func addedCategories() {
        #expect(PluralRules.categories(of: "lt") == [.one, .few, .many, .other])
        #expect(PluralRules.categories(of: "lv") == [.zero, .one, .other])
        #expect(PluralRules.categories(of: "ja") == [.other])
        #expect(PluralRules.categories(of: "pt-PT") == [.one, .many, .other])
        #expect(PluralRules.category(of: 2_000_000, in: "pt-PT") == .many)
    }

    @Test("The reviewer's fixes, word for word", arguments: [
        ("it", CallMonitorStrings.Key.alertMessage, "Per la Sua protezione, l’accesso all’app è disattivato durante le chiamate in corso."),
        ("nl", .alertMessageWarning, "Het gebruik van deze app tijdens een actief gesprek kan ertoe leiden dat gevoelige informatie uitlekt."),
        ("nb", .alertMessage, "Av hensyn til din sikkerhet er tilgangen til appen sperret under aktive samtaler."),
        ("fi", .alertMessage, "Turvallisuutesi vuoksi pääsy sovellukseen on estetty puhelun aikana."),
        ("fi", .buttonAcknowledge, "Kuittaa"),
        ("bg", .buttonClose, "Затворете приложението"),
        ("pt", .alertMessage, "Para sua proteção, o acesso fica desativado durante chamadas ativas."),
        ("pt-PT", .alertMessageWarning, "O uso durante uma chamada ativa pode expor informações confidenciais."),
    ])
    func reviewerFixes(language: String, key: CallMonitorStrings.Key, expected: String) {
        #expect(CallMonitorStrings.localized(language: language, appBundle: nil).text(key) == expected)
    }

    @Test("Countdowns in the reviewer's words: Italian formal, Portuguese without Você, pt-PT's 0 is plural")
    func reviewerCountdowns() {
        let italian = CallMonitorStrings.localized(language: "it", appBundle: nil)
        #expect(italian.countdown(.acknowledgeCountdown, remaining: 5) == "Potrà confermare tra 5 secondi.")
        #expect(italian.countdown(.acknowledgeCountdown, remaining: 1) == "Potrà confermare tra 1 secondo.")
        let brazil = CallMonitorStrings.localized(language: "pt-BR", appBundle: nil)
        let portugal = CallMonitorStrings.localized(language: "pt-PT", appBundle: nil)
        #expect(brazil.language == "pt")
        #expect(portugal.language == "pt-PT")
        #expect(brazil.countdown(.acknowledgeCountdown, remaining: 0) == "Poderá confirmar em 0 segundo.")
        #expect(portugal.countdown(.acknowledgeCountdown, remaining: 0) == "Poderá confirmar em 0 segundos.")
        #expect(portugal.countdown(.acknowledgeCountdown, remaining: 1) == "Poderá confirmar em 1 segundo.")
        #expect(portugal.countdown(.closeCountdown, remaining: 7) == "Encerramento em 7 segundos.")
        for language in ["pt", "pt-PT"] {
            let strings = CallMonitorStrings.localized(language: language, appBundle: nil)
            for key in CallMonitorStrings.Key.allCases {
                #expect(!strings.text(key).contains("Você") && !strings.text(key).contains("aplicativo"), "\(language) \(key)")
            }
        }
    }

    @Test("The acknowledge countdown and its button use the same verb, in all 22 languages", arguments: [
        ("en", "acknowledge"), ("de", "bestätig"), ("fr", "confirm"), ("es", "confirm"), ("it", "conferm"), ("pt", "confirm"),
        ("nl", "bevestig"), ("ru", "подтверд"), ("pl", "potwierd"), ("tr", "onayla"), ("bg", "потвърд"), ("cs", "potvrd"),
        ("da", "bekræft"), ("el", "επιβεβα"), ("fi", "kuit"), ("hr", "potvrd"), ("hu", "nyugtáz"), ("nb", "bekreft"),
        ("ro", "confirm"), ("sk", "potvrd"), ("sv", "bekräfta"), ("uk", "підтверд"),
    ])
    func oneVerb(language: String, stem: String) throws {
        let table = try shippedTable(language)
        let button = try #require(table[CallMonitorStrings.Key.buttonAcknowledge.rawValue]).lowercased()
        #expect(button.contains(stem), "\(language) button: \(button)")
        let forms = table.filter { $0.key.hasPrefix(CallMonitorStrings.Key.acknowledgeCountdown.rawValue) }
        #expect(!forms.isEmpty)
        for (key, countdown) in forms {
            #expect(countdown.lowercased().contains(stem), "\(language) \(key): \(countdown)")
        }
    }

    @Test("Millions take the many form where CLDR has one")
    func millions() {
        #expect(PluralRules.category(of: 1_000_000, in: "fr") == .many)
        #expect(PluralRules.category(of: 2_000_000, in: "es") == .many)
        #expect(PluralRules.category(of: 1_000_001, in: "it") == .other)
    }

    @Test("English defaults say 1 second, 2 seconds")
    func englishPlural() {
        #expect(CallMonitorStrings.english.countdown(.closeCountdown, remaining: 1) == "App will close in 1 second.")
        #expect(CallMonitorStrings.english.countdown(.closeCountdown, remaining: 2) == "App will close in 2 seconds.")
        #expect(CallMonitorStrings.english.countdown(.acknowledgeCountdown, remaining: 1) == "Acknowledge in 1 second.")
        #expect(CallMonitorStrings.english.countdown(.acknowledgeCountdown, remaining: 0) == "Acknowledge in 0 seconds.")
    }
}

@Suite("Language choice", .nothingLeftScheduled)
struct LanguageChoiceTests {
    @Test("Best match falls back to the base language, Norwegian to Bokmål, anything else to English", arguments: [
        (["de-AT"], "de"), (["pt-BR"], "pt"), (["nb-NO"], "nb"), (["no"], "nb"), (["nn-NO"], "nb"),
        (["de_AT.UTF-8"], "de"), (["zh-Hans"], "en"), ([], "en"), (["xx", "fr-CA", "de"], "fr"),
        (["EN-gb"], "en"), (["sr-Latn", "hr"], "hr"), (["uk-UA"], "uk"),
    ])
    func bestMatch(preferred: [String], expected: String) {
        #expect(LanguageMatcher.bestMatch(preferred: preferred) == expected)
    }

    #if !canImport(Darwin)
    @Test("On Linux the environment gives the preference: LANGUAGE, LC_ALL, LC_MESSAGES, LANG")
    func environment() {
        let env = ["LANGUAGE": "sv:de", "LC_ALL": "", "LC_MESSAGES": "C", "LANG": "fr_FR.UTF-8"]
        #expect(LanguageMatcher.preferredLanguages(environment: env) == ["sv", "de", "fr_FR.UTF-8"])
        #expect(LanguageMatcher.bestMatch(preferred: LanguageMatcher.preferredLanguages(environment: env)) == "sv")
        #expect(LanguageMatcher.preferredLanguages(environment: ["LANG": "POSIX"]) == [])
        #expect(LanguageMatcher.preferredLanguages(environment: ["LC_ALL": "pl_PL.UTF-8", "LANG": "en_US"]) == ["pl_PL.UTF-8", "en_US"])
    }
    #endif
}

/// A bundle made of real files in a temporary directory.
struct TemporaryBundle {
    let url: URL

    /// `tables` maps a language to its entries; `binary` writes compiled (binary plist) tables, as
    /// Xcode does for `.strings` files and String Catalogs.
    init(_ tables: [String: [String: String]], binary: Bool = false) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-test-\(UUID().uuidString).bundle")
        for (language, entries) in tables {
            let directory = url.appendingPathComponent("\(language).lproj")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let data: Data
            if binary {
                data = try PropertyListSerialization.data(fromPropertyList: entries, format: .binary, options: 0)
            } else {
                data = Data(entries.map { "\"\($0.key)\" = \"\($0.value.replacingOccurrences(of: "\"", with: "\\\""))\";" }.joined(separator: "\n").utf8)
            }
            try data.write(to: directory.appendingPathComponent("Localizable.strings"))
        }
    }

    var bundle: Bundle { Bundle(path: url.path)! }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

@Suite("Fallback chain", .nothingLeftScheduled)
struct FallbackChainTests {
    @Test("The app's key wins, an empty one falls through, a missing one comes from the library, then English")
    func chain() throws {
        let app = try TemporaryBundle(["de": [
            "call_monitor_alert_title": "Sicherheitshinweis",
            "call_monitor_button_close": "",
        ]])
        let library = try TemporaryBundle(["de": [
            "call_monitor_alert_title": "Library-Titel",
            "call_monitor_button_close": "Schließen (Bibliothek)",
            "call_monitor_alert_message": "Nachricht der Bibliothek",
        ]])
        defer { app.remove(); library.remove() }
        let strings = CallMonitorStrings.localized(language: "de-CH", appBundle: app.bundle, libraryBundle: library.bundle)
        #expect(strings.text(.alertTitle) == "Sicherheitshinweis")
        #expect(strings.text(.buttonClose) == "Schließen (Bibliothek)")
        #expect(strings.text(.alertMessage) == "Nachricht der Bibliothek")
        #expect(strings.text(.buttonAcknowledge) == "Acknowledge")
    }

    @Test("An app override for one language does not leak into another")
    func perLanguage() throws {
        let app = try TemporaryBundle(["en": ["call_monitor_alert_title": "Careful"]])
        defer { app.remove() }
        #expect(CallMonitorStrings.localized(language: "en", appBundle: app.bundle).text(.alertTitle) == "Careful")
        #expect(CallMonitorStrings.localized(language: "de", appBundle: app.bundle).text(.alertTitle) == "Sicherheitsrichtlinie")
    }

    @Test("A compiled (binary) table from a String Catalog is read too")
    func binaryTable() throws {
        let app = try TemporaryBundle(["fr": ["call_monitor_button_acknowledge": "D’accord"]], binary: true)
        defer { app.remove() }
        #expect(CallMonitorStrings.localized(language: "fr", appBundle: app.bundle).text(.buttonAcknowledge) == "D’accord")
    }

    @Test("An app's override wins for every count: its own plural form where given, else its plain key")
    func pluralOverride() throws {
        let app = try TemporaryBundle(["ru": [
            "call_monitor_close_countdown.one": "Осталась %d секунда",
            "call_monitor_close_countdown": "Осталось: %d",
        ]])
        defer { app.remove() }
        let strings = CallMonitorStrings.localized(language: "ru", appBundle: app.bundle)
        #expect(strings.countdown(.closeCountdown, remaining: 21) == "Осталась 21 секунда")
        #expect(strings.countdown(.closeCountdown, remaining: 5) == "Осталось: 5")
        let plainOnly = try TemporaryBundle(["ru": ["call_monitor_acknowledge_countdown": "Ждите: %d"]])
        defer { plainOnly.remove() }
        let plain = CallMonitorStrings.localized(language: "ru", appBundle: plainOnly.bundle)
        #expect(plain.countdown(.acknowledgeCountdown, remaining: 3) == "Ждите: 3")
        #expect(plain.countdown(.acknowledgeCountdown, remaining: 1) == "Ждите: 1")
        #expect(plain.countdown(.closeCountdown, remaining: 1) == "Приложение закроется через 1 секунду.")
    }

    @Test("An app's .stringsdict plural rule (a String Catalog's compiled form) wins over .strings, form by form")
    func stringsdictOverride() throws {
        let app = try TemporaryBundle(["pl": ["call_monitor_close_countdown": "plain %d"]])
        defer { app.remove() }
        let rule: [String: Any] = [
            "call_monitor_close_countdown": [
                "NSStringLocalizedFormatKey": "Zamykanie: %#@seconds@!",
                "seconds": [
                    "NSStringFormatSpecTypeKey": "NSStringPluralRuleType",
                    "NSStringFormatValueTypeKey": "d",
                    "one": "%d sekunda",
                    "few": "%d sekundy",
                    "other": "%d sekund",
                ] as [String: Any],
            ] as [String: Any],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: rule, format: .xml, options: 0)
        try data.write(to: app.url.appendingPathComponent("pl.lproj/Localizable.stringsdict"))
        let strings = CallMonitorStrings.localized(language: "pl", appBundle: app.bundle)
        #expect(strings.countdown(.closeCountdown, remaining: 1) == "Zamykanie: 1 sekunda!")
        #expect(strings.countdown(.closeCountdown, remaining: 3) == "Zamykanie: 3 sekundy!")
        // No "many" form in the rule: the rule's "other" is used, not the library's text.
        #expect(strings.countdown(.closeCountdown, remaining: 5) == "Zamykanie: 5 sekund!")
        #expect(strings.countdown(.acknowledgeCountdown, remaining: 5) == "Potwierdzenie będzie możliwe za 5 sekund.")
    }

    @Test("A .stringsdict alone, without a .strings file, is read too; a malformed rule is skipped")
    func stringsdictAlone() throws {
        let app = try TemporaryBundle([:])
        defer { app.remove() }
        let folder = app.url.appendingPathComponent("en.lproj")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let rule: [String: Any] = [
            "call_monitor_acknowledge_countdown": [
                "NSStringLocalizedFormatKey": "%#@n@ to go %#@unclosed",
                "n": ["one": "%d sec", "other": "%d secs"] as [String: Any],
            ] as [String: Any],
            "call_monitor_alert_title": "not a rule",
        ]
        try PropertyListSerialization.data(fromPropertyList: rule, format: .binary, options: 0)
            .write(to: folder.appendingPathComponent("Localizable.stringsdict"))
        let strings = CallMonitorStrings.localized(language: "en", appBundle: app.bundle)
        #expect(strings.countdown(.acknowledgeCountdown, remaining: 1) == "1 sec to go %#@unclosed")
        #expect(strings.countdown(.acknowledgeCountdown, remaining: 9) == "9 secs to go %#@unclosed")
        #expect(strings.text(.alertTitle) == "Security Policy")
    }

    @Test("Without the library bundle, texts come from the app or English")
    func noLibrary() {
        let strings = CallMonitorStrings.localized(language: "pl", appBundle: nil, libraryBundle: nil)
        #expect(strings.text(.alertTitle) == "Security Policy")
        #expect(strings.countdown(.closeCountdown, remaining: 1) == "App will close in 1 second.")
    }

    @Test("Hostile overrides are shown literally and never reach a C formatter", arguments: [
        ("%@%@%@%@ %s%s %n %x %p %", "%@%@%@%@ %s%s %n %x %p %"),
        ("Closing in %1$d… %%", "Closing in 7… %"),
        ("no number at all", "no number at all"),
        ("%d%d", "77"),
        ("%2$d %ld %lld %i", "%2$d 7 7 7"),
        ("\u{202E}%d\u{0000}", "\u{202E}7\u{0000}"),
    ])
    func hostile(template: String, expected: String) throws {
        let app = try TemporaryBundle(["en": ["call_monitor_close_countdown": template]], binary: true)
        defer { app.remove() }
        let strings = CallMonitorStrings.localized(language: "en", appBundle: app.bundle)
        #expect(strings.countdown(.closeCountdown, remaining: 7) == expected)
    }

    @Test("An app table that is not a property list is ignored")
    func brokenTable() throws {
        let app = try TemporaryBundle([:])
        defer { app.remove() }
        let directory = app.url.appendingPathComponent("de.lproj")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data([0xFF, 0xFE, 0x00, 0x22, 0x7B]).write(to: directory.appendingPathComponent("Localizable.strings"))
        #expect(CallMonitorStrings.localized(language: "de", appBundle: app.bundle).text(.alertTitle) == "Sicherheitsrichtlinie")
    }
}

@Suite("The app's own languages", .nothingLeftScheduled)
struct AppLanguageTests {
    static let lithuanian: [String: String] = [
        "call_monitor_alert_title": "Saugumo politika",
        "call_monitor_close_countdown.one": "Programa užsidarys po %d sekundės.",
        "call_monitor_close_countdown.few": "Programa užsidarys po %d sekundžių.",
        "call_monitor_close_countdown": "Programa užsidarys po %d sekundžių (kita).",
    ]

    @Test("An app's Lithuanian is chosen for a Lithuanian user, with Lithuanian plural forms and English for missing keys")
    func lithuanian() throws {
        let app = try TemporaryBundle(["lt": Self.lithuanian, "en": ["call_monitor_alert_title": "App title"]])
        defer { app.remove() }
        let strings = CallMonitorStrings.localized(language: "lt-LT", appBundle: app.bundle)
        #expect(strings.language == "lt")
        #expect(strings.text(.alertTitle) == "Saugumo politika")
        #expect(strings.text(.buttonClose) == "Close App")
        #expect(strings.countdown(.closeCountdown, remaining: 1) == "Programa užsidarys po 1 sekundės.")
        #expect(strings.countdown(.closeCountdown, remaining: 21) == "Programa užsidarys po 21 sekundės.")
        #expect(strings.countdown(.closeCountdown, remaining: 3) == "Programa užsidarys po 3 sekundžių.")
        #expect(strings.countdown(.closeCountdown, remaining: 10) == "Programa užsidarys po 10 sekundžių (kita).")
        #expect(strings.countdown(.closeCountdown, remaining: 11) == "Programa užsidarys po 11 sekundžių (kita).")
        // The key the app did not translate falls back to English, in English's singular.
        #expect(strings.countdown(.acknowledgeCountdown, remaining: 1) == "Acknowledge in 1 second.")
    }

    @Test("The choice runs over the app's and the library's languages together, in the user's order", arguments: [
        (["lt", "de"], "lt", "Saugumo politika"),
        (["de", "lt"], "de", "Sicherheitsrichtlinie"),
        (["xx", "lt"], "lt", "Saugumo politika"),
        (["xx"], "en", "App title"),
    ])
    func order(preferred: [String], language: String, title: String) throws {
        let app = try TemporaryBundle(["lt": Self.lithuanian, "en": ["call_monitor_alert_title": "App title"]])
        defer { app.remove() }
        #expect(LanguageMatcher.localizations(of: app.bundle) == ["en", "lt"])
        // An explicit tag goes through the same choice as the system's list.
        let strings = CallMonitorStrings.localized(language: preferred.count == 1 ? preferred[0] : nil, appBundle: app.bundle)
        if preferred.count == 1 {
            #expect(strings.language == language)
            #expect(strings.text(.alertTitle) == title)
        }
        let (base, _) = LanguageMatcher.bestMatchTag(preferred: preferred, available: LanguageMatcher.shipped + LanguageMatcher.localizations(of: app.bundle))
        #expect(base == language)
    }

    @Test("Without an app table in the language, the app's language is not offered; a regional folder counts")
    func regionalFolder() throws {
        let app = try TemporaryBundle(["lt-LT": Self.lithuanian])
        defer { app.remove() }
        try FileManager.default.createDirectory(at: app.url.appendingPathComponent("ja.lproj"), withIntermediateDirectories: true)
        #expect(LanguageMatcher.localizations(of: app.bundle) == ["lt"])
        #expect(CallMonitorStrings.localized(language: "lt", appBundle: app.bundle).text(.alertTitle) == "Saugumo politika")
        #expect(CallMonitorStrings.localized(language: "ja", appBundle: app.bundle).language == "en")
    }

    @Test("An app language without known plural rules uses the plain key for every count")
    func unknownRules() throws {
        let app = try TemporaryBundle(["ja": [
            "call_monitor_close_countdown.one": "一 %d",
            "call_monitor_close_countdown": "あと%d秒で閉じます。",
        ]])
        defer { app.remove() }
        let strings = CallMonitorStrings.localized(language: "ja-JP", appBundle: app.bundle)
        #expect(strings.language == "ja")
        #expect(strings.countdown(.closeCountdown, remaining: 1) == "あと1秒で閉じます。")
        #expect(strings.countdown(.closeCountdown, remaining: 5) == "あと5秒で閉じます。")
    }
}

@MainActor
@Suite("Language of a running monitor", .nothingLeftScheduled)
struct MonitorLanguageTests {
    @Test("setLanguage redraws the dialog on screen in the new language; a delegate gets numbers only")
    func setLanguageRedraws() throws {
        let h = Harness()
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        #expect(h.renderer.current?.title == "Security Policy")
        h.monitor.setLanguage("uk")
        #expect(h.renderer.current?.title == "Політика безпеки")
        #expect(h.renderer.current?.countdown == "Застосунок закриється через 5 секунд.")
        h.advance(4)
        #expect(h.renderer.current?.countdown == "Застосунок закриється через 1 секунду.")
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 5 button=Close App", "0 alert terminate 5 button=Закрити застосунок",
            "1 alert terminate 4 button=Закрити застосунок", "2 alert terminate 3 button=Закрити застосунок",
            "3 alert terminate 2 button=Закрити застосунок", "4 alert terminate 1 button=Закрити застосунок",
        ])
    }
}

@Suite("Localization: the verdict lines (rule 24)", .nothingLeftScheduled)
struct VerdictLocalizationTests {
    @Test("Each language has both verdict lines of its own: translated, different from each other, one or two sentences, no placeholder", arguments: LanguageMatcher.shipped)
    func verdictLines(language: String) throws {
        let table = try shippedTable(language)
        let notCalling = try #require(table[CallMonitorStrings.Key.verdictBankIsNotCalling.rawValue])
        let calling = try #require(table[CallMonitorStrings.Key.verdictBankIsCalling.rawValue])
        #expect(notCalling != calling)
        if language != "en" {
            #expect(notCalling != CallMonitorStrings.Key.verdictBankIsNotCalling.englishDefault, "\(language) is not translated")
            #expect(calling != CallMonitorStrings.Key.verdictBankIsCalling.englishDefault, "\(language) is not translated")
        }
        // "Not calling" says what to do too: two sentences; "calling" is one.
        #expect(notCalling.filter { $0 == "." }.count - notCalling.components(separatedBy: "dvs.").count + 1 == 2, "\(language): \(notCalling)")
        #expect(!calling.contains("%") && !notCalling.contains("%"))
        let strings = CallMonitorStrings.localized(language: language, appBundle: nil)
        #expect(SecurityAlert(flow: .terminate, remaining: 3, strings: strings, verdict: .bankIsNotCalling).verdict == notCalling)
        #expect(SecurityAlert(flow: .acknowledge, remaining: 0, strings: strings, verdict: .bankIsCalling).verdict == calling)
        #expect(SecurityAlert(flow: .acknowledge, remaining: 0, strings: strings, verdict: .unknown).verdict == nil)
    }

    @Test("The verdict lines in German, French and Italian use the formal address like the other keys", arguments: [
        ("de", CallMonitorStrings.Key.verdictBankIsNotCalling, "Ihre Bank ruft Sie nicht an. Legen Sie jetzt auf."),
        ("fr", .verdictBankIsNotCalling, "Votre banque ne vous appelle pas. Raccrochez maintenant."),
        ("it", .verdictBankIsCalling, "La Sua banca è al telefono con Lei in questo momento."),
        ("pt-PT", .verdictBankIsNotCalling, "Esta chamada não é do seu banco. Desligue agora."),
    ])
    func formalAddress(language: String, key: CallMonitorStrings.Key, expected: String) {
        #expect(CallMonitorStrings.localized(language: language, appBundle: nil).text(key) == expected)
    }
}

@Suite("Localization: the context kind lines (rule 29)", .nothingLeftScheduled)
struct ContextLocalizationTests {
    static let kindKeys: [CallMonitorStrings.Key] = [.contextPayment, .contextCredentials, .contextDeviceChange, .contextAccountChange]

    @Test("Each language has the four kind lines of its own: translated, all different, one sentence, no placeholder, short", arguments: LanguageMatcher.shipped)
    func kindLines(language: String) throws {
        let table = try shippedTable(language)
        let lines = try Self.kindKeys.map { try #require(table[$0.rawValue], "\(language): \($0.rawValue)") }
        #expect(Set(lines).count == 4, "\(language): two kinds share a line")
        for (key, line) in zip(Self.kindKeys, lines) {
            if language != "en" { #expect(line != key.englishDefault, "\(language): \(key.rawValue) is not translated") }
            // One sentence, read in two seconds: it ends with its only full stop ("dvs." is Romanian's abbreviation).
            #expect(line.hasSuffix("."), "\(language): \(line)")
            #expect(line.replacingOccurrences(of: "dvs.", with: "dvs").filter { $0 == "." }.count == 1, "\(language): \(line)")
            #expect(!line.contains("%") && !line.contains("\\") && !line.contains("\""), "\(language): \(line)")
            #expect(line.count <= 120, "\(language): \(line.count) characters: \(line)")
        }
        let strings = CallMonitorStrings.localized(language: language, appBundle: nil)
        let drawn = CallMonitorContext.Kind.allCases.map { SecurityAlert.kindLine(CallMonitorContext(kind: $0), strings: strings) }
        #expect(drawn == lines + [nil])
    }

    @Test("The kind lines keep each language's register (formal or informal, as its other keys)", arguments: [
        ("de", CallMonitorStrings.Key.contextPayment, "Ihre Bank wird Sie am Telefon nie bitten, Geld zu überweisen."),
        ("fr", .contextCredentials, "Votre banque ne vous demandera jamais votre code PIN, vos mots de passe ou vos codes pendant un appel."),
        ("it", .contextDeviceChange, "La Sua banca non Le chiederà mai di installare un’app o di aggiungere un dispositivo durante una chiamata."),
        ("es", .contextAccountChange, "Su banco nunca le pedirá que cambie los datos de su cuenta durante una llamada."),
        ("pl", .contextPayment, "Twój bank nigdy nie poprosi Cię o przelanie pieniędzy podczas rozmowy."),
        ("sv", .contextPayment, "Din bank ber dig aldrig att föra över pengar under ett samtal."),
        ("pt-PT", .contextCredentials, "O seu banco nunca lhe pedirá o PIN, palavras-passe ou códigos durante uma chamada."),
    ])
    func register(language: String, key: CallMonitorStrings.Key, expected: String) {
        #expect(CallMonitorStrings.localized(language: language, appBundle: nil).text(key) == expected)
    }
}

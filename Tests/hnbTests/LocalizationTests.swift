// The built-in dialog in 22 languages: complete tables, CLDR plural forms, language matching,
// the app → library → English chain with real bundles on disk, and hostile overrides.

import Foundation
import Testing
@testable import hnb
import hnbTesting

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

// Split out of LocalizationTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

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

// Split out of LocalizationTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

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

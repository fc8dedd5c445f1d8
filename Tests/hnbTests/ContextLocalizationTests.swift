// Split out of LocalizationTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

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

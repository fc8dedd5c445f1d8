// Split out of LocalizationTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

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

// Split out of LocalizationTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

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

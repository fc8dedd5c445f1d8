// Rule 34 on the built-in dialog: the line of a medium and of a high coaching level, word for word
// in English and in other languages, in both flows and on the no-call coaching warning; where it
// stands among the paragraphs VoiceOver reads; and that a line changed in place is not announced
// on its own, as a context changed in place is not.

import Foundation
import Testing
@testable import hnb
import hnbTesting

@Suite("Coaching: the dialog's coaching line in words and for VoiceOver (rule 34)")
struct CoachingLineTextTests {
    static let englishMedium = "A security check found some signs that someone may be guiding you. Your bank will never ask you to move money "
        + "or share codes for someone else. This check alone does not stop you from going on."
    static let englishHigh = "A security check found strong signs that someone may be guiding you. Your bank will never ask you to move money "
        + "or share codes for someone else. This check alone does not stop you from going on."
    static let germanHigh = "Eine Sicherheitsprüfung hat deutliche Hinweise darauf gefunden, dass Sie möglicherweise jemand anleitet. "
        + "Ihre Bank wird Sie nie bitten, für jemand anderen Geld zu überweisen oder Codes weiterzugeben. "
        + "Diese Prüfung allein hindert Sie nicht daran, fortzufahren."
    static let frenchMedium = "Un contrôle de sécurité a relevé quelques signes indiquant que quelqu’un vous guide peut-être. "
        + "Votre banque ne vous demandera jamais de transférer de l’argent ou de communiquer des codes pour le compte d’une autre personne. "
        + "Ce contrôle à lui seul ne vous empêche pas de continuer."
    static let context = CallMonitorContext(kind: .payment, detail: "You are sending €2,000.")

    /// The scene of a live call's terminate event of 5 s with the payment context and `level`.
    private func terminateScene(_ level: CallMonitor.CoachingLevel?) -> MonitorEngine.Scene {
        MonitorEngine.Scene(
            .present(tellsVerdict: false), flow: .terminate, remaining: 5, token: 1, button: .available, verdict: .unknown,
            context: Self.context, on: .builtInDialog, coachingLevel: level
        )
    }

    /// What the built-in dialog draws for `scene` in `strings`.
    @MainActor
    private func drawn(_ scene: MonitorEngine.Scene, _ strings: CallMonitorStrings = .english) throws -> SecurityAlert {
        let renderer = SimulatedAlertRenderer()
        BuiltInDialog(renderer: renderer, strings: strings).show(scene) {}
        return try #require(renderer.current)
    }

    @Test("English: a high line under a terminate countdown, every other field as without it")
    @MainActor
    func englishTerminate() throws {
        #expect(try drawn(terminateScene(.high)) == SecurityAlert(
            flow: .terminate, title: "Security Policy", message: "Application access is disabled during active calls for your protection.",
            countdown: "App will close in 5 seconds.", button: "Close App", remaining: 5, verdict: nil,
            kindLine: "Your bank will never ask you to move money while you are on a call.", detail: "You are sending €2,000.",
            contextKind: .payment, coachingLine: Self.englishHigh, coachingLevel: .high
        ))
        var without = try drawn(terminateScene(.high))
        without.coachingLine = nil
        without.coachingLevel = nil
        #expect(try drawn(terminateScene(nil)) == without)
        #expect(try drawn(terminateScene(.unknown)) == without)
    }

    @Test("English: a medium line on the no-call coaching warning, under the screen's own sentence")
    @MainActor
    func englishCoachingWarning() throws {
        var scene = terminateScene(.medium)
        scene.flow = .acknowledge
        scene.button = .hidden
        scene.isCoachingWarning = true
        let alert = try drawn(scene)
        #expect(alert.coachingLine == Self.englishMedium)
        #expect(alert.paragraphs == [
            CallMonitorStrings.english.text(.alertMessageCoaching), "You are sending €2,000.", Self.englishMedium, "Acknowledge in 5 seconds.",
        ])
    }

    @Test("German and French: the line in the language's own words and register")
    @MainActor
    func otherLanguages() throws {
        let german = CallMonitorStrings.localized(language: "de", appBundle: nil)
        #expect(try drawn(terminateScene(.high), german).coachingLine == Self.germanHigh)
        let french = CallMonitorStrings.localized(language: "fr", appBundle: nil)
        #expect(try drawn(terminateScene(.medium), french).coachingLine == Self.frenchMedium)
    }

    @Test("Each language: two lines of its own, translated, different, without placeholders, ending in a full stop",
          arguments: LanguageMatcher.shipped)
    func everyLanguage(language: String) throws {
        let table = try shippedTable(language)
        let medium = try #require(table[CallMonitorStrings.Key.alertCoachingMedium.rawValue], "\(language): medium")
        let high = try #require(table[CallMonitorStrings.Key.alertCoachingHigh.rawValue], "\(language): high")
        #expect(medium != high, "\(language): the two levels read the same")
        if language != "en" {
            #expect(medium != CallMonitorStrings.Key.alertCoachingMedium.englishDefault, "\(language): medium is not translated")
            #expect(high != CallMonitorStrings.Key.alertCoachingHigh.englishDefault, "\(language): high is not translated")
        }
        for line in [medium, high] {
            #expect(line.hasSuffix("."), "\(language): \(line)")
            #expect(!line.contains("%") && !line.contains("\\") && !line.contains("\""), "\(language): \(line)")
        }
        let strings = CallMonitorStrings.localized(language: language, appBundle: nil)
        #expect(SecurityAlert.coachingLine(.medium, strings: strings) == medium)
        #expect(SecurityAlert.coachingLine(.high, strings: strings) == high)
        #expect(SecurityAlert.coachingLine(.unknown, strings: strings) == nil)
        #expect(SecurityAlert.coachingLine(nil, strings: strings) == nil)
    }

    @Test("VoiceOver reads the line with the alert, after the context and before the verdict and countdown")
    func readWithTheAlert() {
        let alert = SecurityAlert(flow: .terminate, remaining: 5, strings: .english, verdict: .bankIsNotCalling, context: Self.context, coachingLevel: .high)
        #expect(alert.paragraphs == [
            "Application access is disabled during active calls for your protection.",
            "Your bank will never ask you to move money while you are on a call.", "You are sending €2,000.", Self.englishHigh,
            "Your bank is not calling you. Hang up now.", "App will close in 5 seconds.",
        ])
    }

    @Test("A line that appears or rises in place is announced, before a verdict and the countdown; one that falls or goes says nothing")
    func announcedInPlace() {
        let none = SecurityAlert(flow: .terminate, remaining: 10, strings: .english)
        let medium = SecurityAlert(flow: .terminate, remaining: 10, strings: .english, coachingLevel: .medium)
        let high = SecurityAlert(flow: .terminate, remaining: 10, strings: .english, coachingLevel: .high)
        let unknown = SecurityAlert(flow: .terminate, remaining: 10, strings: .english, coachingLevel: .unknown)
        #expect(Announcements.announcement(from: none, to: medium) == Self.englishMedium)
        #expect(Announcements.announcement(from: medium, to: high) == Self.englishHigh)
        #expect(Announcements.announcement(from: none, to: high) == Self.englishHigh)
        #expect(Announcements.announcement(from: high, to: high) == nil)
        #expect(Announcements.announcement(from: high, to: medium) == nil)
        #expect(Announcements.announcement(from: high, to: none) == nil)
        #expect(Announcements.announcement(from: none, to: unknown) == nil)
        let withVerdict = SecurityAlert(flow: .terminate, remaining: 5, strings: .english, verdict: .bankIsNotCalling, coachingLevel: .high)
        #expect(Announcements.announcement(from: high, to: withVerdict) == "Your bank is not calling you. Hang up now. App will close in 5 seconds.")
        #expect(Announcements.announcement(from: medium, to: withVerdict)
            == Self.englishHigh + " Your bank is not calling you. Hang up now. App will close in 5 seconds.")
    }
}

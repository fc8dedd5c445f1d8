// Rule 32: a coaching warning (no call live) is drawn by the built-in dialog with the coaching
// message and no kind line, since every kind line and the ordinary warning message speak of a call;
// a call's warning with the same context keeps its texts.

import Foundation
import Testing
@testable import hnb
import hnbTesting

@Suite("Coaching warning texts on the built-in dialog (rule 32)")
struct CoachingWarningTextTests {
    static let context = CallMonitorContext(kind: .payment, detail: "You are sending €2,000.", operationID: "TX-1")
    static let english = "Someone may be guiding you through this right now. Your bank will never ask you to move money, "
        + "share codes or change your details for someone else. You can go on once you have read this."
    static let german = "Möglicherweise leitet Sie gerade jemand durch diesen Vorgang. Ihre Bank wird Sie nie bitten, "
        + "für jemand anderen Geld zu überweisen, Codes weiterzugeben oder Ihre Daten zu ändern. "
        + "Sie können fortfahren, sobald Sie dies gelesen haben."

    /// The scenes among `actions`, in order.
    private func scenes(_ actions: [MonitorEngine.Action]) -> [MonitorEngine.Scene] {
        actions.compactMap { action in
            if case .scene(let scene) = action { scene } else { nil }
        }
    }

    /// The scene a medium answer emits for a payment protection opened with no call live, in the foreground.
    private func noCallCoachingScene() throws -> MonitorEngine.Scene {
        var engine = coachingEngine()
        #expect(engine.handle(.beginProtection(id: 1, ackPolicy(0), context: Self.context), now: 0).coachingQuestions.map(\.id) == [1])
        _ = engine.handle(.appState(isForeground: true), now: 0)
        let shown = scenes(engine.handle(.coachingAnswered(request: 1, .init(level: .medium)), now: second))
        #expect(shown.count == 1)
        return try #require(shown.first)
    }

    /// The scene the same payment protection emits under a call's acknowledge warning of 5 s.
    private func callWarningScene() throws -> MonitorEngine.Scene {
        var engine = coachingEngine()
        _ = engine.handle(.start(ackPolicy(5)), now: 0)
        _ = engine.handle(.appState(isForeground: true), now: 0)
        _ = engine.handle(.calls(.changes([live("A")])), now: 0)
        let shown = scenes(engine.handle(.beginProtection(id: 1, ackPolicy(5), context: Self.context), now: second))
        return try #require(shown.last)
    }

    /// What the built-in dialog draws for `scene` in `strings`.
    @MainActor
    private func drawn(_ scene: MonitorEngine.Scene, _ strings: CallMonitorStrings) throws -> SecurityAlert {
        let renderer = SimulatedAlertRenderer()
        BuiltInDialog(renderer: renderer, strings: strings).show(scene) {}
        return try #require(renderer.current)
    }

    @Test("No call live, English: exactly the coaching message, no kind line; the screen's own sentence stays")
    @MainActor
    func noCallEnglish() throws {
        let scene = try noCallCoachingScene()
        #expect(scene.isCoachingWarning)
        #expect(try drawn(scene, .english) == SecurityAlert(
            flow: .acknowledge, title: "Security Policy", message: Self.english, countdown: "Acknowledge in 5 seconds.", button: nil,
            remaining: 5, verdict: nil, kindLine: nil, detail: "You are sending €2,000.", contextKind: .payment,
            coachingLine: CoachingLineTextTests.englishMedium, coachingLevel: .medium
        ))
    }

    @Test("No call live, German: exactly the coaching message, no kind line")
    @MainActor
    func noCallGerman() throws {
        let german = CallMonitorStrings.localized(language: "de", appBundle: nil)
        #expect(try drawn(try noCallCoachingScene(), german) == SecurityAlert(
            flow: .acknowledge, title: "Sicherheitsrichtlinie", message: Self.german, countdown: german.countdown(.acknowledgeCountdown, remaining: 5),
            button: nil, remaining: 5, verdict: nil, kindLine: nil, detail: "You are sending €2,000.", contextKind: .payment,
            coachingLine: german.text(.alertCoachingMedium), coachingLevel: .medium
        ))
        #expect(german.text(.alertMessageCoaching) == Self.german)
    }

    @Test("A call's warning with the same context keeps the ordinary message and its kind line, in English and German")
    @MainActor
    func callWarningUnchanged() throws {
        let scene = try callWarningScene()
        #expect(!scene.isCoachingWarning)
        let alert = try drawn(scene, .english)
        #expect(alert.message == "Using this application during an active call may expose sensitive information.")
        #expect(alert.kindLine == "Your bank will never ask you to move money while you are on a call.")
        #expect(alert.detail == "You are sending €2,000.")
        let german = CallMonitorStrings.localized(language: "de", appBundle: nil)
        let inGerman = try drawn(scene, german)
        #expect(inGerman.message == "Die Nutzung dieser App während eines aktiven Anrufs kann vertrauliche Informationen preisgeben.")
        #expect(inGerman.kindLine == "Ihre Bank wird Sie am Telefon nie bitten, Geld zu überweisen.")
        // The same scene marked as a coaching warning differs only in the message and the kind line.
        var coaching = scene
        coaching.isCoachingWarning = true
        var expected = alert
        expected.message = Self.english
        expected.kindLine = nil
        #expect(try drawn(coaching, .english) == expected)
    }
}

// Split out of ScenePlanTests.swift so that each file holds one suite, named as the file (issue 39).

import Testing
@testable import hnb
import hnbTesting

private func active(_ id: String, key: Scene.KeyWindow? = nil) -> Scene {
    Scene(id: id, activation: .foregroundActive, keyWindow: key)
}

@Suite("Scene plan: several windows", .nothingLeftScheduled)
struct ScenePlanMultiSceneTests {
    @Test("Two windows, the key window in the second: alert there, a cover on the first")
    func twoScenesKeyInSecond() {
        let plan = ScenePlan.make(scenes: [active("A"), active("B", key: .app(w2))], wanted: terminate(10), drawn: .nothing)
        #expect(plan == ScenePlan(
            steps: [.showCover("A"), .showAlert("B", animated: true)],
            drawn: drawn(["A": .cover, "B": .alert], terminate(10), restoreKey: w2)
        ))
    }

    @Test("Two windows that each have a key window (iOS 15 and later): the first listed gets the alert")
    func twoScenesBothKeyed() {
        let plan = ScenePlan.make(scenes: [active("A", key: .app(w1)), active("B", key: .app(w2))], wanted: terminate(10), drawn: .nothing)
        #expect(plan == ScenePlan(
            steps: [.showCover("B"), .showAlert("A", animated: true)],
            drawn: drawn(["A": .alert, "B": .cover], terminate(10), restoreKey: w1)
        ))
    }

    @Test("No key window anywhere: the first foreground-active scene gets the alert")
    func noKeyWindow() {
        let plan = ScenePlan.make(
            scenes: [Scene(id: "X", activation: .background), active("A"), active("B")],
            wanted: terminate(10), drawn: .nothing
        )
        #expect(plan == ScenePlan(
            steps: [.showCover("B"), .showAlert("A", animated: true)],
            drawn: drawn(["A": .alert, "B": .cover], terminate(10))
        ))
    }

    @Test("A tick with covers: the alert is updated, the covers are left alone")
    func tickWithCovers() {
        let shown = drawn(["A": .alert, "B": .cover], terminate(10), restoreKey: w1)
        let plan = ScenePlan.make(scenes: [active("A", key: .monitor), active("B", key: .app(w2))], wanted: terminate(9), drawn: shown)
        #expect(plan == ScenePlan(steps: [.updateAlert("A")], drawn: drawn(["A": .alert, "B": .cover], terminate(9), restoreKey: w1)))
    }

    @Test("The alert does not jump while its scene keeps a key window, whatever the order of the list")
    func alertStays() {
        let shown = drawn(["A": .alert, "B": .cover], terminate(10), restoreKey: w1)
        for scenes in [[active("A", key: .monitor), active("B", key: .app(w2))], [active("B", key: .app(w2)), active("A", key: .monitor)]] {
            #expect(ScenePlan.make(scenes: scenes, wanted: terminate(10), drawn: shown) == ScenePlan(steps: [], drawn: shown))
        }
    }

    @Test("The key scene changes (the user moved to the other window): the alert moves, the old scene gets a cover and its key window back")
    func keySceneChanges() {
        let shown = drawn(["A": .alert, "B": .cover], terminate(8), restoreKey: w1)
        let plan = ScenePlan.make(scenes: [active("A"), active("B", key: .app(w2))], wanted: terminate(8), drawn: shown)
        #expect(plan == ScenePlan(
            steps: [.removeWindow("A"), .makeKey(w1), .removeWindow("B"), .showCover("A"), .showAlert("B", animated: false)],
            drawn: drawn(["A": .cover, "B": .alert], terminate(8), restoreKey: w2)
        ))
        // Dismissed afterwards: B's window is the one given back.
        let dismissed = ScenePlan.make(scenes: [active("A"), active("B", key: .monitor)], wanted: nil, drawn: plan.drawn)
        #expect(dismissed == ScenePlan(steps: [.removeWindow("A"), .removeWindow("B"), .makeKey(w2)], drawn: .nothing))
    }

    @Test("A scene that goes inactive while shown (Control Center, a call banner) keeps its window")
    func inactiveKeepsWindow() {
        let shown = drawn(["A": .alert, "B": .cover], terminate(8), restoreKey: w1)
        let plan = ScenePlan.make(
            scenes: [Scene(id: "A", activation: .foregroundInactive, keyWindow: .monitor), Scene(id: "B", activation: .foregroundInactive, keyWindow: .app(w2))],
            wanted: terminate(7), drawn: shown
        )
        #expect(plan == ScenePlan(steps: [.updateAlert("A")], drawn: drawn(["A": .alert, "B": .cover], terminate(7), restoreKey: w1)))
    }

    @Test("A covered scene that goes to the background loses its cover")
    func coverSceneBackgrounds() {
        let shown = drawn(["A": .alert, "B": .cover], terminate(8), restoreKey: w1)
        let plan = ScenePlan.make(
            scenes: [active("A", key: .monitor), Scene(id: "B", activation: .background, keyWindow: .app(w2))],
            wanted: terminate(8), drawn: shown
        )
        #expect(plan == ScenePlan(steps: [.removeWindow("B")], drawn: drawn(["A": .alert], terminate(8), restoreKey: w1)))
    }

    @Test("The alert's scene goes to the background: the alert moves to the scene still active")
    func alertSceneBackgrounds() {
        let shown = drawn(["A": .alert, "B": .cover], terminate(8), restoreKey: w1)
        let plan = ScenePlan.make(
            scenes: [Scene(id: "A", activation: .background, keyWindow: .monitor), active("B", key: .app(w2))],
            wanted: terminate(8), drawn: shown
        )
        #expect(plan == ScenePlan(
            steps: [.removeWindow("A"), .makeKey(w1), .removeWindow("B"), .showAlert("B", animated: false)],
            drawn: drawn(["B": .alert], terminate(8), restoreKey: w2)
        ))
    }

    @Test("The alert's scene disconnects: its window is let go without a key window to give back, the alert moves")
    func alertSceneDisconnects() {
        let shown = drawn(["A": .alert, "B": .cover], terminate(8), restoreKey: w1)
        let plan = ScenePlan.make(scenes: [active("B", key: .app(w2))], wanted: terminate(8), drawn: shown)
        #expect(plan == ScenePlan(
            steps: [.removeWindow("B"), .removeWindow("A"), .showAlert("B", animated: false)],
            drawn: drawn(["B": .alert], terminate(8), restoreKey: w2)
        ))
    }

    @Test("A scene that connects and activates while shown gets a cover")
    func newSceneGetsCover() {
        let shown = drawn(["A": .alert], terminate(8), restoreKey: w1)
        let connecting = ScenePlan.make(
            scenes: [active("A", key: .monitor), Scene(id: "C", activation: .foregroundInactive)],
            wanted: terminate(8), drawn: shown
        )
        #expect(connecting == ScenePlan(steps: [], drawn: shown))
        let activated = ScenePlan.make(scenes: [active("A", key: .monitor), active("C", key: .app(w3))], wanted: terminate(8), drawn: shown)
        #expect(activated == ScenePlan(steps: [.showCover("C")], drawn: drawn(["A": .alert, "C": .cover], terminate(8), restoreKey: w1)))
    }

    @Test("A new language: covers are retitled, the alert is replaced because its button's title changed")
    func languageChange() {
        let english = terminate(6)
        let german = SecurityAlert(flow: .terminate, title: "Sicherheitsrichtlinie", message: "Zugriff gesperrt.",
                                   countdown: "Die App wird in 6 Sekunden geschlossen.", button: "App schließen", remaining: 6)
        let shown = drawn(["A": .alert, "B": .cover], english, restoreKey: w1)
        let plan = ScenePlan.make(scenes: [active("A", key: .monitor), active("B")], wanted: german, drawn: shown)
        #expect(plan == ScenePlan(
            steps: [.removeWindow("A"), .updateCover("B"), .showAlert("A", animated: false)],
            drawn: drawn(["A": .alert, "B": .cover], german, restoreKey: w1)
        ))
    }

    @Test("Dismiss with several windows removes every one and gives back the alert scene's key window")
    func dismissAll() {
        let shown = drawn(["A": .cover, "B": .alert, "C": .cover], terminate(2), restoreKey: w2)
        let plan = ScenePlan.make(
            scenes: [active("A", key: .app(w1)), active("B", key: .monitor), Scene(id: "C", activation: .foregroundInactive)],
            wanted: nil, drawn: shown
        )
        #expect(plan == ScenePlan(steps: [.removeWindow("A"), .removeWindow("B"), .makeKey(w2), .removeWindow("C")], drawn: .nothing))
    }
}

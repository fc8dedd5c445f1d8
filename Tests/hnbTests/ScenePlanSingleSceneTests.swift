// Split out of ScenePlanTests.swift so that each file holds one suite, named as the file (issue 39).

import Testing
@testable import hnb
import hnbTesting

private func active(_ id: String, key: Scene.KeyWindow? = nil) -> Scene {
    Scene(id: id, activation: .foregroundActive, keyWindow: key)
}

@Suite("Scene plan: one window", .nothingLeftScheduled)
struct ScenePlanSingleSceneTests {
    @Test("First show: the alert in its own key window, animated; the app's key window is remembered")
    func firstShow() {
        let plan = ScenePlan.make(scenes: [active("A", key: .app(w1))], wanted: terminate(10), drawn: .nothing)
        #expect(plan == ScenePlan(
            steps: [.showAlert("A", animated: true)],
            drawn: drawn(["A": .alert], terminate(10), restoreKey: w1)
        ))
    }

    @Test("A tick updates the alert in place; the countdown is announced at its milestones only (issue 30: 10, 5, 3, 2, 1)")
    func tickInPlace() {
        let shown = drawn(["A": .alert], terminate(10), restoreKey: w1)
        let scenes = [active("A", key: .monitor)]

        let nine = ScenePlan.make(scenes: scenes, wanted: terminate(9), drawn: shown)
        #expect(nine == ScenePlan(steps: [.updateAlert("A")], drawn: drawn(["A": .alert], terminate(9), restoreKey: w1)))

        let five = ScenePlan.make(scenes: scenes, wanted: terminate(5), drawn: nine.drawn)
        #expect(five == ScenePlan(
            steps: [.updateAlert("A")],
            drawn: drawn(["A": .alert], terminate(5), restoreKey: w1),
            announcement: "App will close in 5 seconds."
        ))

        let four = ScenePlan.make(scenes: scenes, wanted: terminate(4), drawn: five.drawn)
        #expect(four.announcement == nil)
        let three = ScenePlan.make(scenes: scenes, wanted: terminate(3), drawn: four.drawn)
        #expect(three.announcement == "App will close in 3 seconds.")

        let zero = ScenePlan.make(scenes: scenes, wanted: terminate(0), drawn: five.drawn)
        #expect(zero == ScenePlan(steps: [.updateAlert("A")], drawn: drawn(["A": .alert], terminate(0), restoreKey: w1)))
    }

    @Test("The same dialog again (a scene notification with nothing new) changes nothing")
    func sameDialogNoSteps() {
        let shown = drawn(["A": .alert], terminate(5), restoreKey: w1)
        let plan = ScenePlan.make(scenes: [active("A", key: .monitor)], wanted: terminate(5), drawn: shown)
        #expect(plan == ScenePlan(steps: [], drawn: shown))
    }

    @Test("The Acknowledge button appearing replaces the alert with a new window, not animated, keeping the key window to give back")
    func buttonAppears() {
        let waiting = drawn(["A": .alert], acknowledge(1), restoreKey: w1)
        let plan = ScenePlan.make(scenes: [active("A", key: .monitor)], wanted: acknowledge(0), drawn: waiting)
        #expect(plan == ScenePlan(
            steps: [.removeWindow("A"), .showAlert("A", animated: false)],
            drawn: drawn(["A": .alert], acknowledge(0), restoreKey: w1)
        ))
    }

    @Test("A switch of flow with the same button text still replaces the alert (the button's style differs)")
    func flowChangeReplaces() {
        var closeLike = acknowledge(0)
        closeLike.button = "Close App"
        let shown = drawn(["A": .alert], terminate(3), restoreKey: w1)
        let plan = ScenePlan.make(scenes: [active("A", key: .monitor)], wanted: closeLike, drawn: shown)
        #expect(plan.steps == [.removeWindow("A"), .showAlert("A", animated: false)])
    }

    @Test("Dismiss: the window is removed and the app's key window is made key again")
    func dismissRestoresKey() {
        let shown = drawn(["A": .alert], terminate(4), restoreKey: w1)
        let plan = ScenePlan.make(scenes: [active("A", key: .monitor)], wanted: nil, drawn: shown)
        #expect(plan == ScenePlan(steps: [.removeWindow("A"), .makeKey(w1)], drawn: .nothing))
    }

    @Test("Dismiss with no key window remembered removes the window and makes nothing key")
    func dismissWithoutKey() {
        let shown = drawn(["A": .alert], terminate(4))
        let plan = ScenePlan.make(scenes: [active("A", key: .monitor)], wanted: nil, drawn: shown)
        #expect(plan == ScenePlan(steps: [.removeWindow("A")], drawn: .nothing))
    }

    @Test("The app makes another of its windows key while the dialog is up: that one is given back")
    func restoreFollowsTheApp() {
        let shown = drawn(["A": .alert], terminate(4), restoreKey: w1)
        let moved = ScenePlan.make(scenes: [active("A", key: .app(w3))], wanted: terminate(4), drawn: shown)
        #expect(moved == ScenePlan(steps: [], drawn: drawn(["A": .alert], terminate(4), restoreKey: w3)))
        let dismissed = ScenePlan.make(scenes: [active("A", key: .app(w3))], wanted: nil, drawn: moved.drawn)
        #expect(dismissed.steps == [.removeWindow("A"), .makeKey(w3)])
    }

    @Test("Nothing wanted and nothing drawn: no steps")
    func idle() {
        #expect(ScenePlan.make(scenes: [active("A", key: .app(w1))], wanted: nil, drawn: .nothing) == ScenePlan(steps: [], drawn: .nothing))
    }
}

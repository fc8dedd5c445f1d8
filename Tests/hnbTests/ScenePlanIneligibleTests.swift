// Split out of ScenePlanTests.swift so that each file holds one suite, named as the file (issue 39).

import Testing
@testable import hnb
import hnbTesting

private func active(_ id: String, key: Scene.KeyWindow? = nil) -> Scene {
    Scene(id: id, activation: .foregroundActive, keyWindow: key)
}

@Suite("Scene plan: scenes that are never drawn on", .nothingLeftScheduled)
struct ScenePlanIneligibleTests {
    @Test("An external display's non-interactive scene never gets a window")
    func externalDisplay() {
        let external = Scene(id: "E", role: .externalDisplayNonInteractive, activation: .foregroundActive, keyWindow: .app(w3))
        let plan = ScenePlan.make(scenes: [external, active("A", key: .app(w1))], wanted: terminate(10), drawn: .nothing)
        #expect(plan == ScenePlan(steps: [.showAlert("A", animated: true)], drawn: drawn(["A": .alert], terminate(10), restoreKey: w1)))
        let alone = ScenePlan.make(scenes: [external], wanted: terminate(10), drawn: .nothing)
        #expect(alone == ScenePlan(steps: [], drawn: .nothing))
    }

    @Test("Other roles (CarPlay, immersive spaces) never get a window")
    func otherRoles() {
        let car = Scene(id: "car", role: .other, activation: .foregroundActive, keyWindow: .app(w3))
        let plan = ScenePlan.make(scenes: [car, active("A")], wanted: terminate(10), drawn: .nothing)
        #expect(plan.steps == [.showAlert("A", animated: true)])
    }

    @Test("No foreground-active scene: nothing is drawn; the first activation shows the dialog, animated")
    func noActiveSceneThenActivation() {
        let waiting = ScenePlan.make(
            scenes: [Scene(id: "A", activation: .foregroundInactive, keyWindow: .app(w1)), Scene(id: "B", activation: .background), Scene(id: "U", activation: .unattached)],
            wanted: terminate(10), drawn: .nothing
        )
        #expect(waiting == ScenePlan(steps: [], drawn: .nothing))
        let activated = ScenePlan.make(scenes: [active("A", key: .app(w1)), Scene(id: "B", activation: .background)], wanted: terminate(9), drawn: waiting.drawn)
        #expect(activated == ScenePlan(steps: [.showAlert("A", animated: true)], drawn: drawn(["A": .alert], terminate(9), restoreKey: w1)))
    }

    @Test("Every scene goes to the background while shown: all windows go; the dialog comes back on activation")
    func allBackground() {
        let shown = drawn(["A": .alert], terminate(8), restoreKey: w1)
        let gone = ScenePlan.make(scenes: [Scene(id: "A", activation: .background, keyWindow: .monitor)], wanted: terminate(8), drawn: shown)
        #expect(gone == ScenePlan(steps: [.removeWindow("A"), .makeKey(w1)], drawn: .nothing))
        let back = ScenePlan.make(scenes: [active("A", key: .app(w1))], wanted: terminate(6), drawn: gone.drawn)
        #expect(back == ScenePlan(steps: [.showAlert("A", animated: true)], drawn: drawn(["A": .alert], terminate(6), restoreKey: w1)))
    }

    @Test("A scene listed twice counts once")
    func duplicateScene() {
        let plan = ScenePlan.make(scenes: [active("A", key: .app(w1)), active("A", key: .app(w2))], wanted: terminate(10), drawn: .nothing)
        #expect(plan == ScenePlan(steps: [.showAlert("A", animated: true)], drawn: drawn(["A": .alert], terminate(10), restoreKey: w1)))
    }
}

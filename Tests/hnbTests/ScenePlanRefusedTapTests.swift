// Split out of ScenePlanTests.swift so that each file holds one suite, named as the file (issue 39).

import Testing
@testable import hnb
import hnbTesting

private func active(_ id: String, key: Scene.KeyWindow? = nil) -> Scene {
    Scene(id: id, activation: .foregroundActive, keyWindow: key)
}

@Suite("Scene plan: refused tap", .nothingLeftScheduled)
struct ScenePlanRefusedTapTests {
    @Test("UIKit dropped the alert after a tap the engine refused: a new alert in a new window at once")
    func representsAfterRefusedTap() {
        var afterTap = drawn(["A": .alert], terminate(3), restoreKey: w1)
        afterTap.alertDroppedByUIKit()
        #expect(afterTap.alertOnScreen == false)
        let plan = ScenePlan.make(scenes: [active("A", key: .monitor)], wanted: terminate(3), drawn: afterTap)
        #expect(plan == ScenePlan(
            steps: [.removeWindow("A"), .showAlert("A", animated: false)],
            drawn: drawn(["A": .alert], terminate(3), restoreKey: w1)
        ))
    }

    @Test("A tap the engine accepted: the window goes and the key window comes back")
    func acceptedTap() {
        var afterTap = drawn(["A": .alert], acknowledge(0), restoreKey: w1)
        afterTap.alertDroppedByUIKit()
        let plan = ScenePlan.make(scenes: [active("A", key: .monitor)], wanted: nil, drawn: afterTap)
        #expect(plan == ScenePlan(steps: [.removeWindow("A"), .makeKey(w1)], drawn: .nothing))
    }

    @Test("After a refused tap in a two-window app the covers stay and only the alert is redrawn")
    func refusedTapKeepsCovers() {
        var afterTap = drawn(["A": .alert, "B": .cover], terminate(3), restoreKey: w1)
        afterTap.alertDroppedByUIKit()
        let plan = ScenePlan.make(scenes: [active("A", key: .monitor), active("B", key: .app(w2))], wanted: terminate(3), drawn: afterTap)
        #expect(plan == ScenePlan(
            steps: [.removeWindow("A"), .showAlert("A", animated: false)],
            drawn: drawn(["A": .alert, "B": .cover], terminate(3), restoreKey: w1)
        ))
    }
}

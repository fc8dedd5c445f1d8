// Split out of ScenePlanTests.swift so that each file holds one suite, named as the file (issue 39).

import Testing
@testable import hnb
import hnbTesting

private typealias Scene = ScenePlan.Scene

private typealias Drawn = ScenePlan.Drawn

private let w1 = ScenePlan.WindowID(raw: 1)

private let w2 = ScenePlan.WindowID(raw: 2)

private func active(_ id: String, key: Scene.KeyWindow? = nil) -> Scene {
    Scene(id: id, activation: .foregroundActive, keyWindow: key)
}

private func terminate(_ remaining: Int32) -> SecurityAlert {
    SecurityAlert(flow: .terminate, remaining: remaining, strings: .english)
}

private func acknowledge(_ remaining: Int32) -> SecurityAlert {
    SecurityAlert(flow: .acknowledge, remaining: remaining, strings: .english)
}

private func drawn(_ windows: [String: ScenePlan.WindowKind], _ alert: SecurityAlert?, onScreen: Bool = true, restoreKey: ScenePlan.WindowID? = nil) -> Drawn {
    Drawn(windows: windows, alert: alert, alertOnScreen: onScreen, restoreKey: restoreKey)
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

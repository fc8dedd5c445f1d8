// The built-in dialog across an app's windows: which scene gets the alert, which get covers,
// what is created, removed and made key, for each situation a multi-window iPad, a Mac or an
// external display produces. Every expectation is the exact plan.

import Testing
@testable import hnb
import hnbTesting

private typealias Scene = ScenePlan.Scene
private typealias Drawn = ScenePlan.Drawn

private let w1 = ScenePlan.WindowID(raw: 1)
private let w2 = ScenePlan.WindowID(raw: 2)
private let w3 = ScenePlan.WindowID(raw: 3)

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

/// Every combination of three scenes (absent, or a role, an activation state and a key window
/// each) and of what is drawn (no window, a cover or the alert in each, at most one alert), with
/// and without a dialog wanted: the plan's steps, carried out on what is drawn, give exactly the
/// plan's result, and that result obeys the rules.
@Suite("Scene plan: exhaustive", .nothingLeftScheduled)
struct ScenePlanExhaustiveTests {
    static let ids = ["A", "B", "C"]

    /// Per scene: absent, or present with one of 2 roles x 3 activation states x 3 key windows.
    /// (`unattached` is treated as `background`, which a unit test above shows; leaving it out
    /// here halves the run time.)
    fileprivate static func options(_ id: String) -> [Scene?] {
        var result: [Scene?] = [nil]
        for role in [Scene.Role.windowApplication, .externalDisplayNonInteractive] {
            for activation in [Scene.Activation.foregroundActive, .foregroundInactive, .background] {
                for key in [nil, .monitor, .app(w1)] as [Scene.KeyWindow?] {
                    result.append(Scene(id: id, role: role, activation: activation, keyWindow: key))
                }
            }
        }
        return result
    }

    /// Each scene with no window, a cover or the alert; at most one alert (20 states).
    static func drawnStates() -> [[String: ScenePlan.WindowKind]] {
        var result: [[String: ScenePlan.WindowKind]] = [[:]]
        for id in ids {
            result = result.flatMap { partial in
                [nil, .alert, .cover].map { (kind: ScenePlan.WindowKind?) in
                    var copy = partial
                    copy[id] = kind
                    return copy
                }
            }
        }
        return result.filter { $0.values.filter { $0 == .alert }.count <= 1 }
    }

    @Test("Exactly one alert when a scene is eligible, covers on the rest, nothing elsewhere, and the steps lead there")
    func allCombinations() {
        var failures: [String] = []
        var checked = 0
        let states = Self.drawnStates()
        for a in Self.options("A") {
            for b in Self.options("B") {
                for c in Self.options("C") {
                    let scenes = [a, b, c].compactMap { $0 }
                    for drawnKinds in states {
                        for wanted in [nil, terminate(5)] as [SecurityAlert?] {
                            if let failure = Self.check(scenes: scenes, drawnKinds: drawnKinds, wanted: wanted), failures.count < 10 {
                                failures.append(failure)
                            }
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(states.count == 20)
        #expect(checked == 19 * 19 * 19 * 20 * 2)
        #expect(failures == [])
    }

    /// The first broken rule for one combination, or nil.
    fileprivate static func check(scenes: [Scene], drawnKinds: [String: ScenePlan.WindowKind], wanted: SecurityAlert?) -> String? {
        let hasAlert = drawnKinds.values.contains(.alert)
        let before = Drawn(windows: drawnKinds, alert: drawnKinds.isEmpty ? nil : terminate(6), alertOnScreen: hasAlert, restoreKey: hasAlert ? w2 : nil)
        let plan = ScenePlan.make(scenes: scenes, wanted: wanted, drawn: before)
        // Built only for a failure: describing every combination would dominate the run time.
        var label: String { "\(scenes) drawn \(drawnKinds) wanted \(wanted != nil): \(plan.steps)" }

        // Carrying out the steps on the windows gives the plan's result; each step is legal.
        var windows = before.windows
        var alertsShown = 0
        for step in plan.steps {
            switch step {
            case .removeWindow(let id):
                if windows.removeValue(forKey: id) == nil { return "removes a window that is not there: \(label)" }
            case .makeKey(let window):
                if window != w2 { return "makes a window key that was never remembered: \(label)" }
            case .showCover(let id), .showAlert(let id, _):
                if windows[id] != nil { return "two windows in one scene: \(label)" }
                if case .showAlert = step { alertsShown += 1; windows[id] = .alert } else { windows[id] = .cover }
            case .updateCover(let id):
                if windows[id] != .cover { return "updates a cover that is not there: \(label)" }
            case .updateAlert(let id):
                if windows[id] != .alert { return "updates an alert that is not there: \(label)" }
            }
        }
        if windows != plan.drawn.windows { return "steps do not lead to the result: \(label)" }
        if alertsShown > 1 { return "more than one alert shown: \(label)" }

        // Rules 1 to 4.
        let eligible = scenes.filter {
            $0.role == .windowApplication
                && ($0.activation == .foregroundActive || ($0.activation == .foregroundInactive && drawnKinds[$0.id] != nil))
        }
        if wanted == nil || eligible.isEmpty {
            if plan.drawn != .nothing { return "draws with nothing to draw or nowhere to draw it: \(label)" }
        } else {
            if Set(plan.drawn.windows.keys) != Set(eligible.map(\.id)) { return "windows not exactly on the eligible scenes: \(label)" }
            if plan.drawn.windows.values.filter({ $0 == .alert }).count != 1 { return "not exactly one alert: \(label)" }
            if plan.drawn.alert != wanted || !plan.drawn.alertOnScreen { return "alert not recorded as shown: \(label)" }
        }
        // Rule 2: the alert lands in a scene with a key window whenever an eligible one has one.
        if let alertScene = plan.drawn.alertScene, eligible.contains(where: { $0.keyWindow != nil }),
           eligible.first(where: { $0.id == alertScene })?.keyWindow == nil {
            return "alert in a scene without a key window: \(label)"
        }
        // Rule 6: the key window is given back exactly when the alert window leaves a scene that
        // is still connected.
        let leavesForGood = before.alertScene.map { id in scenes.contains { $0.id == id } && plan.drawn.windows[id] != .alert } ?? false
        if plan.steps.contains(.makeKey(w2)) != leavesForGood { return "key window given back wrongly: \(label)" }
        return nil
    }
}

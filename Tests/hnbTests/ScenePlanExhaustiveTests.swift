// Split out of ScenePlanTests.swift so that each file holds one suite, named as the file (issue 39).

import Testing
@testable import hnb
import hnbTesting

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

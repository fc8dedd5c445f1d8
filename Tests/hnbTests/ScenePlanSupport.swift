// The built-in dialog across an app's windows: which scene gets the alert, which get covers,
// what is created, removed and made key, for each situation a multi-window iPad, a Mac or an
// external display produces. Every expectation is the exact plan.

import Testing
@testable import hnb
import hnbTesting

typealias Scene = ScenePlan.Scene

typealias Drawn = ScenePlan.Drawn

let w1 = ScenePlan.WindowID(raw: 1)

let w2 = ScenePlan.WindowID(raw: 2)

let w3 = ScenePlan.WindowID(raw: 3)

func terminate(_ remaining: Int32) -> SecurityAlert {
    SecurityAlert(flow: .terminate, remaining: remaining, strings: .english)
}

func acknowledge(_ remaining: Int32) -> SecurityAlert {
    SecurityAlert(flow: .acknowledge, remaining: remaining, strings: .english)
}

func drawn(_ windows: [String: ScenePlan.WindowKind], _ alert: SecurityAlert?, onScreen: Bool = true, restoreKey: ScenePlan.WindowID? = nil) -> Drawn {
    Drawn(windows: windows, alert: alert, alertOnScreen: onScreen, restoreKey: restoreKey)
}

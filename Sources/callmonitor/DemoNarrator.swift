// What the demo says, chosen from what the monitor was seen to do: pure, so each sentence is tested
// against the observations that lead to it.

import ScenarioLanguage
import hnb

/// What the monitor did, as the simulator's transcript names it: the narration is built from these.
enum DemoObservation: Equatable {
    case event(CallEvent)
    case alert(SecurityAlert)
    case dismiss
    case exit(Int32)
}

/// The demo's sentences, each chosen from what was observed, so the story never claims
/// something the monitor did not do.
enum DemoNarrator {
    static func policyLine(_ flow: CallMonitorFlow, _ seconds: Int32) -> String {
        "CallMonitor demo - monitoring on: \(PolicyWords.describe(flow, seconds: seconds))."
    }

    /// After a tap. `button` is the button tapped (nil when none was shown); `effects` what the
    /// monitor did during the tap.
    static func tapped(button: String?, dialogShown: Bool, effects: [DemoObservation]) -> String {
        guard let button else {
            return dialogShown ? "The dialog shows no button yet: there is nothing to tap." : "There is no dialog, so there is nothing to tap."
        }
        if effects.contains(.dismiss) {
            return "The user taps \(button): the monitor accepts it and the warning stays away for the rest of this call."
        }
        return "The user taps \(button): the monitor refuses it and nothing changes."
    }

    /// The exit: by a tap on `tapped` (the button's title), or by the countdown reaching 0.
    static func exited(code: Int32, tapped: String?) -> String {
        if let tapped {
            return "The user taps \(tapped) while a call is live: the app is force-exited with exit(\(code))."
        }
        return "The countdown reached 0 with a call still live: the app is force-exited with exit(\(code))."
    }

    /// After the app went to the background or came back. `dialogBefore` and `dialogAfter`
    /// say whether a dialog was on screen before and after; `effects` what the monitor did.
    static func appStateChanged(toForeground: Bool, dialogBefore: Bool, dialogAfter: Bool, countdownShown: Bool,
                                effects: [DemoObservation]) -> String {
        if toForeground {
            let presented = !dialogBefore && effects.contains { if case .alert = $0 { true } else { false } }
            return presented
                ? "The app returns to the foreground with a call live: the security dialog appears."
                : "The app returns to the foreground."
        }
        if dialogAfter && countdownShown { return "The app goes to the background; the dialog stays and its countdown keeps running." }
        if dialogAfter { return "The app goes to the background; the dialog stays." }
        return "The app goes to the background."
    }
}

// Split out of ToolUnitTests.swift so that each file holds one suite, named as the file (issue 39).

import Testing
import hnb
@testable import ScenarioLanguage
import hnbTesting
@testable import callmonitor

@Suite("callmonitor demo: narration and frame")
struct DemoPartsTests {
    @Test("A tap is told by its outcome: nothing to tap, refused, accepted; an exit by its cause")
    func taps() {
        #expect(DemoNarrator.tapped(button: nil, dialogShown: false, effects: []) == "There is no dialog, so there is nothing to tap.")
        #expect(DemoNarrator.tapped(button: nil, dialogShown: true, effects: []) == "The dialog shows no button yet: there is nothing to tap.")
        #expect(DemoNarrator.tapped(button: "Acknowledge", dialogShown: true, effects: [.dismiss])
                == "The user taps Acknowledge: the monitor accepts it and the warning stays away for the rest of this call.")
        #expect(DemoNarrator.tapped(button: "Acknowledge", dialogShown: true, effects: []) == "The user taps Acknowledge: the monitor refuses it and nothing changes.")
        #expect(DemoNarrator.exited(code: 0, tapped: "Close App") == "The user taps Close App while a call is live: the app is force-exited with exit(0).")
        #expect(DemoNarrator.exited(code: 0, tapped: nil) == "The countdown reached 0 with a call still live: the app is force-exited with exit(0).")
    }

    @Test("Background and foreground mention a countdown or a dialog only when one is on screen")
    func appState() {
        let alert = SecurityAlert(flow: .terminate, remaining: 3, strings: .english)
        #expect(DemoNarrator.appStateChanged(toForeground: false, dialogBefore: false, dialogAfter: false, countdownShown: false, effects: []) == "The app goes to the background.")
        #expect(DemoNarrator.appStateChanged(toForeground: false, dialogBefore: true, dialogAfter: true, countdownShown: true, effects: [])
                == "The app goes to the background; the dialog stays and its countdown keeps running.")
        #expect(DemoNarrator.appStateChanged(toForeground: false, dialogBefore: true, dialogAfter: true, countdownShown: false, effects: []) == "The app goes to the background; the dialog stays.")
        #expect(DemoNarrator.appStateChanged(toForeground: true, dialogBefore: false, dialogAfter: true, countdownShown: true, effects: [.alert(alert)])
                == "The app returns to the foreground with a call live: the security dialog appears.")
        #expect(DemoNarrator.appStateChanged(toForeground: true, dialogBefore: true, dialogAfter: true, countdownShown: true, effects: []) == "The app returns to the foreground.")
    }

    @Test("A frame keeps the header on top, leaves the last row free, and drops whole old sentences first")
    func frame() {
        let screen = DemoScreen(header: "CallMonitor demo - monitoring on: terminate flow, 5-second countdown.", status: "calls: idle | app: foreground | speed x1",
                                keys: nil, dialog: ["BOX"], narration: ["first sentence that is long enough to wrap", "second", "third"], style: Style(enabled: false))
        #expect(screen.lines(columns: 30, rows: 9) == [
            "CallMonitor demo - monitoring…", "calls: idle | app: foreground…", "", "BOX", "", "second", "third",
        ])
        #expect(screen.lines(columns: 30, rows: 10) == [
            "CallMonitor demo - monitoring…", "calls: idle | app: foreground…", "", "BOX", "", "first sentence that is long", "enough to wrap", "second", "third",
        ])
    }
}

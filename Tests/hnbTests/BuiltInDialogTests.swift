// The built-in dialog's model: its texts per flow, the strings chain, the countdown formatter,
// and a hidden button that cannot act.

import Testing
@testable import hnb

@Suite("Built-in dialog model", .nothingLeftScheduled)
struct BuiltInDialogTests {
    @Test("Terminate: title, message, countdown and Close App at every value")
    func terminateAlert() {
        let alert = SecurityAlert(flow: .terminate, remaining: 7, strings: .english)
        #expect(alert == SecurityAlert(
            flow: .terminate,
            title: "Security Policy",
            message: "Application access is disabled during active calls for your protection.",
            countdown: "App will close in 7 seconds.",
            button: "Close App",
            remaining: 7
        ))
        #expect(SecurityAlert(flow: .terminate, remaining: 0, strings: .english).button == "Close App")
    }

    @Test("Acknowledge: countdown without button, then button without countdown")
    func acknowledgeAlert() {
        let waiting = SecurityAlert(flow: .acknowledge, remaining: 30, strings: .english)
        #expect(waiting.message == "Using this application during an active call may expose sensitive information.")
        #expect(waiting.countdown == "Acknowledge in 30 seconds.")
        #expect(waiting.button == nil)
        let ready = SecurityAlert(flow: .acknowledge, remaining: 0, strings: .english)
        #expect(ready.countdown == nil)
        #expect(ready.button == "Acknowledge")
    }

    @Test("A table's entry wins, an empty one falls through to the English default")
    func tableFallThrough() {
        let strings = CallMonitorStrings(tables: [
            { key in
                key == CallMonitorStrings.Key.alertTitle.rawValue ? "Sicherheitshinweis"
                    : (key == CallMonitorStrings.Key.buttonClose.rawValue ? "" : nil)
            },
        ])
        #expect(strings.text(.alertTitle) == "Sicherheitshinweis")
        #expect(strings.text(.buttonClose) == "Close App")
    }

    @Test("Countdown templates are filled without a C formatter", arguments: [
        ("App will close in %d seconds.", "App will close in 12 seconds."),
        ("%i / %1$d / %ld / %1$lld", "12 / 12 / 12 / 12"),
        ("100%% sure in %d", "100% sure in 12"),
        ("%@ %s %n %x %2$d %", "%@ %s %n %x %2$d %"),
        ("no placeholder", "no placeholder"),
        ("%", "%"),
        ("%%d", "%d"),
        ("%lllld", "%lllld"),
        ("", ""),
        ("Ünïcødé %d ✓", "Ünïcødé 12 ✓"),
    ])
    func countFormatter(template: String, expected: String) {
        #expect(CountFormatter.format(template, count: 12) == expected)
    }

    @Test("The built-in dialog ignores its button's action while the button is hidden")
    @MainActor
    func hiddenButtonIgnored() {
        let renderer = CapturingRenderer()
        let ui = BuiltInDialog(renderer: renderer, strings: .english)
        var actions = 0
        ui.show(scene(.present(tellsVerdict: false), remaining: 2, button: .hidden)) { actions += 1 }
        renderer.lastOnButton?()
        #expect(actions == 0)
        ui.show(scene(.tick, remaining: 0, button: .available)) { actions += 1 }
        renderer.lastOnButton?()
        #expect(actions == 1)
    }
}

/// An acknowledge event's scene on the built-in dialog, as the engine would emit it.
private func scene(_ change: MonitorEngine.Scene.Change, remaining: Int32, button: MonitorEngine.Button) -> MonitorEngine.Scene {
    MonitorEngine.Scene(change, flow: .acknowledge, remaining: remaining, token: 1, button: button, verdict: .unknown, context: nil, on: .builtInDialog)
}

/// Keeps the raw button action a renderer is given, to press it even when no button is drawn.
@MainActor
final class CapturingRenderer: SecurityAlertRenderer {
    private(set) var lastOnButton: (@MainActor () -> Void)?
    func render(_ alert: SecurityAlert, onButton: @escaping @MainActor () -> Void) { lastOnButton = onButton }
    func dismiss() { lastOnButton = nil }
}

// The built-in dialog laid out for a terminal: widths, wrapping, the plain form below 60
// columns, and the width rule (window size, then COLUMNS, then 80).

import Testing
import hnb
import hnbTesting
@testable import callmonitor

@Suite("Terminal layout")
struct TerminalLayoutTests {
    let english = SecurityAlert(flow: .terminate, remaining: 5, strings: .english)

    @Test("At 80 columns the English terminate dialog keeps each field on one line, 75 columns wide")
    func english80() {
        let lines = TerminalDialogLayout(alert: english, columns: 80).lines()
        func row(_ text: String) -> String { "| " + text + String(repeating: " ", count: 71 - text.count) + " |" }
        #expect(lines == [
            "+" + String(repeating: "-", count: 73) + "+",
            row("Security Policy"),
            "| Application access is disabled during active calls for your protection. |",
            row("App will close in 5 seconds."),
            row("[ Close App ]"),
            "+" + String(repeating: "-", count: 73) + "+",
        ])
        #expect(lines.allSatisfy { $0.count == 75 })
    }

    @Test("At 60 columns the message wraps at a space inside a 60-column box")
    func english60() {
        let layout = TerminalDialogLayout(alert: english, columns: 60)
        #expect(layout.isBoxed)
        #expect(layout.textColumns == 56)
        #expect(layout.rows.map(\.text) == [
            "Security Policy",
            "Application access is disabled during active calls for",
            "your protection.",
            "App will close in 5 seconds.",
            "[ Close App ]",
        ])
        #expect(layout.lines().allSatisfy { $0.count == 60 })
    }

    @Test("Below 60 columns the dialog is plain lines, wrapped to the width", arguments: [59, 40, 20])
    func plain(columns: Int) {
        let layout = TerminalDialogLayout(alert: english, columns: columns)
        #expect(!layout.isBoxed)
        let lines = layout.lines()
        #expect(lines.allSatisfy { $0.count <= columns })
        #expect(!lines.contains { $0.hasPrefix("+") || $0.hasPrefix("|") })
        #expect(lines.first == "Security Policy")
        #expect(lines.last == "[ Close App ]")
    }

    @Test("No box is ever wider than the terminal, in any shipped language, at any width from 60 to 120",
          arguments: LanguageMatcher.shipped)
    func everyLanguageFits(language: String) {
        let strings = CallMonitorStrings.localized(language: language, appBundle: nil)
        for flow in [CallMonitorFlow.terminate, .acknowledge] {
            for remaining: Int32 in [0, 30] {
                let alert = SecurityAlert(flow: flow, remaining: remaining, strings: strings)
                for columns in 60...120 {
                    let lines = TerminalDialogLayout(alert: alert, columns: columns).lines()
                    #expect(lines.allSatisfy { TerminalText.width($0) <= columns }, "\(language) at \(columns)")
                    #expect(Set(lines.map(\.count)).count == 1, "ragged box in \(language) at \(columns)")
                }
            }
        }
    }

    @Test("Wrapping breaks at spaces, cuts only a word longer than the line, and ignores colour codes")
    func wrap() {
        #expect(TerminalText.wrap("one two three", width: 7) == ["one two", "three"])
        #expect(TerminalText.wrap("abcdefghij xy", width: 4) == ["abcd", "efgh", "ij", "xy"])
        #expect(TerminalText.wrap("", width: 10) == [""])
        #expect(TerminalText.wrap("a  b", width: 0) == ["a", "b"])
        #expect(TerminalText.width("\u{1B}[2m[00:01.0]\u{1B}[0m ok") == 12)
        #expect(TerminalText.wrap("\u{1B}[1mbold\u{1B}[0m word", width: 9) == ["\u{1B}[1mbold\u{1B}[0m word"])
        #expect(TerminalText.stripped("\u{1B}[31mred\u{1B}[0m") == "red")
    }

    @Test("Width: the window's report wins, then a positive COLUMNS, then 80", arguments: [
        (Int?.some(100), ["COLUMNS": "60"], 100),
        (Int?.some(0), ["COLUMNS": "72"], 72),
        (nil, ["COLUMNS": " 90 "], 90),
        (nil, ["COLUMNS": "wide"], 80),
        (nil, ["COLUMNS": "-5"], 80),
        (nil, ["COLUMNS": "0"], 80),
        (nil, ["COLUMNS": "99999999"], 80),
        (nil, [:], 80),
    ])
    func width(reported: Int?, environment: [String: String], expected: Int) {
        #expect(TerminalWidth.columns(reported: reported, environment: environment) == expected)
    }

    @Test("Rows: the window's report wins, then LINES, then 24")
    func rows() {
        #expect(TerminalWidth.rows(reported: 20, environment: ["LINES": "50"]) == 20)
        #expect(TerminalWidth.rows(reported: nil, environment: ["LINES": "50"]) == 50)
        #expect(TerminalWidth.rows(reported: 0, environment: [:]) == 24)
    }

    @Test("A descriptor that is not a terminal reports no window size")
    func notATerminal() {
        #expect(TerminalWidth.windowSize(-1) == nil)
    }
}

// Moved from PartsTests with the renderer, which now belongs to the tool.
extension TerminalLayoutTests {
    @Test("The terminal renderer writes each frame, one dismissal, and taps only a drawn button")
    @MainActor
    func terminalRenderer() {
        var frames: [String] = []
        var taps = 0
        let renderer = TerminalAlertRenderer { frames.append($0) }
        renderer.render(SecurityAlert(flow: .acknowledge, remaining: 1, strings: .english)) { taps += 1 }
        #expect(!renderer.tapButton())
        renderer.render(SecurityAlert(flow: .acknowledge, remaining: 0, strings: .english)) { taps += 1 }
        #expect(renderer.tapButton())
        renderer.dismiss()
        renderer.dismiss()
        #expect(!renderer.tapButton())
        #expect(taps == 1)
        #expect(frames.count == 3)
        #expect(frames[0].contains("| Acknowledge in 1 second."))
        #expect(frames[1].contains("| [ Acknowledge ]"))
        #expect(frames[2] == "[security dialog dismissed]\n")
        #expect(renderer.current == nil)
    }

    @Test("The terminal box lists each field on its own line")
    func terminalBox() {
        let box = TerminalAlertRenderer.box(for: SecurityAlert(flow: .acknowledge, remaining: 0, strings: .english))
        #expect(box.split(separator: "\n").count == 5)
        #expect(box.contains("| [ Acknowledge ]"))
    }
}

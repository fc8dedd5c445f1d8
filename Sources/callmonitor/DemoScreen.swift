// The demo's screen: colours that disappear when the output is not a terminal, and the layout of
// one frame (writing goes through `Output`).

/// ANSI styling that is switched off entirely when the output is not a terminal.
struct Style {
    let enabled: Bool

    func apply(_ code: String, _ text: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func bold(_ text: String) -> String { apply("1", text) }
    func dim(_ text: String) -> String { apply("2", text) }
    func red(_ text: String) -> String { apply("31", text) }
    func yellow(_ text: String) -> String { apply("33", text) }
    func green(_ text: String) -> String { apply("32", text) }
    func cyan(_ text: String) -> String { apply("36", text) }
    func inverse(_ text: String) -> String { apply("7", text) }

    /// Moves the cursor to the top-left corner, where each frame starts.
    var home: String { enabled ? "\u{1B}[H" : "" }
    /// Clears from the cursor to the end of its line: what is left of a longer previous line.
    var clearToEndOfLine: String { enabled ? "\u{1B}[K" : "" }
    /// Clears from the cursor to the end of the screen: rows the previous frame used below.
    /// Unlike clearing the whole screen, this never pushes a copy of the screen into scrollback.
    var clearBelow: String { enabled ? "\u{1B}[J" : "" }
}

/// One frame of the demo on a terminal, laid out for its size: the header and status on the
/// top lines, the keys, the dialog, then as much of the latest narration as fits, each line
/// wrapped at word boundaries. Pure, so the layout is tested without a terminal.
struct DemoScreen {
    var header: String
    var status: String
    var keys: String?
    /// The dialog's lines, already laid out for the width; nil when no dialog is shown.
    var dialog: [String]?
    var narration: [String]
    var style: Style

    /// At most `rows - 1` lines (at least one), none wider than `columns`.
    func lines(columns: Int, rows: Int) -> [String] {
        var top = [fit(style.bold(header), columns), fit(style.dim(status), columns)]
        if let keys { top += TerminalText.wrap(keys, width: columns).map(style.dim) }
        top.append("")
        top += dialog ?? [style.dim("(no security dialog on screen)")]
        top.append("")
        // The last row stays empty: the shell's prompt lands there after the exit, and nothing
        // ever writes a newline at the bottom edge, which would scroll the header away.
        let usable = max(1, rows - 1)
        var room = max(0, usable - top.count)
        // Whole sentences, newest last: a sentence cut in half at the top reads as nonsense.
        var story: [String] = []
        for entry in narration.reversed() {
            let wrapped = TerminalText.wrap(entry, width: columns)
            guard wrapped.count <= room else { break }
            story.insert(contentsOf: wrapped, at: 0)
            room -= wrapped.count
        }
        return Array((top + story).prefix(usable))
    }

    /// One line, cut with an ellipsis when it is wider than the terminal: a header must never wrap.
    private func fit(_ text: String, _ columns: Int) -> String {
        guard TerminalText.width(text) > columns else { return text }
        let plain = TerminalText.stripped(text)
        return String(plain.prefix(max(0, columns - 1))) + "…"
    }
}

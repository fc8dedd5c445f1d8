// The built-in dialog drawn for a person at a terminal: a box of text on standard error, laid out
// for the terminal's width, and the pure layout and width rules the demo shares. The tool's own.

import hnb
import hnbTesting

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Draws the security dialog as a text box on standard error, and only when standard error is a
/// terminal, so a server's logs or a test's output stay clean.
///
/// A terminal has no button to click; ``tapButton()`` performs it for code that drives the
/// dialog (a key handler, a test).
public final class TerminalAlertRenderer: SecurityAlertRenderer {
    /// Keeps the dialog and its button; this class only adds the drawing.
    private let state = SimulatedAlertRenderer()
    private let write: @MainActor (String) -> Void
    private let columns: @MainActor () -> Int

    /// The last dialog drawn, or `nil` when none is on screen.
    public var current: SecurityAlert? { state.current }

    /// A renderer that writes to standard error when it is a terminal, laid out for the
    /// terminal's width at each frame (a resized window gets the new width at the next tick).
    public nonisolated init() {
        let enabled = Output.isTerminal(2)
        columns = { TerminalWidth.current(fileDescriptor: 2) }
        write = { text in
            guard enabled else { return }
            Output.error(text)
        }
    }

    /// A renderer that hands each frame of text, laid out for `columns`, to `write`.
    ///
    /// - Parameters:
    ///   - columns: The width to lay the dialog out for (see ``TerminalDialogLayout``).
    ///   - write: Receives each frame.
    public nonisolated init(columns: Int = TerminalWidth.fallback, write: @escaping @MainActor (String) -> Void) {
        self.write = write
        self.columns = { columns }
    }

    /// Draws `alert` and keeps `onButton` for ``tapButton()``.
    public func render(_ alert: SecurityAlert, onButton: @escaping @MainActor () -> Void) {
        state.render(alert, onButton: onButton)
        write(Self.box(for: alert, columns: columns()))
    }

    /// Says that the dialog went away (a terminal cannot take text back).
    public func dismiss() {
        guard state.current != nil else { return }
        state.dismiss()
        write("[security dialog dismissed]\n")
    }

    /// Taps the button if the dialog shows one; returns whether it did.
    @discardableResult
    public func tapButton() -> Bool { state.tapButton() }

    /// The dialog as plain text for a terminal `columns` wide: a box when there is room (at
    /// least ``TerminalDialogLayout/minimumBoxColumns``), otherwise one plain line per row.
    ///
    /// - Parameters:
    ///   - alert: The dialog to draw.
    ///   - columns: The terminal's width; the default leaves every field on one line.
    public nonisolated static func box(for alert: SecurityAlert, columns: Int = .max) -> String {
        TerminalDialogLayout(alert: alert, columns: columns).text()
    }
}

/// The built-in dialog laid out for a terminal of a given width: the box's rows, each field
/// wrapped at word boundaries inside it, never wider than the terminal.
///
/// Below ``minimumBoxColumns`` a box would leave too little room for the text, so the dialog
/// becomes plain lines (title, message, verdict, countdown, button), still wrapped to the width.
public struct TerminalDialogLayout: Sendable, Equatable {
    /// Which field of the dialog a row shows, so a caller can colour it.
    public enum Part: Sendable, Equatable {
        /// The dialog's title.
        case title
        /// The dialog's body.
        case message
        /// The bank's verdict line (rule 24), when there is one.
        case verdict
        /// The countdown line.
        case countdown
        /// The button, drawn as `[ Title ]`.
        case button
    }

    /// One row of text inside the dialog (without the box's borders and padding).
    public struct Row: Sendable, Equatable {
        /// The field this row belongs to.
        public var part: Part
        /// The row's text; at most ``TerminalDialogLayout/textColumns`` wide.
        public var text: String
    }

    /// The narrowest terminal that gets a box.
    public static let minimumBoxColumns = 60

    /// The rows, in order.
    public let rows: [Row]
    /// Whether the rows are drawn inside a box (false below ``minimumBoxColumns``).
    public let isBoxed: Bool
    /// The width of the text area: inside the box, or the whole line when not boxed.
    public let textColumns: Int

    /// Lays `alert` out for a terminal `columns` wide.
    ///
    /// - Parameters:
    ///   - alert: The dialog.
    ///   - columns: The terminal's width; values below 1 are treated as 1.
    public init(alert: SecurityAlert, columns: Int) {
        let columns = max(1, columns)
        var fields: [(Part, String)] = [(.title, alert.title), (.message, alert.message)]
        if let verdict = alert.verdict { fields.append((.verdict, verdict)) }
        if let countdown = alert.countdown { fields.append((.countdown, countdown)) }
        if let button = alert.button { fields.append((.button, "[ \(button) ]")) }
        let natural = fields.map { TerminalText.width($0.1) }.max() ?? 0
        isBoxed = columns >= Self.minimumBoxColumns
        // A box costs four columns: "| " and " |".
        textColumns = isBoxed ? min(natural, columns - 4) : columns
        let width = textColumns
        rows = fields.flatMap { part, text in TerminalText.wrap(text, width: width).map { Row(part: part, text: $0) } }
    }

    /// The dialog as text, one line per row with a newline after each.
    ///
    /// - Parameters:
    ///   - paint: Styles a row's text (its padding stays unstyled); the default adds nothing.
    ///   - border: Styles the box's border characters.
    public func text(
        paint: (Part, String) -> String = { $1 },
        border: (String) -> String = { $0 }
    ) -> String {
        lines(paint: paint, border: border).map { $0 + "\n" }.joined()
    }

    /// The dialog's lines without newlines (see ``text(paint:border:)``).
    public func lines(
        paint: (Part, String) -> String = { $1 },
        border: (String) -> String = { $0 }
    ) -> [String] {
        guard isBoxed else { return rows.map { paint($0.part, $0.text) } }
        let rule = border("+" + String(repeating: "-", count: textColumns + 2) + "+")
        let body = rows.map { row in
            let padding = String(repeating: " ", count: max(0, textColumns - TerminalText.width(row.text)))
            return border("|") + " " + paint(row.part, row.text) + padding + " " + border("|")
        }
        return [rule] + body + [rule]
    }
}

/// Word wrapping by terminal columns.
public enum TerminalText {
    /// The columns `text` takes in a terminal: one per character, none for ANSI escape
    /// sequences (colours). Every shipped language is written in scripts one column wide, and
    /// combining marks belong to their character already.
    public static func width(_ text: String) -> Int { stripped(text).count }

    /// `text` without its ANSI escape sequences (`ESC [ … final-letter`).
    public static func stripped(_ text: String) -> String {
        guard text.contains("\u{1B}") else { return text }
        var out = ""
        var inEscape = false
        var sawBracket = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if !sawBracket { sawBracket = scalar == "["; if !sawBracket { inEscape = false }; continue }
                if (0x40...0x7E).contains(scalar.value) { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" { inEscape = true; sawBracket = false; continue }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// `text` broken into lines at most `width` columns wide, at spaces; a word longer than a
    /// whole line is cut, since nothing else fits. Always at least one line.
    ///
    /// - Parameters:
    ///   - text: The text; runs of spaces between words collapse to one at a break.
    ///   - width: The line width; values below 1 are treated as 1.
    public static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            if current.isEmpty {
                // fallthrough to the cutting loop below
            } else if self.width(current) + 1 + self.width(word) <= width {
                current += " " + word
                continue
            } else {
                lines.append(current)
                current = ""
            }
            while self.width(word) > width {
                lines.append(String(word.prefix(width)))
                word = String(word.dropFirst(width))
            }
            current = word
        }
        lines.append(current)
        return lines
    }
}

/// The width of a terminal: the window size the system reports, else `COLUMNS`, else 80.
public enum TerminalWidth {
    /// The width assumed when nothing says otherwise: the classic terminal's.
    public static let fallback = 80

    /// The width from what the system reported and the environment: a reported width above 0
    /// wins (it follows resizes); then a positive whole `COLUMNS`; then ``fallback``.
    ///
    /// - Parameters:
    ///   - reported: The window's columns from `TIOCGWINSZ`, or nil when the call failed (not a
    ///     terminal); 0 means the terminal did not say.
    ///   - environment: The process environment, read for `COLUMNS`.
    public static func columns(reported: Int?, environment: [String: String]) -> Int {
        if let reported, reported > 0 { return reported }
        if let text = environment["COLUMNS"]?.trimmingSpaces, let value = Int(text), value > 0, value <= 10_000 {
            return value
        }
        return fallback
    }

    /// The rows counterpart of ``columns(reported:environment:)``, read from `LINES`; 24 by default.
    ///
    /// - Parameters:
    ///   - reported: The window's rows from `TIOCGWINSZ`, or nil.
    ///   - environment: The process environment, read for `LINES`.
    public static func rows(reported: Int?, environment: [String: String]) -> Int {
        if let reported, reported > 0 { return reported }
        if let text = environment["LINES"]?.trimmingSpaces, let value = Int(text), value > 0, value <= 10_000 {
            return value
        }
        return 24
    }

    /// The width of the terminal on `fileDescriptor` now (the system call is the only impure part).
    ///
    /// - Parameter fileDescriptor: A descriptor open on the terminal, such as 1 or 2.
    public static func current(fileDescriptor: Int32) -> Int {
        columns(reported: windowSize(fileDescriptor)?.columns, environment: environmentVariables())
    }

    /// The terminal's rows on `fileDescriptor` now.
    ///
    /// - Parameter fileDescriptor: A descriptor open on the terminal.
    public static func currentRows(fileDescriptor: Int32) -> Int {
        rows(reported: windowSize(fileDescriptor)?.rows, environment: environmentVariables())
    }

    /// `TIOCGWINSZ`, or nil when `fileDescriptor` is not a terminal.
    static func windowSize(_ fileDescriptor: Int32) -> (columns: Int, rows: Int)? {
        #if os(Linux) || os(macOS)
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
        #else
        return nil
        #endif
    }

    /// `COLUMNS` and `LINES` from the environment, read with getenv so Foundation is not needed.
    static func environmentVariables() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["COLUMNS", "LINES"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

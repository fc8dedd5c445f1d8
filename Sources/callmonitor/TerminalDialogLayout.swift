// The built-in dialog laid out for a terminal's width: pure, so the renderer, the demo and the
// tests share one layout, and it is tested without a terminal.

import hnb

/// The built-in dialog laid out for a terminal of a given width: the box's rows, each field
/// wrapped at word boundaries inside it, never wider than the terminal.
///
/// Below ``minimumBoxColumns`` a box would leave too little room for the text, so the dialog
/// becomes plain lines (title, message, kind line, detail, coaching line, verdict, countdown, button), still wrapped to the width.
package struct TerminalDialogLayout: Sendable, Equatable {
    /// Which field of the dialog a row shows, so a caller can colour it.
    package enum Part: Sendable, Equatable {
        /// The dialog's title.
        case title
        /// The dialog's body.
        case message
        /// The built-in line of the screen's context kind (rule 29), when there is one.
        case kindLine
        /// The screen's own sentence (rule 29), cleaned, when there is one.
        case detail
        /// The coaching level's line (rule 34), when there is one.
        case coachingLine
        /// The bank's verdict line (rule 24), when there is one.
        case verdict
        /// The countdown line.
        case countdown
        /// The button, drawn as `[ Title ]`.
        case button
    }

    /// One row of text inside the dialog (without the box's borders and padding).
    package struct Row: Sendable, Equatable {
        /// The field this row belongs to.
        package var part: Part
        /// The row's text; at most ``TerminalDialogLayout/textColumns`` wide.
        package var text: String
    }

    /// The narrowest terminal that gets a box.
    package static let minimumBoxColumns = 60

    /// The rows, in order.
    package let rows: [Row]
    /// Whether the rows are drawn inside a box (false below ``minimumBoxColumns``).
    package let isBoxed: Bool
    /// The width of the text area: inside the box, or the whole line when not boxed.
    package let textColumns: Int

    /// Lays `alert` out for a terminal `columns` wide.
    ///
    /// - Parameters:
    ///   - alert: The dialog.
    ///   - columns: The terminal's width; values below 1 are treated as 1.
    package init(alert: SecurityAlert, columns: Int) {
        let columns = max(1, columns)
        var fields: [(Part, String)] = [(.title, alert.title), (.message, alert.message)]
        if let kindLine = alert.kindLine { fields.append((.kindLine, kindLine)) }
        if let detail = alert.detail { fields.append((.detail, detail)) }
        if let coachingLine = alert.coachingLine { fields.append((.coachingLine, coachingLine)) }
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
    package func text(
        paint: (Part, String) -> String = { $1 },
        border: (String) -> String = { $0 }
    ) -> String {
        lines(paint: paint, border: border).map { $0 + "\n" }.joined()
    }

    /// The dialog's lines without newlines (see ``text(paint:border:)``).
    package func lines(
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

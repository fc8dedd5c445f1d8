// The built-in dialog drawn for a person at a terminal: a box of text on standard error, laid out
// for the terminal's width (TerminalDialogLayout.swift). The tool's own.

import hnb
import hnbTesting

/// Draws the security dialog as a text box on standard error, and only when standard error is a
/// terminal, so a server's logs or a test's output stay clean.
///
/// A terminal has no button to click; ``tapButton()`` performs it for code that drives the
/// dialog (a key handler, a test).
package final class TerminalAlertRenderer: SecurityAlertRenderer {
    /// Keeps the dialog and its button; this class only adds the drawing.
    private let state = SimulatedAlertRenderer()
    private let write: @MainActor (String) -> Void
    private let columns: @MainActor () -> Int

    /// The last dialog drawn, or `nil` when none is on screen.
    package var current: SecurityAlert? { state.current }

    /// A renderer that writes to standard error when it is a terminal, laid out for the
    /// terminal's width at each frame (a resized window gets the new width at the next tick).
    package nonisolated init() {
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
    package nonisolated init(columns: Int = TerminalWidth.fallback, write: @escaping @MainActor (String) -> Void) {
        self.write = write
        self.columns = { columns }
    }

    /// Draws `alert` and keeps `onButton` for ``tapButton()``.
    package func render(_ alert: SecurityAlert, onButton: @escaping @MainActor () -> Void) {
        state.render(alert, onButton: onButton)
        write(Self.box(for: alert, columns: columns()))
    }

    /// Says that the dialog went away (a terminal cannot take text back).
    package func dismiss() {
        guard state.current != nil else { return }
        state.dismiss()
        write("[security dialog dismissed]\n")
    }

    /// Taps the button if the dialog shows one; returns whether it did.
    @discardableResult
    package func tapButton() -> Bool { state.tapButton() }

    /// The dialog as plain text for a terminal `columns` wide: a box when there is room (at
    /// least ``TerminalDialogLayout/minimumBoxColumns``), otherwise one plain line per row.
    ///
    /// - Parameters:
    ///   - alert: The dialog to draw.
    ///   - columns: The terminal's width; the default leaves every field on one line.
    package nonisolated static func box(for alert: SecurityAlert, columns: Int = .max) -> String {
        TerminalDialogLayout(alert: alert, columns: columns).text()
    }
}

// The built-in dialog on systems without UIKit: a box of text on standard error.

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

    /// The last dialog drawn, or `nil` when none is on screen.
    public var current: SecurityAlert? { state.current }

    /// A renderer that writes to standard error when it is a terminal.
    public nonisolated init() {
        let enabled = isatty(2) == 1
        write = { text in
            guard enabled else { return }
            // write(2) rather than the C `stderr` global, which strict concurrency rejects.
            let bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { systemWrite(2, $0.baseAddress! + offset, $0.count - offset) }
                if written <= 0 { break }
                offset += written
            }
        }
    }

    /// A renderer that hands each frame of text to `write`.
    public nonisolated init(write: @escaping @MainActor (String) -> Void) {
        self.write = write
    }

    public func render(_ alert: SecurityAlert, onButton: @escaping @MainActor () -> Void) {
        state.render(alert, onButton: onButton)
        write(Self.box(for: alert))
    }

    public func dismiss() {
        guard state.current != nil else { return }
        state.dismiss()
        write("[security dialog dismissed]\n")
    }

    /// Taps the button if the dialog shows one; returns whether it did.
    @discardableResult
    public func tapButton() -> Bool { state.tapButton() }

    /// The dialog as a box of plain text, one line per field.
    public nonisolated static func box(for alert: SecurityAlert) -> String {
        var lines = [alert.title, alert.message]
        if let countdown = alert.countdown { lines.append(countdown) }
        if let button = alert.button { lines.append("[ \(button) ]") }
        let width = lines.map(\.count).max() ?? 0
        let rule = "+" + String(repeating: "-", count: width + 2) + "+"
        let body = lines.map { "| " + $0 + String(repeating: " ", count: width - $0.count) + " |" }
        return ([rule] + body + [rule]).joined(separator: "\n") + "\n"
    }
}

/// `write(2)` under a name that does not clash with the renderer's own `write` property.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

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
/// The button cannot be clicked here; ``tapButton()`` performs it (the `callmonitor demo`
/// binds it to a key).
public final class TerminalAlertRenderer: SecurityAlertRenderer {
    private var onButton: (@MainActor () -> Void)?
    private let write: @MainActor (String) -> Void

    /// The last dialog drawn, or `nil` when none is on screen.
    public private(set) var current: SecurityAlert?

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
        current = alert
        self.onButton = onButton
        write(Self.box(for: alert))
    }

    public func dismiss() {
        guard current != nil else { return }
        current = nil
        onButton = nil
        write("[security dialog dismissed]\n")
    }

    /// Taps the button if the dialog shows one.
    public func tapButton() {
        guard current?.button != nil else { return }
        onButton?()
    }

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

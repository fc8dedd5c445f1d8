// The built-in dialog of the shared instance on systems without UIKit (Linux, macOS command-line
// processes): the dialog's lines as plain text on standard error. The laid-out terminal box lives
// in the `callmonitor` tool, which is the one place that draws for a person at a terminal.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes each frame of the dialog (title, message, countdown, button) to standard error, and
/// only when standard error is a terminal, so a server's logs or a test's output stay clean.
final class StandardErrorAlertRenderer: SecurityAlertRenderer {
    private let enabled: Bool
    private var shown = false

    nonisolated init() { enabled = isatty(2) == 1 }

    func render(_ alert: SecurityAlert, onButton: @escaping @MainActor () -> Void) {
        shown = true
        let lines = [alert.title, alert.message, alert.verdict, alert.countdown, alert.button.map { "[ \($0) ]" }]
        write(lines.compactMap { $0 }.joined(separator: "\n") + "\n")
    }

    func dismiss() {
        guard shown else { return }
        shown = false
        write("[security dialog dismissed]\n")
    }

    private func write(_ text: String) {
        guard enabled else { return }
        // write(2) rather than the C `stderr` global, which strict concurrency rejects.
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Darwin)
                Darwin.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                #elseif canImport(Glibc)
                Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                Musl.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
            }
            if written <= 0 { break }
            offset += written
        }
    }
}

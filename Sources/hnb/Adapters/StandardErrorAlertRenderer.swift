// The built-in dialog of the shared instance on systems without UIKit (Linux, macOS command-line
// processes): the dialog's lines as plain text on standard error. The laid-out terminal box lives
// in the `callmonitor` tool, which is the one place that draws for a person at a terminal.

/// Writes each frame of the dialog (title, message, countdown, button) to standard error, and
/// only when standard error is a terminal, so a server's logs or a test's output stay clean.
final class StandardErrorAlertRenderer: SecurityAlertRenderer {
    private let enabled: Bool
    private var shown = false

    nonisolated init() { enabled = FileDescriptorOutput.isTerminal(2) }

    func render(_ alert: SecurityAlert, onButton: @escaping @MainActor () -> Void) {
        shown = true
        let lines = [alert.title] + alert.paragraphs + (alert.button.map { ["[ \($0) ]"] } ?? [])
        write(lines.joined(separator: "\n") + "\n")
    }

    func dismiss() {
        guard shown else { return }
        shown = false
        write("[security dialog dismissed]\n")
    }

    private func write(_ text: String) {
        guard enabled else { return }
        FileDescriptorOutput.write(text, to: 2)
    }
}

// The built-in dialog as a value instead of a drawing: what tests, previews and simulators read
// and tap.

import hnb

/// A built-in-dialog renderer that draws nothing: it keeps the dialog as a value, reports each
/// change, and lets code press the button, as a person could.
///
/// For tests, previews and simulators: check ``isShowing`` (the monitor's
/// `currentSecurityEvent` says what the dialog shows) and call ``tapButton()``. The package's own
/// tests also read the dialog itself (`current`, `onChange`).
public final class SimulatedAlertRenderer: SecurityAlertRenderer {
    private var onButton: (@MainActor () -> Void)?

    /// The dialog on screen, or `nil` when none is shown.
    package private(set) var current: SecurityAlert?

    /// Whether the built-in dialog is on screen.
    public var isShowing: Bool { current != nil }

    /// Told of every change: the new dialog, or `nil` when it was dismissed.
    package var onChange: (@MainActor (SecurityAlert?) -> Void)?

    /// A renderer with nothing on screen.
    public nonisolated init() {}

    /// Keeps `alert` as ``current`` and `onButton` for ``tapButton()``, and tells ``onChange``.
    package func render(_ alert: SecurityAlert, onButton: @escaping @MainActor () -> Void) {
        current = alert
        self.onButton = onButton
        onChange?(alert)
    }

    /// Clears ``current`` and the button, and tells ``onChange`` with `nil`.
    package func dismiss() {
        current = nil
        onButton = nil
        onChange?(nil)
    }

    /// Presses the button if the dialog shows one; returns whether it did.
    @discardableResult
    public func tapButton() -> Bool {
        guard current?.button != nil, let onButton else { return false }
        onButton()
        return true
    }
}

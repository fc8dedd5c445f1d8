// The fields of an `alert` transcript line: one writer for simulate's and watch's transcripts, so
// the dialog reads the same in both.

import hnb

extension JSONLine {
    /// The fields of an `alert` line, the same in simulate and watch transcripts: what the
    /// dialog shows, in the order it shows it, and the verdict line (`null` when none is shown).
    mutating func addAlert(_ alert: SecurityAlert) {
        add("flow", alert.flow.description)
        add("title", alert.title)
        add("message", alert.message)
        add("countdown", alert.countdown)
        add("button", alert.button)
        add("remaining", Int(alert.remaining))
        add("verdict", alert.verdict)
        // Rule 29: `{"kind": "payment", "detail": "..."}` with the detail as drawn, or `null`.
        guard let kind = alert.contextKind else { return add("context", .null) }
        var context = JSONLine()
        context.add("kind", kind.rawValue)
        context.add("detail", alert.detail)
        add("context", .object(context))
    }
}

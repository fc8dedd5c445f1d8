// The fields of an `alert` transcript line: one writer for simulate's and watch's transcripts, so
// the dialog reads the same in both.

import hnb

extension JSONLine {
    /// The fields of an `alert` line, the same in simulate and watch transcripts: what the
    /// dialog shows, in the order it shows it, and the verdict line (`null` when none is shown);
    /// the coaching line (rule 34) only when one is shown, so a transcript without coaching reads
    /// as before.
    mutating func addAlert(_ alert: SecurityAlert) {
        add("flow", alert.flow.description)
        add("title", alert.title)
        add("message", alert.message)
        add("countdown", alert.countdown)
        add("button", alert.button)
        add("remaining", Int(alert.remaining))
        add("verdict", alert.verdict)
        // Rule 29: `{"kind": "payment", "detail": "..."}` with the detail as drawn, or `null`.
        if let kind = alert.contextKind {
            var context = JSONLine()
            context.add("kind", kind.rawValue)
            context.add("detail", alert.detail)
            add("context", .object(context))
        } else {
            add("context", .null)
        }
        // Rule 34: `{"level": "high", "line": "..."}` with the line as drawn.
        if let level = alert.coachingLevel, let line = alert.coachingLine {
            var coaching = JSONLine()
            coaching.add("level", level.description)
            coaching.add("line", line)
            add("coaching", .object(coaching))
        }
    }
}

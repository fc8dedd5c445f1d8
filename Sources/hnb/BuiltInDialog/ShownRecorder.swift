// What the person saw during the event on screen (issue 30, "Outcomes as evidence"): each
// presentation and each frame it showed, kept until the event's outcome takes it. Pure: the
// surface driver feeds it what it drew or told, with the instant.

/// Collects the frames of the event on screen, presentation by presentation.
struct ShownRecorder: Sendable {
    /// The most frames a presentation keeps: the first half of them, and the latest others.
    static let frameLimit = 512

    private(set) var shown: [CallMonitorOutcome.Shown] = []

    /// A presentation begins on `surface` (the event's first, or one after a hand-over).
    mutating func begin(_ surface: CallMonitorOutcome.Surface) {
        shown.append(CallMonitorOutcome.Shown(surface: surface, frames: []))
    }

    /// The built-in dialog drew `alert` at `at`, with `verdict` in force.
    mutating func drew(_ alert: SecurityAlert, verdict: CallMonitorCallVerdict, at: Int64) {
        add(CallMonitorOutcome.Frame(
            at: at, remaining: alert.remaining, title: alert.title, message: alert.message, kindLine: alert.kindLine, detail: alert.detail,
            verdictLine: alert.verdict, countdown: alert.countdown, button: alert.button, contextKind: alert.contextKind, verdict: verdict
        ))
    }

    /// A delegate was told something: `frame` is the whole scene it has been told so far.
    mutating func told(_ frame: CallMonitorOutcome.Frame) {
        add(frame)
    }

    /// The record so far, and a fresh start for the next event.
    mutating func take() -> [CallMonitorOutcome.Shown] {
        defer { shown = [] }
        return shown
    }

    /// A frame the same as the one before it shows nothing new and is not kept; a frame with no
    /// presentation begun (which the driver never sends) starts one on the built-in dialog rather
    /// than being lost.
    private mutating func add(_ frame: CallMonitorOutcome.Frame) {
        if shown.isEmpty { begin(.builtInDialog) }
        if let last = shown[shown.count - 1].frames.last, Self.sameContent(last, frame) { return }
        shown[shown.count - 1].frames.append(frame)
        if shown[shown.count - 1].frames.count > Self.frameLimit {
            // The beginning shows what the person was first told, the end what they saw last;
            // the middle of a very long countdown is its values, which follow from the clock.
            shown[shown.count - 1].frames.remove(at: Self.frameLimit / 2)
            shown[shown.count - 1].framesOmitted += 1
        }
    }

    private static func sameContent(_ a: CallMonitorOutcome.Frame, _ b: CallMonitorOutcome.Frame) -> Bool {
        var b = b
        b.at = a.at
        return a == b
    }
}

#if DEBUG
// Equality that only the tests use, left out of release builds (CONTRIBUTING, "Binary size").
extension ShownRecorder: Equatable {}
#endif

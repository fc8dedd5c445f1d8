// What VoiceOver says on its own while the built-in dialog is on screen (issue 30, WCAG 4.1.3
// Status Messages): the countdown at milestones, not every tick, and a coaching or verdict line
// the moment it appears. Pure, so the choice is tested on Linux; the UIKit renderer only posts it.

/// Chooses the announcement, if any, for a dialog updated in place.
enum Announcements {
    /// Whether `remaining` seconds is a milestone worth saying: every 10 s above 10 (60, 50, … 20),
    /// then 10, 5, 3, 2 and 1. Often enough to know the time is running out, rarely enough that
    /// the person can still hear the rest of the dialog; 0 is not said: the terminate flow exits
    /// then, and the acknowledge flow replaces the alert with one that has the button, which
    /// VoiceOver reads as a new screen.
    static func isMilestone(_ remaining: Int32) -> Bool {
        switch remaining {
        case 1, 2, 3, 5: true
        case 10...: remaining % 10 == 0
        default: false
        }
    }

    /// What to announce when the dialog on screen goes from `drawn` to `next` in place: the
    /// coaching line when it appears or rises (rule 34: an answer comes seconds after the alert,
    /// and a high one means the person is to be told before going on; one that only redraws the
    /// dialog would otherwise never be heard), then the verdict line when it appears or changes
    /// (a status message the person must not miss), then the countdown line when the value moved
    /// to a milestone, in the dialog's reading order. `nil` for nothing: a redraw that changes
    /// only the context or the language, or drops the coaching line, says nothing (the person
    /// reads the dialog), and a countdown value said once is not said again.
    static func announcement(from drawn: SecurityAlert?, to next: SecurityAlert) -> String? {
        var parts: [String] = []
        if let line = next.coachingLine, let level = next.coachingLevel,
           CallMonitor.CoachingLevel.higher(drawn?.coachingLevel, level) != drawn?.coachingLevel { parts.append(line) }
        if let verdict = next.verdict, verdict != drawn?.verdict { parts.append(verdict) }
        if let countdown = next.countdown, next.remaining != drawn?.remaining, isMilestone(next.remaining) { parts.append(countdown) }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}

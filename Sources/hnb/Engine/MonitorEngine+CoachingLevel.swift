// Rule 34's step: the coaching level the event on screen says in its line follows the answers read
// and the protections open, as a redraw only. Which level that is, is `Guards.coachingLevel`'s
// decision; which answers count, `consume` in MonitorEngine+Coaching.swift.
//
// The line is text: nothing here touches a policy, a countdown, a wake-up or a consumption status.

extension CallMonitor.CoachingLevel {
    /// The higher of two levels, `nil` standing for none: `high` over `medium` over `unknown`.
    static func higher(_ a: Self?, _ b: Self?) -> Self? {
        guard let a else { return b }
        guard let b else { return a }
        return a.rawValue >= b.rawValue ? a : b
    }
}

extension MonitorEngine {
    /// Rule 34: an answer read while the event is on screen, or a protection that ended, may
    /// change the level its line says: then only its drawing changes (like the context, rule 29):
    /// no event ends, no countdown moves, no wake-up is touched. An event that began in this step
    /// was presented with the level already.
    mutating func followCoachingLevel(into actions: inout [Action]) {
        guard phase == .on, let shown = shownEventPart({ $0.coachingLevel }) else { return }
        let level = guards.coachingLevel
        guard level != shown else { return }
        changeShownEvent { $0?.showCoaching(level) }
        actions.append(scene(.coachingLevel))
    }
}

// Rule 29's step: the context the event on screen shows follows the protections open, as a
// redraw only. Which context that is, is `Guards.context`'s decision.

extension MonitorEngine {
    /// Rule 29: a protection that began or ended without changing the policy in force may change
    /// which context the event on screen shows: then only its drawing changes (a redraw, like the
    /// verdict line): no event ends, no countdown moves, no wake-up is touched. An event that
    /// began in this step was presented with the context already.
    mutating func followContext(into actions: inout [Action]) {
        guard phase == .on, let event = shownEventPart({ (isCoachingWarning: $0.isCoachingWarning, context: $0.context) }) else {
            return
        }
        // Rule 32: a coaching warning shows the context of the protection whose answer it is.
        let context = event.isCoachingWarning ? guards.noticeContext : guards.context
        guard context != event.context else { return }
        changeShownEvent { $0?.show(context) }
        actions.append(scene(.context))
    }
}

// Outcome assembly (rule 16): the engine's record of an ended event, completed with the wall
// clock, which the engine does not have, and handed to the handler and the streams.

import Foundation

/// Completes each ended event into a ``CallMonitorOutcome`` and delivers it.
@MainActor
final class OutcomeDesk {
    private let wallClock: @Sendable () -> Date
    private let feed: Broadcaster<CallMonitorOutcome>
    private var handler: (@MainActor (CallMonitorOutcome) -> Void)?
    /// The wall-clock time the event on screen was first shown.
    private var startedDate: Date?

    nonisolated init(wallClock: @escaping @Sendable () -> Date, feed: Broadcaster<CallMonitorOutcome>) {
        self.wallClock = wallClock
        self.feed = feed
    }

    func setHandler(_ handler: (@MainActor (CallMonitorOutcome) -> Void)?) {
        self.handler = handler
    }

    /// The event was presented; its first presentation (`beginsEvent`, as the engine says) is its
    /// wall-clock start, a hand-over is not.
    func presented(beginsEvent: Bool) {
        if beginsEvent { startedDate = wallClock() }
    }

    /// Completes the engine's record with the wall clock and hands it out.
    func deliver(_ ended: MonitorEngine.EndedEvent) {
        let started = startedDate ?? wallClock()
        startedDate = nil
        let outcome = CallMonitorOutcome(
            ending: ended.ending, flow: ended.flow, seconds: ended.total,
            startedAt: ended.startedAt, endedAt: ended.endedAt, startedDate: started, endedDate: wallClock(),
            lowestRemaining: ended.lowestRemaining, presentations: ended.presentations,
            wasScreenCaptured: ended.wasScreenCaptured, verdict: ended.verdict, verdictArrivedAt: ended.verdictAt
        )
        handler?(outcome)
        feed.yield(outcome)
    }
}

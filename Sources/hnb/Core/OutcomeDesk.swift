// Outcome delivery (rule 16): the engine's complete record of an ended event, handed to the
// outcome handler, then to the streams.

/// Hands each outcome the engine returns to the handler and the ``CallMonitor/outcomes`` streams.
@MainActor
final class OutcomeDesk {
    private let feed: Broadcaster<CallMonitorOutcome>
    private var handler: (@MainActor (CallMonitorOutcome) -> Void)?

    nonisolated init(feed: Broadcaster<CallMonitorOutcome>) {
        self.feed = feed
    }

    func setHandler(_ handler: (@MainActor (CallMonitorOutcome) -> Void)?) {
        self.handler = handler
    }

    func deliver(_ outcome: CallMonitorOutcome) {
        handler?(outcome)
        feed.yield(outcome)
    }
}

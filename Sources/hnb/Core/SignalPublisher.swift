// The signal publisher: what the app hears of each step besides the UI: the callback and the
// event stream, the risk getters' snapshot on the board, the state objects, the verdict log.

/// Publishes call events and risk snapshots.
@MainActor
final class SignalPublisher {
    private let board: SignalBoard
    private let scheduler: any MonitorScheduler
    private let eventFeed: Broadcaster<CallEvent>
    private var callback: (@MainActor (CallEvent) -> Void)?
    /// Told of each snapshot as it is published (``CallMonitorState``), in the order they were
    /// added: a list, since there are one or two (a dictionary of closures would be one more copy
    /// of the dictionary's code in the binary).
    private var snapshotObservers: [@MainActor (RiskSnapshot) -> Bool] = []
    /// What ``publish(_:)`` last published (the board's copy, without taking its lock).
    private var lastPublished = RiskSnapshot()
    /// Told of every verdict the engine records, with the instant: for the simulator's transcript.
    var verdictObserver: (@MainActor (CallMonitorCallVerdict, Int64) -> Void)?

    nonisolated init(board: SignalBoard, scheduler: any MonitorScheduler, eventFeed: Broadcaster<CallEvent>) {
        self.board = board
        self.scheduler = scheduler
        self.eventFeed = eventFeed
    }

    func setCallback(_ callback: (@MainActor (CallEvent) -> Void)?) {
        self.callback = callback
    }

    func emit(_ event: CallEvent) {
        callback?(event)
        eventFeed.yield(event)
    }

    func recorded(_ verdict: CallMonitorCallVerdict) {
        verdictObserver?(verdict, scheduler.now)
    }

    /// Publishes what the risk getters read, and tells the state objects, when something changed.
    func publish(_ signals: RiskSnapshot) {
        var snapshot = signals
        snapshot.publishedAt = lastPublished.publishedAt
        // Unchanged signals are not published again (most steps change nothing readers see),
        // except for a scheduler whose clock readers cannot use: then `publishedAt` is their "now".
        let changed = !snapshot.sameSignals(as: lastPublished)
        guard changed || !board.hasClock else { return }
        snapshot.publishedAt = scheduler.now
        lastPublished = snapshot
        board.publish(snapshot)
        guard changed else { return }
        // An observer added while the others are told (a state object made in one of them) is
        // kept, and hears from the next snapshot on. Nothing else changes the list meanwhile: a
        // command the app sends from an observer waits until this step is done.
        let told = snapshotObservers
        let kept = told.filter { $0(snapshot) }
        snapshotObservers = kept + snapshotObservers.dropFirst(told.count)
    }

    /// Registers `observer` for every published snapshot until it returns `false` (its owner is
    /// gone; a main-actor object cannot unregister from its deinit).
    func addSnapshotObserver(_ observer: @escaping @MainActor (RiskSnapshot) -> Bool) {
        snapshotObservers.append(observer)
    }
}

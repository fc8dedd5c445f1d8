// A call source fed from any thread by code of the app's own: detection the library lacks.

/// A call source fed by your own code, from any thread: for detection the library does not
/// have (a VoIP stack of your own, a platform bridge), benchmarks and stress tests.
///
/// The source keeps the calls it was told of, so a monitor that starts (or restarts) listening
/// hears of every call still live, as ``CallSource`` requires. Changes sent while no monitor
/// listens are kept the same way and reported at the next start.
///
/// A send never waits for a delivery in progress on another thread, so your stack may send from
/// its own queue while the main thread waits for that queue (a delegate that calls
/// `voipQueue.sync`): the monitor's work, with the app code it calls, never runs under a lock of
/// this source.
public final class ExternalCallSource: CallSource {
    private let state = Locked(ExternalCalls())

    /// A source with no calls and no listener yet.
    public nonisolated init() {}

    /// Delivers the complete list of calls sent so far, then every batch sent, from whichever
    /// thread sent it (batches sent while another thread is delivering are merged into one and
    /// delivered by that thread, right after).
    public func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) {
        handOver(state.withLock { $0.listen(deliver) })
    }

    /// Stops delivering; batches sent afterwards are kept for the next start.
    public func stop() {
        _ = state.withLock { $0.listen(nil) }
    }

    /// Every call reported and not yet ended, in the order first reported.
    public nonisolated var liveCalls: [CallSnapshot] { state.withLock { $0.liveCalls } }

    /// Reports a change of one or more calls. May be called from any thread.
    public nonisolated func send(_ batch: [CallSnapshot]) { send(.changes(batch)) }

    /// Reports changes, or with ``CallBatch/complete(_:)`` the full list of calls (any call not
    /// in it has ended). May be called from any thread.
    public nonisolated func send(_ batch: CallBatch) {
        handOver(state.withLock { $0.record(batch) })
    }
}

extension ExternalCallSource {
    /// Calls the listener with `first`, then with whatever was sent meanwhile, until nothing
    /// waits: outside the lock, so the listener may block, send or stop the source.
    private nonisolated func handOver(_ first: ExternalCalls.Delivery?) {
        var next = first
        while let delivery = next {
            delivery.listener(delivery.batch)
            next = state.withLock { $0.delivered() }
        }
    }
}

/// The calls of an ``ExternalCallSource``, its listener and what the listener has not been
/// handed yet: one value behind the source's ``Locked``, changed only by the methods below.
///
/// The listener is never called under the lock (it runs the monitor's step, and with it the
/// app's delegate, callback and exit, when it is called on the main thread). Order comes from
/// this instead: at most one thread hands batches over at a time (`handingOver`). A thread that
/// sends while another hands over leaves its batch in `waiting`, merged with what waits already
/// (``CallBatch/merged(with:)``, the monitor's own merge), and returns at once; the thread handing
/// over takes it when its delivery returns. So the listener gets the changes in the order the
/// list took them, one batch at a time, never an older state after a newer one, and what waits
/// is bounded by the number of calls however fast other threads send.
///
/// A new listener starts from the complete list, which replaces whatever waited for the old one.
/// A delivery another thread took just before ``listen(_:)`` may still reach the old listener as
/// the source stops; ``CallMonitor`` numbers each run of its source and drops it.
private struct ExternalCalls: Sendable {
    typealias Listener = @Sendable (CallBatch) -> Void

    /// A batch to hand to a listener, taken under the lock and delivered after it.
    struct Delivery {
        let listener: Listener
        let batch: CallBatch
    }

    private var listener: Listener?
    private var calls: [CallID: CallSnapshot] = [:]
    private var order: [CallID] = []
    /// What the listener has not been handed yet, as one batch.
    private var waiting: CallBatch?
    /// Whether a thread is calling the listener now (or about to): it hands over what waits.
    private var handingOver = false

    var liveCalls: [CallSnapshot] { order.compactMap { calls[$0] } }

    /// Sets the listener (`nil`: none); returns what the caller must deliver now, if anything.
    mutating func listen(_ newListener: Listener?) -> Delivery? {
        listener = newListener
        waiting = newListener == nil ? nil : .complete(liveCalls)
        return claim()
    }

    /// Applies `batch` to the list and queues it; returns what the caller must deliver now.
    mutating func record(_ batch: CallBatch) -> Delivery? {
        if batch.isComplete {
            calls.removeAll(keepingCapacity: true)
            order.removeAll(keepingCapacity: true)
        }
        for snapshot in batch.calls {
            if snapshot.hasEnded {
                if calls.removeValue(forKey: snapshot.id) != nil { order.removeAll { $0 == snapshot.id } }
            } else {
                if calls.updateValue(snapshot, forKey: snapshot.id) == nil { order.append(snapshot.id) }
            }
        }
        guard listener != nil else { return nil }
        waiting = waiting.map { $0.merged(with: batch) } ?? batch
        return claim()
    }

    /// The thread that handed a batch over is done with it; returns the next, if one waits.
    mutating func delivered() -> Delivery? {
        handingOver = false
        return claim()
    }

    /// What waits, for the calling thread to deliver, unless another thread is delivering.
    private mutating func claim() -> Delivery? {
        guard !handingOver, let listener, let batch = waiting else { return nil }
        waiting = nil
        handingOver = true
        return Delivery(listener: listener, batch: batch)
    }
}

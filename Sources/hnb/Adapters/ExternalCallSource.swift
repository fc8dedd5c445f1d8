// A call source fed from any thread by code of the app's own: detection the library lacks.

import Foundation

/// A call source fed by your own code, from any thread: for detection the library does not
/// have (a VoIP stack of your own, a platform bridge), benchmarks and stress tests.
///
/// The source keeps the calls it was told of, so a monitor that starts (or restarts) listening
/// hears of every call still live, as ``CallSource`` requires. Changes sent while no monitor
/// listens are kept the same way and reported at the next start.
public final class ExternalCallSource: CallSource {
    private let state = ExternalCalls()

    /// A source with no calls and no listener yet.
    public nonisolated init() {}

    /// Delivers the complete list of calls sent so far, then every batch sent, from whichever thread sent it.
    public func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) {
        state.listen(deliver)
    }

    /// Stops delivering; batches sent afterwards are kept for the next start.
    public func stop() { state.listen(nil) }

    /// Every call reported and not yet ended, in the order first reported.
    public nonisolated var liveCalls: [CallSnapshot] { state.liveCalls }

    /// Reports a change of one or more calls. May be called from any thread.
    public nonisolated func send(_ batch: [CallSnapshot]) { state.send(.changes(batch)) }

    /// Reports changes, or with ``CallBatch/complete(_:)`` the full list of calls (any call not
    /// in it has ended). May be called from any thread.
    public nonisolated func send(_ batch: CallBatch) { state.send(batch) }
}

/// The calls and listener of an ``ExternalCallSource``, shared with the threads that send.
///
/// `@unchecked Sendable`: every access goes through `lock`. The listener is called with the lock
/// held, so that the order of deliveries is the order in which the list changed (two threads
/// sending at once can never leave the monitor with an older state than the list). The lock is
/// recursive because a delivery made on the main thread is applied at once, and the monitor may
/// stop or restart the source from inside it.
private final class ExternalCalls: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var deliver: (@Sendable (CallBatch) -> Void)?
    private var calls: [CallID: CallSnapshot] = [:]
    private var order: [CallID] = []

    var liveCalls: [CallSnapshot] { lock.withLock { order.compactMap { calls[$0] } } }

    func listen(_ listener: (@Sendable (CallBatch) -> Void)?) {
        lock.withLock {
            deliver = listener
            listener?(.complete(order.compactMap { calls[$0] }))
        }
    }

    func send(_ batch: CallBatch) {
        lock.withLock {
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
            deliver?(batch)
        }
    }
}

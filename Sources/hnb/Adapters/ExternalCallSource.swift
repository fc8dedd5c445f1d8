// A call source fed from any thread by code of the app's own: detection the library lacks.

import Dispatch

/// A call source fed by your own code, from any thread: for detection the library does not
/// have (a VoIP stack of your own, a platform bridge), benchmarks and stress tests.
///
/// The source keeps the calls it was told of, so a monitor that starts (or restarts) listening
/// hears of every call still live, as the monitor requires of every call source. Changes sent while no monitor
/// listens are kept the same way and reported at the next start.
///
/// A send from a thread other than the main one never waits for a delivery in progress, so your
/// stack may send from its own queue while the main thread waits for that queue (a delegate that
/// calls `voipQueue.sync`): the monitor's work, with the app code it calls, never runs under a
/// lock of this source. A send on the main thread is applied before it returns.
public final class ExternalCallSource: CallSource {
    private let state = Locked(ExternalCalls())

    /// A source with no calls and no listener yet.
    public nonisolated init() {}

    /// Delivers the complete list of calls sent so far, then every batch sent: on the thread that
    /// sent it, or, if another thread is delivering at that moment, merged with what else waits
    /// and delivered by that thread right after.
    package func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) {
        handOver(state.withLock { $0.listen(deliver, onMain: true) }, onMain: true)
    }

    /// Stops delivering; batches sent afterwards are kept for the next start. Once it returns,
    /// nothing more reaches the listener.
    package func stop() {
        handOver(state.withLock { $0.listen(nil, onMain: true) }, onMain: true)
    }

    /// Every call reported and not yet ended, in the order first reported.
    public nonisolated var liveCalls: [CallSnapshot] { state.withLock { $0.liveCalls } }

    /// Reports a change of one or more calls. May be called from any thread.
    public nonisolated func send(_ batch: [CallSnapshot]) { send(.changes(batch)) }

    /// Reports the complete list of calls right now: any call not in it has ended. Send it when
    /// your stack can list its calls (at start, after a reconnect): it repairs a change that was
    /// lost. May be called from any thread.
    public nonisolated func sendCompleteList(_ calls: [CallSnapshot]) { send(.complete(calls)) }

    /// Reports changes, or with `.complete` the full list of calls (any call not in it has
    /// ended). May be called from any thread.
    package nonisolated func send(_ batch: CallBatch) {
        let onMain = MainQueue.isCurrent
        handOver(state.withLock { $0.record(batch, onMain: onMain) }, onMain: onMain)
    }
}

extension ExternalCallSource {
    /// Carries out what the state asks of the calling thread, outside the lock, until it asks
    /// nothing more: calls the listener, waits for another thread's delivery to return, or tells
    /// the waiting main thread that it may deliver. The listener may block, send or stop the
    /// source.
    private nonisolated func handOver(_ first: ExternalCalls.Step, onMain: Bool) {
        var next = first
        while true {
            switch next {
            case .done:
                return
            case .deliver(let listener, let batch, let round):
                listener(batch)
                next = state.withLock { $0.delivered(round) }
            case .wait(let turn):
                turn.wait()
                next = state.withLock { $0.takeTurn() }
            case .giveTurn(let turn):
                turn.signal()
                return
            }
        }
    }
}

/// The calls of an ``ExternalCallSource``, its listener and what the listener has not been
/// handed yet: one value behind the source's ``Locked``, changed only by the methods below.
///
/// The listener is never called under the lock: called on the main thread, it runs the monitor's
/// step, and with it the app's delegate, callback, outcome handler and exit. Order comes from
/// this instead: one thread at a time delivers (`deliverer`). Another thread that sends
/// meanwhile leaves its batch in `waiting`, merged with what waits already
/// (``CallBatch/merged(with:)``, the monitor's own merge), and returns at once; the deliverer
/// takes it when its call returns. So the listener gets the changes in the order the list took
/// them, one batch at a time, never an older state after a newer one, and what waits is bounded
/// by the number of calls however fast other threads send.
///
/// The main thread is the exception, because a delivery there is applied at once: a send on the
/// main thread while another thread delivers waits for that one call to return (it is the
/// monitor's mailbox post, which never waits for the main thread), then delivers what waits
/// itself. So a send on the main thread is applied before it returns, as with a lock. A start or
/// stop on the main thread does not wait: the delivery in progress is to the listener it
/// replaces, whose run the monitor has already ended, and after `stop` returns nothing new is
/// handed to any listener. A send on the main thread from inside the
/// main thread's own delivery (the app's code in that step) leaves its batch for the delivery in
/// progress, which hands it over next.
private struct ExternalCalls: Sendable {
    typealias Listener = @Sendable (CallBatch) -> Void

    /// What the calling thread does next, outside the lock.
    enum Step {
        /// Nothing: another thread delivers, or nothing waits.
        case done
        /// Call `listener` with `batch`, then ask again (``delivered(_:)``) with `round`.
        case deliver(Listener, CallBatch, round: UInt64)
        /// Wait for the turn another thread's delivery hands over, then ask again
        /// (``takeTurn()``); only the main thread waits.
        case wait(DispatchSemaphore)
        /// Hand the turn to the waiting main thread, and stop delivering.
        case giveTurn(DispatchSemaphore)
    }

    /// Who calls the listener now.
    private enum Deliverer {
        case none, main, other
    }

    private var listener: Listener?
    private var calls: [CallID: CallSnapshot] = [:]
    private var order: [CallID] = []
    /// What the listener has not been handed yet, as one batch.
    private var waiting: CallBatch?
    private var deliverer = Deliverer.none
    /// The main thread's turn, while it waits for another thread's delivery to return.
    private var mainTurn: DispatchSemaphore?
    /// Counts the listeners the main thread set while another thread was delivering to the one
    /// before: a delivery that returns from an earlier round is forgotten (``delivered(_:)``).
    private var round: UInt64 = 0

    var liveCalls: [CallSnapshot] { order.compactMap { calls[$0] } }

    /// Sets the listener (`nil`: none). A new listener starts from the complete list, which
    /// replaces whatever waited for the old one.
    ///
    /// On the main thread this never waits for another thread's delivery: that delivery goes to
    /// the listener being replaced, whose run is over, so the monitor drops it
    /// (`SourceRunner.isCurrent(_:)`) and it orders nothing the new listener hears. The main
    /// thread takes over at once and the delivery is forgotten when it returns. Waiting here was
    /// the main queue's longest wait in `callmonitor bench`'s storm: a starting or stopping
    /// monitor slept until a preempted sender thread ran again (issue 37, item 13).
    mutating func listen(_ newListener: Listener?, onMain: Bool) -> Step {
        listener = newListener
        waiting = newListener == nil ? nil : .complete(liveCalls)
        if onMain && deliverer == .other {
            round &+= 1
            deliverer = .none
        }
        return claim(onMain: onMain)
    }

    /// Applies `batch` to the list and queues it for the listener.
    mutating func record(_ batch: CallBatch, onMain: Bool) -> Step {
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
        guard listener != nil else { return .done }
        waiting = waiting.map { $0.merged(with: batch) } ?? batch
        return claim(onMain: onMain)
    }

    /// The deliverer's call returned: the next batch for it, unless the main thread waits for
    /// its turn. A delivery from an earlier round (the main thread set a listener meanwhile) is
    /// no longer the deliverer and does nothing more.
    mutating func delivered(_ deliveredRound: UInt64) -> Step {
        guard deliveredRound == round else { return .done }
        if let turn = mainTurn {
            mainTurn = nil
            deliverer = .main
            return .giveTurn(turn)
        }
        let onMain = deliverer == .main
        deliverer = .none
        return claim(onMain: onMain)
    }

    /// The main thread has its turn: it delivers whatever waits.
    mutating func takeTurn() -> Step {
        deliverer = .none
        return claim(onMain: true)
    }

    private mutating func claim(onMain: Bool) -> Step {
        switch deliverer {
        case .none:
            guard let listener, let batch = waiting else { return .done }
            waiting = nil
            deliverer = onMain ? .main : .other
            return .deliver(listener, batch, round: round)
        case .main:
            // The main thread's delivery in progress hands this over when its call returns.
            return .done
        case .other:
            guard onMain else { return .done }
            let turn = DispatchSemaphore(value: 0)
            mainTurn = turn
            return .wait(turn)
        }
    }
}

// Call detection on Apple platforms: CallKit's CXCallObserver, translated into the engine's
// Sendable call snapshots. Every decision about those snapshots is the engine's.

#if canImport(CallKit)
import CallKit
import Foundation

/// Reports the device's calls (cellular, and VoIP calls that use CallKit) through
/// `CXCallObserver`. Needs no permission or entitlement.
///
/// One observer lives as long as the source. On start, calls already in progress are read from
/// `calls` (a call that began before the app opened is caught); changes arrive on the main queue.
public final class CallKitCallSource: CallSource {
    private var observer: CXCallObserver?
    /// CallKit holds its delegate weakly, so the source holds the adapter.
    private var adapter: ObserverAdapter?

    /// A source; the observer is created on the first start.
    public nonisolated init() {}

    public func start(_ deliver: @escaping @Sendable ([CallSnapshot]) -> Void) {
        let observer = self.observer ?? CXCallObserver()
        self.observer = observer
        let adapter = ObserverAdapter(deliver: deliver)
        self.adapter = adapter
        // A nil queue means the main queue.
        observer.setDelegate(adapter, queue: nil)
        deliver(observer.calls.filter { !$0.hasEnded }.map(CallSnapshot.init(callKit:)))
    }

    public func stop() {
        observer?.setDelegate(nil, queue: nil)
        adapter = nil
    }
}

/// The `NSObject` that CallKit calls; it copies each change into a snapshot at once, because
/// `CXCall` is not `Sendable`.
final class ObserverAdapter: NSObject, CXCallObserverDelegate {
    private let deliver: @Sendable ([CallSnapshot]) -> Void

    init(deliver: @escaping @Sendable ([CallSnapshot]) -> Void) {
        self.deliver = deliver
    }

    nonisolated func callObserver(_ callObserver: CXCallObserver, callChanged call: CXCall) {
        deliver([CallSnapshot(callKit: call)])
    }
}

extension CallSnapshot {
    /// A copy of the five fields the engine reads.
    init(callKit call: CXCall) {
        self.init(
            id: CallID(call.uuid),
            isOutgoing: call.isOutgoing,
            hasConnected: call.hasConnected,
            isOnHold: call.isOnHold,
            hasEnded: call.hasEnded
        )
    }
}
#endif

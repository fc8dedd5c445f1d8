// Call detection on Apple platforms: CallKit's CXCallObserver, translated into the engine's
// Sendable call snapshots. Every decision about those snapshots is the engine's.

// CallKit ships in the macOS SDK too, but CXCallObserver is unavailable there (API_UNAVAILABLE
// (macos)); Mac Catalyst and the iOS family have it.
#if canImport(CallKit) && !os(macOS)
import CallKit
import Foundation
#if canImport(UIKit)
import UIKit
#endif

/// Reports the device's calls (cellular, and VoIP calls that use CallKit) through
/// `CXCallObserver`. Needs no permission or entitlement.
///
/// One observer lives as long as the source. `CXCallObserver.calls` is the authoritative list,
/// and a change notification can be missed while the app is suspended, so every delivery is the
/// complete list (``CallBatch/complete(_:)``): at start, on every change, again whenever the
/// app returns to the foreground or becomes active, and when the engine asks (``refresh()``).
final class CallKitCallSource: CallSource {
    private var observer: CXCallObserver?
    /// CallKit holds its delegate weakly, so the source holds the adapter.
    private var adapter: ObserverAdapter?
    /// Where the running source delivers; `nil` while stopped.
    private var deliver: (@Sendable (CallBatch) -> Void)?
    private var lifecycleObservers: [any NSObjectProtocol] = []

    /// A source; the observer is created on the first start.
    nonisolated init() {}

    func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) {
        stop()
        let observer = self.observer ?? CXCallObserver()
        self.observer = observer
        let adapter = ObserverAdapter(deliver: deliver)
        self.adapter = adapter
        // A nil queue means the main queue.
        observer.setDelegate(adapter, queue: nil)
        self.deliver = deliver
        deliver(Self.completeList(of: observer))
        watchLifecycle(observer: observer, deliver: deliver)
    }

    func stop() {
        observer?.setDelegate(nil, queue: nil)
        adapter = nil
        deliver = nil
        for token in lifecycleObservers { NotificationCenter.default.removeObserver(token) }
        lifecycleObservers = []
    }

    /// Issue 37: `CXCallObserver.calls` is read synchronously on the main thread, so the list
    /// reaches the engine before a change delivery or a wake-up queued behind this step: the exit
    /// that asked for it acts on the calls as they are now, never on a view from before a suspension.
    func refresh() {
        guard let observer, let deliver else { return }
        deliver(Self.completeList(of: observer))
    }

    /// Re-reads the list when the app comes back, in case a change was missed while it slept.
    private func watchLifecycle(observer: CXCallObserver, deliver: @escaping @Sendable (CallBatch) -> Void) {
        #if canImport(UIKit)
        // `CXCallObserver` is not Sendable; the notifications arrive on the main queue, where the
        // observer lives, and only the Sendable list leaves it.
        let box = UncheckedObserver(observer)
        for name in [UIApplication.willEnterForegroundNotification, UIApplication.didBecomeActiveNotification] {
            lifecycleObservers.append(NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { _ in
                MainActor.assumeIsolated { deliver(CallKitCallSource.completeList(of: box.observer)) }
            })
        }
        #endif
    }

    static func completeList(of observer: CXCallObserver) -> CallBatch {
        .complete(observer.calls.map(CallSnapshot.init(callKit:)))
    }
}

/// Carries the observer into a main-queue notification block.
/// `@unchecked Sendable`: it is created and read only on the main queue.
private struct UncheckedObserver: @unchecked Sendable {
    let observer: CXCallObserver
    init(_ observer: CXCallObserver) { self.observer = observer }
}

/// The `NSObject` that CallKit calls; it copies the observer's whole list into snapshots at once,
/// because `CXCall` is not `Sendable`.
final class ObserverAdapter: NSObject, CXCallObserverDelegate {
    private let deliver: @Sendable (CallBatch) -> Void

    init(deliver: @escaping @Sendable (CallBatch) -> Void) {
        self.deliver = deliver
    }

    nonisolated func callObserver(_ callObserver: CXCallObserver, callChanged call: CXCall) {
        // The whole list is delivered so that a change missed earlier is repaired too.
        deliver(.observed(list: callObserver.calls.map(CallSnapshot.init(callKit:)), changed: CallSnapshot(callKit: call)))
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

// A behavioural stand-in for what Sources/hnb/Apple/CallKitCallSource.swift uses of CallKit, so
// that file runs in `swift test` on Linux (issue 52). Test-only: no product names this module, so
// no app builds it, and it is not called CallKit (hnbAppleTests reaches it through
// `-module-alias CallKit=CallKitStandIn`), so `canImport(CallKit)` stays false in hnb's own build.
//
// The CallKit part mirrors the SDK's declarations (each names its header; iOS 17 SDK) and what
// the headers and documentation say happens: one call list per device that every observer reads,
// a delegate held weakly and called on the queue it was given (nil: the main queue), from the
// system's side of the process, so a change is told while the main thread is busy and waits for
// the delegate's queue to be free. `StandInPhone` is not CallKit: it is the system's call service,
// which a test drives.

import Dispatch
import Foundation
import Synchronization

/// CallKit/CXCall.h: `@interface CXCall : NSObject`, API_AVAILABLE(ios(10.0), macCatalyst(13.0),
/// watchos(9.0)) API_UNAVAILABLE(macos, tvos). Not Sendable, as in the SDK: a reader copies it.
@available(iOS 10.0, macCatalyst 13.0, watchOS 9.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
open class CXCall: NSObject {
    private let call: StandInPhone.Call

    /// CallKit/CXCall.h: `- (instancetype)init NS_UNAVAILABLE;` only CallKit makes calls.
    init(_ call: StandInPhone.Call) { self.call = call }

    /// CallKit/CXCall.h: `@property (nonatomic, readonly, copy) NSUUID *UUID;`
    open var uuid: UUID { call.uuid }
    /// CallKit/CXCall.h: `@property (nonatomic, readonly, assign, getter=isOutgoing) BOOL outgoing;`
    open var isOutgoing: Bool { call.isOutgoing }
    /// CallKit/CXCall.h: `@property (nonatomic, readonly, assign, getter=isOnHold) BOOL onHold;`
    open var isOnHold: Bool { call.isOnHold }
    /// CallKit/CXCall.h: `@property (nonatomic, readonly, assign) BOOL hasConnected;`
    open var hasConnected: Bool { call.hasConnected }
    /// CallKit/CXCall.h: `@property (nonatomic, readonly, assign) BOOL hasEnded;`
    open var hasEnded: Bool { call.hasEnded }
}

/// CallKit/CXCallObserver.h: `@protocol CXCallObserverDelegate <NSObject>`.
@available(iOS 10.0, macCatalyst 13.0, watchOS 9.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
public protocol CXCallObserverDelegate: NSObjectProtocol {
    /// CallKit/CXCallObserver.h: `- (void)callObserver:(CXCallObserver *)callObserver callChanged:(CXCall *)call;`
    func callObserver(_ callObserver: CXCallObserver, callChanged call: CXCall)
}

/// CallKit/CXCallObserver.h: `@interface CXCallObserver : NSObject`, API_AVAILABLE(ios(10.0),
/// macCatalyst(13.0), watchos(9.0)) API_UNAVAILABLE(macos, tvos). Not Sendable, as in the SDK.
@available(iOS 10.0, macCatalyst 13.0, watchOS 9.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
open class CXCallObserver: NSObject {
    /// The delegate (weak, as the header says) and its queue.
    private let registration = Mutex(Registration())

    /// CallKit/CXCallObserver.h (NSObject's `init`): an observer of the device's one call list.
    public override init() {
        super.init()
        StandInPhone.shared.register(self)
    }

    /// CallKit/CXCallObserver.h: `@property (nonatomic, readonly, copy) NSArray<CXCall *> *calls;`
    /// "Retrieve the current call list": the device's list as it is now, from any thread.
    open var calls: [CXCall] { StandInPhone.shared.calls.map(CXCall.init) }

    /// CallKit/CXCallObserver.h: `- (void)setDelegate:(nullable id<CXCallObserverDelegate>)delegate
    /// queue:(nullable dispatch_queue_t)queue;` "A nil queue implies that delegate callbacks should
    /// happen on the main queue. The delegate is stored weakly."
    open func setDelegate(_ delegate: (any CXCallObserverDelegate)?, queue: DispatchQueue?) {
        let box = WeakDelegate(delegate)
        registration.withLock { $0 = Registration(delegate: box, queue: queue ?? .main) }
    }

    /// Not CallKit: whether a delegate is set and still alive (for the tests' leak checks).
    public var standInHasDelegate: Bool { registration.withLock { $0.delegate.object != nil } }

    /// Not CallKit: tells the delegate of `call` on its queue, as CallKit does after a change.
    /// The delegate is the one set when the change happens, still held weakly while the call
    /// waits for its queue: a delegate released meanwhile is told nothing.
    func tell(_ call: StandInPhone.Call) {
        let (delegate, queue) = registration.withLock { ($0.delegate, $0.queue) }
        guard delegate.object != nil else { return }
        let observer = UncheckedObserver(observer: self)
        queue.async {
            guard let target = delegate.object else { return }
            target.callObserver(observer.observer, callChanged: CXCall(call))
        }
    }

    private struct Registration: Sendable {
        var delegate = WeakDelegate(nil)
        var queue = DispatchQueue.main
    }
}

/// A weak reference to a delegate, carried to its queue.
/// `@unchecked Sendable`: CallKit calls its delegate from its own threads whatever the delegate's
/// type; the stand-in does the same, and only the queue the delegate chose touches it.
private struct WeakDelegate: @unchecked Sendable {
    weak var object: (any CXCallObserverDelegate)?
    init(_ object: (any CXCallObserverDelegate)?) { self.object = object }
}

/// An observer carried to the delegate's queue. `@unchecked Sendable`: what the delegate reads
/// of it (`calls`) is read under the phone's lock.
private struct UncheckedObserver: @unchecked Sendable {
    let observer: CXCallObserver
}

// MARK: - The system's call service (not CallKit)

/// The device's calls as the system's call service holds them: what every `CXCallObserver` reads
/// and tells its delegate about. A test changes them from any thread, as calls change on a phone
/// whatever the app's main thread is doing.
public final class StandInPhone: Sendable {
    /// The one device.
    public static let shared = StandInPhone()

    /// One call as CallKit describes it (CXCall.h's five properties).
    public struct Call: Sendable, Equatable {
        public var uuid: UUID
        public var isOutgoing: Bool
        public var hasConnected: Bool
        public var isOnHold: Bool
        public var hasEnded: Bool

        public init(uuid: UUID, isOutgoing: Bool = false, hasConnected: Bool = false, isOnHold: Bool = false, hasEnded: Bool = false) {
            self.uuid = uuid
            self.isOutgoing = isOutgoing
            self.hasConnected = hasConnected
            self.isOnHold = isOnHold
            self.hasEnded = hasEnded
        }
    }

    private struct State {
        var calls: [Call] = []
        var observers: [WeakObserver] = []
        var appSuspended = false
    }

    private let state = Mutex(State())

    private init() {}

    /// The call list now, in the order the calls began.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// The observers still alive that have a delegate: after a source's `stop`, none of its own.
    public var observersWithDelegate: Int {
        let observers = state.withLock { $0.observers.compactMap(\.observer) }
        return observers.filter(\.standInHasDelegate).count
    }

    /// Puts the phone back to no call, an app that runs, and no observer.
    public func reset() {
        state.withLock { $0 = State() }
    }

    /// While the app is suspended its process does not run: the changes CallKit would tell it of
    /// are lost (the list itself stays right, and is what an observer reads once the app runs).
    public func setAppSuspended(_ suspended: Bool) {
        state.withLock { $0.appSuspended = suspended }
    }

    /// Adds `call` to the list, or changes the call with its identifier, and tells every observer.
    public func update(_ call: Call) {
        change(call) { calls in
            if let index = calls.firstIndex(where: { $0.uuid == call.uuid }) { calls[index] = call } else { calls.append(call) }
        }
    }

    /// Ends the call `uuid`. CallKit may drop an ended call from `calls` before it tells of the
    /// end (`keptInList: false`), or keep it there, ended, for a while.
    public func end(_ uuid: UUID, keptInList: Bool = false) {
        guard var call = calls.first(where: { $0.uuid == uuid }) else { return }
        call.hasEnded = true
        change(call) { calls in
            if keptInList {
                if let index = calls.firstIndex(where: { $0.uuid == uuid }) { calls[index] = call }
            } else {
                calls.removeAll { $0.uuid == uuid }
            }
        }
    }

    /// Drops ended calls from the list without telling anyone (CallKit prunes them quietly).
    public func pruneEnded() {
        state.withLock { $0.calls.removeAll(where: \.hasEnded) }
    }

    private func change(_ call: Call, _ edit: (inout [Call]) -> Void) {
        let observers: [CXCallObserver] = state.withLock { state in
            edit(&state.calls)
            state.observers.removeAll { $0.observer == nil }
            return state.appSuspended ? [] : state.observers.compactMap(\.observer)
        }
        // Told after the lock: a delegate may read `calls` on its queue at once.
        for observer in observers { observer.tell(call) }
    }

    fileprivate func register(_ observer: CXCallObserver) {
        let weak = WeakObserver(observer: observer)
        state.withLock { $0.observers.append(weak) }
    }
}

/// An observer the phone knows of without keeping it alive.
/// `@unchecked Sendable`: the phone only reads `standInHasDelegate` and calls `tell`, both locked.
private struct WeakObserver: @unchecked Sendable {
    weak var observer: CXCallObserver?
}

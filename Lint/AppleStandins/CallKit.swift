// A stand-in for the few CallKit declarations the adapters use, transcribed from Apple's
// documentation, so `scripts/lint-apple` can type-check the adapters on Linux. Not shipped.

import Dispatch
import Foundation

/// One call the system knows of.
open class CXCall: NSObject {
    open var uuid: UUID { UUID() }
    open var isOutgoing: Bool { false }
    open var isOnHold: Bool { false }
    open var hasConnected: Bool { false }
    open var hasEnded: Bool { false }
}

/// Called when a call changes state.
public protocol CXCallObserverDelegate: NSObjectProtocol {
    func callObserver(_ callObserver: CXCallObserver, callChanged call: CXCall)
}

/// Lists active calls and reports their changes to a delegate (held weakly).
open class CXCallObserver: NSObject {
    public override init() {}
    open var calls: [CXCall] { [] }
    open func setDelegate(_ delegate: (any CXCallObserverDelegate)?, queue: DispatchQueue?) {}
}

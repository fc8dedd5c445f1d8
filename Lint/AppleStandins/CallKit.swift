// A stand-in for the CallKit declarations the adapters use, so `scripts/lint-apple` can type-check
// them on Linux. Not shipped. Each declaration names the SDK header it mirrors and carries the
// availability that header gives it: lint-apple turns `@available(<platform>, unavailable)` into
// a hard error on the platform it checks, as Apple's compilers do.

import Dispatch
import Foundation

/// CallKit/CXCall.h: API_AVAILABLE(ios(10.0), macCatalyst(13.0), watchos(9.0)) API_UNAVAILABLE(macos, tvos)
@available(iOS 10.0, macCatalyst 13.0, watchOS 9.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
open class CXCall: NSObject {
    open var uuid: UUID { UUID() }
    open var isOutgoing: Bool { false }
    open var isOnHold: Bool { false }
    open var hasConnected: Bool { false }
    open var hasEnded: Bool { false }
}

/// CallKit/CXCallObserver.h: API_AVAILABLE(ios(10.0), macCatalyst(13.0), watchos(9.0)) API_UNAVAILABLE(macos, tvos)
@available(iOS 10.0, macCatalyst 13.0, watchOS 9.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
public protocol CXCallObserverDelegate: NSObjectProtocol {
    func callObserver(_ callObserver: CXCallObserver, callChanged call: CXCall)
}

/// CallKit/CXCallObserver.h: API_AVAILABLE(ios(10.0), macCatalyst(13.0), watchos(9.0)) API_UNAVAILABLE(macos, tvos).
/// The delegate is held weakly; a nil queue means the main queue.
@available(iOS 10.0, macCatalyst 13.0, watchOS 9.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
open class CXCallObserver: NSObject {
    public override init() {}
    open var calls: [CXCall] { [] }
    open func setDelegate(_ delegate: (any CXCallObserverDelegate)?, queue: DispatchQueue?) {}
}

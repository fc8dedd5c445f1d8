// Deciding "am I on the main queue" reliably: the core applies a command at once when it is, and
// leaves it in the mailbox (Mailbox.swift) for one main-queue block when it is not.

import Dispatch

enum MainQueue {
    private static let key = DispatchSpecificKey<UInt8>()

    /// Tags the main queue once. A queue-specific value answers "is this main-queue work?"
    /// correctly where `Thread.isMainThread` does not: on Linux the main queue is drained by a
    /// thread other than the process's first one under `dispatchMain()` and `swift test`.
    private static let tagged: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return true
    }()

    static var isCurrent: Bool {
        _ = tagged
        return DispatchQueue.getSpecific(key: key) != nil
    }
}

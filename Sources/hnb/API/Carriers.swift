// The Sendable carriers that take what an API call was given (a block, a weak delegate) to the
// main thread, where alone it is used.

/// An Objective-C callback block carried to the main thread.
/// `@unchecked Sendable`: the block is only ever called on the main thread, as the API promises.
struct UncheckedBlock: @unchecked Sendable {
    let body: (CallEvent) -> Void
    init(_ body: @escaping (CallEvent) -> Void) { self.body = body }
}

/// A weak reference to a delegate that may be carried to the main thread.
///
/// `@unchecked Sendable`: the reference is only read on the main thread (in ``MonitorCore``),
/// where every delegate method runs; a delegate is never touched from the thread that sent it.
package struct WeakDelegate: @unchecked Sendable {
    package weak var object: (any CallMonitorDelegate)?
    init(_ object: (any CallMonitorDelegate)?) { self.object = object }
}

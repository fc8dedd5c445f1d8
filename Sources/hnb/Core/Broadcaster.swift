// One producer on the main thread, any number of AsyncStream subscribers: each subscriber gets
// every element from the moment it subscribed, and leaves no trace once it stops listening.

import Foundation

/// Fans elements out to independent `AsyncStream`s.
///
/// `@unchecked Sendable`: `subscribers` and `nextID` are only touched under `lock`. Elements are
/// yielded outside the lock, so a subscriber whose termination handler runs during a yield cannot
/// deadlock against it.
///
/// The subscribers are a list, not a dictionary by identifier: there are a handful, and each
/// element type a dictionary holds is another copy of the dictionary's code in the binary (this
/// class is specialised for two element types).
final class Broadcaster<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    /// In the order they subscribed; each identifier once.
    private var subscribers: [(id: UInt64, continuation: AsyncStream<Element>.Continuation)] = []
    private var nextID: UInt64 = 0

    /// A new stream that receives every element yielded from now on. Unbounded: a subscriber that
    /// stops reading without cancelling keeps what it has not read.
    func subscribe() -> AsyncStream<Element> {
        var stream: AsyncStream<Element>!
        lock.withLock {
            nextID &+= 1
            let id = nextID
            stream = AsyncStream(bufferingPolicy: .unbounded) { continuation in
                subscribers.append((id, continuation))
                // Runs when the consumer's task is cancelled or the stream is dropped.
                continuation.onTermination = { [weak self] _ in self?.remove(id) }
            }
        }
        return stream
    }

    func yield(_ element: Element) {
        // The common case, no subscriber, allocates nothing.
        let current: [AsyncStream<Element>.Continuation]? = lock.withLock {
            subscribers.isEmpty ? nil : subscribers.map(\.continuation)
        }
        guard let current else { return }
        for continuation in current { continuation.yield(element) }
    }

    private func remove(_ id: UInt64) {
        lock.withLock { subscribers.removeAll { $0.id == id } }
    }
}

// MARK: - Test hooks

extension Broadcaster {
    /// How many subscribers are registered now: for the tests of the cleanup and of the lock
    /// (`@testable import`). The library never reads it.
    var subscriberCountForTesting: Int { lock.withLock { subscribers.count } }
}

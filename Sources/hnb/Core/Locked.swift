// The one lock type of the package: a value that several threads share, reached only through
// `withLock`, so no access can forget the lock.

import Foundation

/// A value shared between threads; every read and write goes through ``withLock(_:)``.
///
/// `package` so that the test doubles (`hnbTesting`) and the `callmonitor` tool use the same type
/// without making it part of the app-facing API.
package final class Locked<Value> {
    @usableFromInline let lock = NSLock()
    @usableFromInline var stored: Value

    package init(_ value: Value) { stored = value }

    /// Runs `body` with the value under the lock; what it returns is returned.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }

    /// A copy of the value, taken under the lock.
    @inlinable
    package var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    /// Replaces the value under the lock.
    @inlinable
    package func set(_ newValue: Value) {
        lock.lock()
        defer { lock.unlock() }
        stored = newValue
    }
}

// `@unchecked Sendable`: the stored value is only reached under `lock`, and only a Sendable value
// may be shared this way (a non-Sendable one could escape `withLock` and be used unlocked).
extension Locked: @unchecked Sendable where Value: Sendable {}

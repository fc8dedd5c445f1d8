// The exit the reference specifies: `exit(code)`, from the main thread or from the watchdog's.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Ends the process with `exit(code)`, as the reference specifies.
///
/// `exit` skips the usual shutdown path of an app; use ``CallMonitor/setBeforeForceExit(budget:_:)``
/// to wipe session data or write a last log line first.
package final class ProcessExitTerminator: AppTerminator {
    /// A terminator.
    package nonisolated init() {}

    /// Ends the process with `exit(code)`; it does not return.
    package func terminate(code: Int32) {
        exit(code)
    }

    /// Ends the process with `exit(code)` from any thread; it does not return.
    package nonisolated func terminateFromAnyThread(code: Int32) {
        exit(code)
    }
}

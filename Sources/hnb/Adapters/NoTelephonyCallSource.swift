// Where the library can read no calls (no UIKit, no Telephony trait): a source that says so in its
// name, so the shared instance is never mistaken for one that detects calls.

/// The call source of a system with no telephony service the library can read (a Linux desktop or
/// server, macOS): it reports no calls, ever, and says so in its name.
package final class NoTelephonyCallSource: CallSource {
    /// A source that will report no calls.
    package nonisolated init() {}
    /// Delivers the one complete list this source will ever have: no calls.
    package func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) { deliver(.complete([])) }
    /// Nothing to stop: this source never delivers again after ``start(_:)``.
    package func stop() {}
}

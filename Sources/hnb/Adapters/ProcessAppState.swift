// The app state of a process without an app lifecycle (a command-line tool, a server).

/// The app state of a process without an app lifecycle: always in the foreground.
package final class ProcessAppState: AppStateSource {
    /// A source that is always in the foreground.
    package nonisolated init() {}
    /// Always `true`: a process without an app lifecycle is never in the background.
    package var isForeground: Bool { true }
    /// Delivers nothing: the state never changes.
    package func start(_ deliver: @escaping @Sendable (Bool) -> Void) {}
    /// Nothing to stop.
    package func stop() {}
}

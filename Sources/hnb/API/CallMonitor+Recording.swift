// Recording a session (issue 29): the facade's two calls and their error. What is written is
// SessionScript's (Recording/), how it is written SessionRecorder's.

import Foundation

// The Linux header lint (HNB_OBJC_HEADER) sees only `-stopRecording`: its front end crashes
// printing this extension whole ("While printing NULL type"); the iOS SDK golden holds all of it.
#if !HNB_OBJC_HEADER
extension CallMonitor {
    /// Why a recording could not start.
    public struct RecordingError: Error, Equatable, CustomStringConvertible {
        /// The file that could not be opened.
        public let path: String
        /// What the system said.
        public let reason: String

        /// The problem in words.
        public var description: String { "cannot record to \(path): \(reason)" }
    }

    /// The smallest `maxBytes` accepted: room for the header and the truncation comment.
    public static let minimumRecordingBytes = 4_096

    /// Records every input this monitor receives, and what it does, to a file that
    /// `callmonitor simulate` replays: a session seen on a device becomes a test.
    ///
    /// The file is a scenario in the simulator's language: the app's calls (start and stop,
    /// protections, exemptions, detection, delegate, callback, the capture rule and escalation,
    /// the verifier), each answer of the verifier, every delivery of the call source, the app
    /// and capture state, and every user action, with times in seconds on the monotonic clock
    /// from the start of the recording; and, as `#>` comment lines, every output (callback
    /// events, presentations, ticks, dismissals, verdicts, outcomes, the exit).
    /// `callmonitor replay FILE --check` replays it and compares. A header comment names the
    /// library version, the OS and its version, and the device class (iPhone, iPad, Mac).
    ///
    /// ```swift
    /// let url = FileManager.default.temporaryDirectory.appendingPathComponent("session.scenario")
    /// try CallMonitor.sharedInstance().startRecording(to: url)
    /// ```
    ///
    /// Calls become `C1`, `C2`, … in order of appearance and protections `P1`, `P2`, …: the file
    /// holds no call identifier of the device and no phone number (CallKit reports none).
    /// Recording is the app's decision, in release builds too (a bank may turn it on for one
    /// customer who agreed); tell the user what it holds.
    ///
    /// Writing happens on a queue of its own: no step of the monitor waits for the disk, and
    /// nothing recorded changes, delays or reorders a decision. The file stops growing before
    /// `maxBytes`, with a last comment that says so. A write error stops the recording and is
    /// reported once on standard error. Starting again replaces the recording in progress.
    ///
    /// > Important: Start recording before `startMonitoring`: the file replays from a fresh
    /// > monitor, so a recording begun mid-session lacks what came before it.
    ///
    /// - Parameters:
    ///   - url: A file URL; the file is created, or emptied, readable by the user only.
    ///   - maxBytes: The file's bound, 1 MiB by default; at least ``minimumRecordingBytes``
    ///     (a smaller value is clamped to it).
    /// - Throws: ``RecordingError`` when the file cannot be opened.
    public func startRecording(to url: URL, maxBytes: Int = 1 << 20) throws {
        try core.startRecording(toPath: url.path, maxBytes: max(Self.minimumRecordingBytes, maxBytes))
    }

    /// ``startRecording(to:maxBytes:)`` with the default bound, for Objective-C.
    ///
    /// - Parameter url: A file URL; the file is created, or emptied.
    /// - Throws: ``RecordingError`` when the file cannot be opened (or `url` has no path).
    #if canImport(ObjectiveC)
    @objc(startRecordingToURL:error:)
    #endif
    public func objcStartRecording(to url: NSURL) throws {
        guard let path = url.path else { throw RecordingError(path: "\(url)", reason: "not a file URL") }
        try startRecording(to: URL(fileURLWithPath: path))
    }

}
#endif

extension CallMonitor {
    /// Stops the recording in progress, if any: a last comment is written and the file closed,
    /// off the calling thread. From any thread.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(stopRecording)
    #endif
    public func stopRecording() {
        core.stopRecording()
    }

    /// Waits until the recording's lines so far are in the file (the tool and tests, before they
    /// read it).
    package func waitForRecording() {
        core.waitForRecording()
    }

    /// Stops the recording and returns once its file is complete (the tool and tests).
    package func finishRecording() {
        core.stopRecording(waiting: true)
    }

    /// A tap on a UI that holds none of this monitor's presentations: the simulator's `tap` when
    /// there is nothing to press, and `tap stale`. The engine refuses it as it refuses a stale
    /// `onUserAction` (rule 12: no presentation has ``MonitorEngine/noPresentationToken``), and a
    /// recording writes it, so that a replay taps at the same place (issue 37).
    package func tapOnNoPresentation() {
        send(.userAction(token: MonitorEngine.noPresentationToken))
    }

    /// The simulator's `tap` with nothing to press (no dialog or no button on screen, no
    /// `onUserAction` held): nothing reaches the engine, as a finger on an empty screen reaches
    /// nothing on a device, but a recording writes the `tap`, so that a replay taps at the same
    /// place and its transcript holds the same refused tap (issue 37).
    @MainActor
    package func recordTapWithNothingToPress() {
        core.recordTapWithNothingToPress()
    }

    /// Makes the monitor notice at once that the delegate was released (the simulator's
    /// `delegate released`, which a recording writes where the engine heard of a release).
    package func noticeDelegateRelease() {
        send(.delegateReleased)
    }
}

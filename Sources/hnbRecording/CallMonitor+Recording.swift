// Recording a session (issue 29): the two calls an app makes and their error, added to
// `CallMonitor` by the hnbRecording product (issue 39). What is written is SessionScript's, how it
// is written SessionRecorder's; the monitor only tells its step observer (RecordingSlot.swift).

import Foundation
import hnb

// The Linux header lint (`scripts/objc-header hnbRecording`, golden
// Tests/ObjCHeader/hnbRecording-Swift.golden.h) compiles this file with HNB_OBJC_HEADER, which
// keeps it to `-stopRecording`: the Linux front end crashes printing this extension whole ("While
// printing NULL type"). The iOS SDK check compiles it whole.
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
        try startRecording(toPath: url.path, maxBytes: max(Self.minimumRecordingBytes, maxBytes))
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
        stopRecording(waiting: false)
    }

    /// Waits until the recording's lines so far are in the file (the tool and tests, before they
    /// read it).
    package func waitForRecording() {
        (stepObserver as? SessionRecorder)?.writer.waitUntilWritten(timeoutNanoseconds: 5_000_000_000)
    }

    /// Stops the recording and returns once its file is complete (the tool and tests).
    package func finishRecording() {
        stopRecording(waiting: true)
    }
}

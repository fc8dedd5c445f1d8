// Compiled only by scripts/objc-header for hnbRecording's header, never shipped. The header is
// generated from CallMonitor+Recording.swift, the file that declares the product's Objective-C
// API; the recorder itself (file descriptors, C through pointers) is left out, and these stand in
// for what that file uses of it. Under HNB_OBJC_HEADER the file keeps `-stopRecording` only (the
// Linux front end cannot print `startRecordingToURL:error:`; the iOS SDK check sees it).

final class RecordingStandIn: Sendable {
    func waitUntilWritten(timeoutNanoseconds: UInt64) {}
}

/// A protocol, so that the file's cast from the monitor's step observer type-checks as it does
/// against the real class.
protocol SessionRecorder: AnyObject {
    var writer: RecordingStandIn { get }
}

extension CallMonitor {
    func stopRecording(waiting: Bool) {}
}

// An app that records as RecordingASession.md shows it: `startRecording(to:)` and `stopRecording()`
// come from the hnbRecording product, beside hnb, not from hnb alone (issue 39). Compiled by CI
// with the reference snippets; nothing here runs.
import Foundation
import hnb
import hnbRecording

final class DebugMenu {
    private var recording: URL?

    func toggleRecording() {
        if recording != nil {
            CallMonitor.sharedInstance().stopRecording()
            recording = nil
            return
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("session.scenario")
        do {
            try CallMonitor.sharedInstance().startRecording(to: url, maxBytes: CallMonitor.minimumRecordingBytes)
            recording = url
        } catch let error as CallMonitor.RecordingError {
            print(error.path, error.reason)
        } catch {
            print(error)
        }
    }
}

if ProcessInfo.processInfo.arguments.count > 99 { DebugMenu().toggleRecording() }

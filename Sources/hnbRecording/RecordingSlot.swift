// Where a recording plugs into a monitor: the recorder is the monitor's step observer (hnb's one
// seam for it, issue 39), swapped from any thread; the one it replaces is closed.

import hnb

extension CallMonitor {
    /// Opens `path` and records to it from now on, bounded by `maxBytes` (already clamped),
    /// stopping the recording in progress.
    func startRecording(toPath path: String, maxBytes: Int) throws {
        let writer = RecordingWriter(fd: try RecordingWriter.open(path: path))
        let header = RecordingHeader.text(
            library: RecordingHeader.libraryVersion, os: RecordingHeader.osName, osVersion: RecordingHeader.osVersion,
            device: RecordingHeader.deviceClass(machine: RecordingHeader.machine), maxBytes: maxBytes
        )
        startRecording(SessionRecorder(writer: writer, header: header, maxBytes: maxBytes, origin: clockNowIfReadable()))
    }

    /// Starts `recorder`, stopping the one in progress.
    func startRecording(_ recorder: SessionRecorder) {
        let previous = replaceStepObserver(with: recorder) as? SessionRecorder
        previous?.writer.finish(with: SessionRecorder.stoppedLine)
    }

    /// Stops the recording in progress; `waiting`: returns once its file is written and closed.
    func stopRecording(waiting: Bool) {
        let previous = replaceStepObserver(with: nil) as? SessionRecorder
        previous?.writer.finish(with: SessionRecorder.stoppedLine)
        if waiting { previous?.writer.waitUntilWritten(timeoutNanoseconds: 5_000_000_000) }
    }
}

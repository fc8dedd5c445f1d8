// The core's side of a recording: it holds the recorder the step hands its input and actions to
// (MonitorCore.run), swapped from any thread.

extension MonitorCore {
    /// Opens `path` and records to it from now on, bounded by `maxBytes` (already clamped),
    /// stopping the recording in progress.
    nonisolated func startRecording(toPath path: String, maxBytes: Int) throws(CallMonitor.RecordingError) {
        let writer = RecordingWriter(fd: try RecordingWriter.open(path: path))
        let header = RecordingHeader.text(
            library: RecordingHeader.libraryVersion, os: RecordingHeader.osName, osVersion: RecordingHeader.osVersion,
            device: RecordingHeader.deviceClass(machine: RecordingHeader.machine), maxBytes: maxBytes
        )
        startRecording(SessionRecorder(writer: writer, header: header, maxBytes: maxBytes, origin: recordingOrigin()))
    }

    /// Starts `recorder`, stopping the one in progress.
    nonisolated func startRecording(_ recorder: SessionRecorder) {
        let previous = recording.withLock { slot -> SessionRecorder? in
            defer { slot = recorder }
            return slot
        }
        previous?.writer.finish(with: SessionRecorder.stoppedLine)
    }

    /// Stops the recording in progress; `waiting`: returns once its file is written and closed.
    nonisolated func stopRecording(waiting: Bool = false) {
        let previous = recording.withLock { slot -> SessionRecorder? in
            defer { slot = nil }
            return slot
        }
        previous?.writer.finish(with: SessionRecorder.stoppedLine)
        if waiting { previous?.writer.waitUntilWritten(timeoutNanoseconds: 5_000_000_000) }
    }

    nonisolated func waitForRecording() {
        recording.value?.writer.waitUntilWritten(timeoutNanoseconds: 5_000_000_000)
    }

    /// The clock now, where it can be read on this thread: time 0 of a recording starting here.
    nonisolated func recordingOrigin() -> Int64? {
        if MainQueue.isCurrent {
            let now: Int64 = MainActor.assumeIsolated { scheduler.now }
            return now
        }
        return (scheduler as? any AnyThreadClock)?.anyThreadNow
    }
}

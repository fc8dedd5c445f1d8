// The core's side of a recording: it holds the recorder the step hands its input and actions to
// (MonitorCore.run), swapped from any thread.

extension MonitorCore {
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
        if MainQueue.isCurrent { return MainActor.assumeIsolated { scheduler.now } }
        return (scheduler as? any AnyThreadClock)?.anyThreadNow
    }
}

// The facade's package seams for the products and the tool (issue 39): the step observer the
// recorder (hnbRecording) registers, the clock it stamps from, and the simulator's taps and
// release notices. An app sees none of them.

extension CallMonitor {
    /// Sets the observer of this monitor's steps (`nil`: none) and returns the one it replaces,
    /// from any thread; the next step is the first the new one sees.
    package func replaceStepObserver(with observer: (any MonitorStepObserver)?) -> (any MonitorStepObserver)? {
        core.stepObserver.withLock { slot in
            defer { slot = observer }
            return slot
        }
    }

    /// The observer of this monitor's steps, if one is set.
    package var stepObserver: (any MonitorStepObserver)? { core.stepObserver.value }

    /// The monitor's clock now, where it can be read on the calling thread (the main thread, or
    /// a clock readable on any thread): an observer's time 0.
    package func clockNowIfReadable() -> Int64? { core.clockNowIfReadable() }

    /// A tap on a screen that holds nothing to press (the simulator's `tap` with no dialog or
    /// button on screen and no `onUserAction` held): nothing reaches the engine, as a finger on
    /// an empty screen reaches nothing on a device; the step observer is told, so that a
    /// recording writes the `tap` and a replay taps at the same place (issue 37).
    @MainActor
    package func tapWithNothingToPress() {
        core.tapWithNothingToPress()
    }

    /// A tap on a UI that holds none of this monitor's presentations: the simulator's `tap` when
    /// there is nothing to press, and `tap stale`. The engine refuses it as it refuses a stale
    /// `onUserAction` (rule 12: no presentation has ``MonitorEngine/noPresentationToken``), and a
    /// recording writes it, so that a replay taps at the same place (issue 37).
    package func tapOnNoPresentation() {
        send(.userAction(token: MonitorEngine.noPresentationToken))
    }

    /// Rule 34, for the simulator's transcript: `observer` hears the event on screen (`nil`: none)
    /// each time what readers see of it changes, published after the step's own actions, as
    /// ``CallMonitor/currentSecurityEvent`` then reads it. For as long as the monitor lives.
    @MainActor
    package func observeSecurityEvent(_ observer: @escaping @MainActor (CallMonitorSecurityEvent?) -> Void) {
        core.addSnapshotObserver { snapshot in
            observer(snapshot.securityEvent)
            return true
        }
    }

    /// Makes the monitor notice at once that the delegate was released (the simulator's
    /// `delegate released`, which a recording writes where the engine heard of a release).
    package func noticeDelegateRelease() {
        send(.delegateReleased)
    }
}

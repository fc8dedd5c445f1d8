// The delegate a simulation's monitor is given (`delegate custom` in a scenario): what it is told
// becomes transcript lines that carry its number.

import hnb

/// A delegate that writes what it is told into the transcript. Each gets a number, so a
/// hand-over from one to the next can be read in the transcript.
@MainActor
final class TranscriptDelegate: CallMonitorDelegate {
    let number: Int
    let transcript: Transcript
    let onAction: (@escaping () -> Void) -> Void

    init(number: Int, transcript: Transcript, onAction: @escaping (@escaping () -> Void) -> Void) {
        self.number = number
        self.transcript = transcript
        self.onAction = onAction
    }

    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: Int32, onUserAction: @escaping () -> Void) {
        onAction(onUserAction)
        transcript.record("detect") {
            $0.add("flow", flow.description)
            $0.add("initialRemaining", Int(initialRemaining))
            $0.add("delegate", number)
        }
    }

    func callMonitorCountdownTick(_ remaining: Int32) {
        transcript.record("tick") {
            $0.add("remaining", Int(remaining))
            $0.add("delegate", number)
        }
    }

    func callMonitorDidEndCall() {
        transcript.record("end") { $0.add("delegate", number) }
    }
}

/// Rule 24: the recording delegate is told of the verdict too; its line names it.
extension TranscriptDelegate: CallMonitorVerdictDelegate {
    func callMonitorDidReceiveVerdict(_ verdict: CallMonitorCallVerdict) {
        transcript.record("verdict") {
            $0.add("verdict", verdict.description)
            $0.add("delegate", number)
        }
    }
}

// Rules 23 and 24: the bank's verdict. What is asked when, which answer counts, what the dialog,
// the delegate, the snapshot and the outcome show, and (the bypass tests) that no verifier, however
// it behaves, changes a single timing or ending of either flow.

import Foundation
import Testing
@testable import hnb
import hnbTesting

let second = MonitorEngine.second

/// A call that is live and connected.
func live(_ id: String) -> CallSnapshot { CallSnapshot(id: CallID(id), hasConnected: true) }

/// A verifier the engine tests hand over; the engine only passes it on (it never asks it).
final class SilentVerifier: CallVerifying {
    func ask(_ answer: @escaping @Sendable (CallMonitorCallVerdict) -> Void) {}
}

/// The command that sets a verifier (`true`) or removes it (`false`).
func verifier(_ isSet: Bool) -> MonitorEngine.Input {
    .setCallVerifier(isSet ? VerifierBox(verifier: SilentVerifier()) : nil)
}

/// A monitor wired to the scripted ports and a scripted verifier, recording delegate calls, dialog
/// frames (with the verdict line), exits and outcomes, each stamped with the virtual time.
@MainActor
final class VerdictHarness {
    let h: Harness
    let verifier: ScriptedCallVerifier

    init(script: [ScriptedCallVerifier.Answer]?, withVerdicts: Bool) {
        h = Harness()
        verifier = ScriptedCallVerifier(scheduler: h.scheduler, script: script ?? [])
        let log = h.log
        h.renderer.onChange = { alert in
            log.add(alert.map { "alert \($0.flow) \($0.remaining) button=\($0.button ?? "-")" + (withVerdicts ? " verdict=\($0.verdict ?? "-")" : "") } ?? "dismiss")
        }
        h.monitor.setOutcomeHandler { outcome in
            log.add("outcome \(outcome.ending) lowest=\(outcome.lowestRemaining)" + (withVerdicts ? " verdict=\(outcome.verdict) at=\(outcome.verdictArrivedAt.map(seconds) ?? "-")" : ""))
        }
        if script != nil { h.useVerifier(verifier) }
    }
}

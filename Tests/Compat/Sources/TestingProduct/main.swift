// An app's test code as the README shows it: the doubles come from the hnbTesting product, beside
// hnb, and go into a monitor through its ports value. Compiled by CI with the reference snippets;
// nothing here runs.
import hnb
import hnbTesting

@MainActor
func closesTenSecondsIntoACall() throws {
    let clock = ManualScheduler()
    let calls = SimulatedCallSource()
    let dialog = SimulatedAlertRenderer()
    let exit = SimulatedTerminator()
    let monitor = CallMonitor(ports: .simulated(calls: calls, scheduler: clock, alertRenderer: dialog, terminator: exit))
    monitor.startMonitoring(withTerminateIn: 10)
    try calls.incoming("A")
    precondition(dialog.isShowing && monitor.currentSecurityEvent?.remaining == 10)
    clock.advance(bySeconds: 10)
    precondition(exit.exitCodes == [0])
}

// A DEBUG-only switch: the platform's dialog, lifecycle and exit, with scripted calls.
@MainActor
func debugMonitor(calls: SimulatedCallSource) -> CallMonitor {
    CallMonitor(ports: .live.withCalls(from: calls))
}

// Calls from a VoIP stack of the app's own.
@MainActor
func voipMonitor() -> CallMonitor {
    let voip = ExternalCallSource()
    voip.sendCompleteList([CallSnapshot(id: CallID("sip-1"), hasConnected: true)])
    return CallMonitor(ports: .live.withCalls(from: voip))
}

// The bank's verdict on a virtual clock.
@MainActor
func scriptedVerdict(monitor: CallMonitor, clock: ManualScheduler) {
    monitor.setCallVerifier(using: ScriptedCallVerifier(scheduler: clock, script: [.init(.bankIsNotCalling, afterSeconds: 1)]))
}

// An app's test code as the README shows it: the doubles come from the hnbTesting product, beside
// hnb. Compiled by CI with the reference snippets; nothing here runs.
import hnb
import hnbTesting

@MainActor
func closesTenSecondsIntoACall() throws {
    let clock = ManualScheduler()
    let calls = SimulatedCallSource()
    let exit = SimulatedTerminator()
    let monitor = CallMonitor(
        callSource: calls, appState: SimulatedAppState(), scheduler: clock,
        alertRenderer: SimulatedAlertRenderer(), terminator: exit
    )
    monitor.startMonitoring(withTerminateIn: 10)
    try calls.incoming("A")
    clock.advance(bySeconds: 10)
    precondition(exit.exitCodes == [0])
}

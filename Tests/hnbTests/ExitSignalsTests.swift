// The risk signals after a force exit (rule 16): between the exit step and the process's end the
// app's own code still runs (the outcome handler, the before-exit hook), and what it reads must
// say why the app is closing: monitoring is off, and the call state is the aggregate the exit
// settled on, not `idle` (`MonitorEngine.callState`: "after the exit, as it was then").

import Foundation
import Testing
@testable import hnb

@Suite("The risk signals after a force exit read the call that caused it")
struct ExitSignalsTests {
    @Test("After the exit: not monitoring, the call state as it was, no event, no button")
    func signalsAfterTheExit() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(terminatePolicy(2)), now: 0)
        _ = engine.handle(.calls(.changes([live("A")])), now: 0)
        #expect(engine.signals.callState == .started)
        _ = engine.handle(.wake(), now: second)
        #expect(engine.handle(.wake(), now: 2 * second).contains(.exit(code: 0)))
        #expect(engine.hasExited)
        let signals = engine.signals
        #expect(!signals.isMonitoring)
        #expect(signals.callState == .started)
        #expect(signals.event == nil)
        #expect(!signals.isAcknowledgementRefused)
    }
}

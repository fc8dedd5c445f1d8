// Rule 23's "a call that joined asks again" lasts one step: a join the verifier could not be asked
// about (none was set) is not asked about later, when one is set again during the same event.

import Foundation
import Testing
@testable import hnb
import hnbTesting

/// The action that hands the verifier (or its removal) to the core's asker, first in the step.
private func installsVerifier(_ isSet: Bool) -> MonitorEngine.Action {
    .install(.verifier(isSet ? VerifierBox(verifier: SilentVerifier()) : nil))
}

@Suite("Verdict: a join is asked about in its own step only (rule 23)", .nothingLeftScheduled)
struct VerdictJoinClearedTests {
    @Test("Rule 23: a call that joined while no verifier was set is not asked about when one is set again")
    func rule23_joinWithoutVerifierNotAskedLater() {
        var engine = MonitorEngine()
        #expect(engine.handle(verifier(true), now: 0) == [installsVerifier(true)])
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 5)), now: 0)
        #expect(engine.handle(.calls(.changes([live("A")])), now: 0).last == .ask(request: 1, budgetEndsAt: 3 * second))
        // The verifier goes: its question closes; a second call joins with nothing to ask.
        #expect(engine.handle(verifier(false), now: second / 4) == [installsVerifier(false), .cancelAsk])
        #expect(engine.handle(.calls(.changes([live("A"), live("B")])), now: second / 2) == [])
        // Set again during the same event, which was asked about: nothing is asked.
        #expect(engine.handle(verifier(true), now: second * 3 / 4) == [installsVerifier(true)])
        // A call that joins now is asked about, in its own step.
        #expect(engine.handle(.calls(.changes([live("A"), live("B"), live("C")])), now: second * 7 / 8) == [
            .ask(request: 2, budgetEndsAt: second * 7 / 8 + 3 * second),
        ])
    }
}

// Rule 31 through the facade: `setCoachingBudget` takes the verifier's one clamp, so a budget above
// 30 seconds is held to 30: an answer after 30 seconds is late, whatever the app asked for.

import Foundation
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Coaching: the budget's ceiling through the facade (rule 31)", .nothingLeftScheduled)
struct CoachingBudgetCeilingTests {
    @Test("Rule 31: a budget of 60 s is held to 30 s; the question ends notUsedError at 30 s")
    func budgetHeldToThirtySeconds() {
        let h = Harness()
        let source = ScriptedCoachingSource()
        h.monitor.setCoachingSource(using: source)
        h.monitor.setCoachingBudget(60)
        let protection = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .payment))
        h.advance(29.9)
        #expect(source.reports == [])
        h.advance(0.1)
        #expect(source.reports == ["1 notUsedError"])
        protection.end()
        #expect(source.reports == ["1 notUsedError"])
    }
}

// The verifier budget has one clamp (issue 39): setCallVerifierBudget and a policy document's
// verifierBudget both go through CallMonitor.verifierBudgetSeconds(clamping:).

import Testing
@testable import hnb

@Suite("The verifier budget's one clamp")
struct VerifierBudgetClampTests {
    @Test("NaN is the default, below the range its floor, above it its ceiling, inside it as given", arguments: [
        (Double.nan, 3.0), (-1, 0.1), (0, 0.1), (0.1, 0.1), (2.5, 2.5), (30, 30), (31, 30), (.infinity, 30), (-.infinity, 0.1),
    ])
    func clamp(seconds: Double, expected: Double) {
        #expect(CallMonitor.verifierBudgetSeconds(clamping: seconds) == expected)
        #expect(CallMonitor.verifierBudgetNanoseconds(clamping: seconds) == Int64((expected * 1e9).rounded()))
    }
}

// Rule 33: an answer that waits for the app's return (no call live, background) belongs to its own
// protection: when that protection ends while another is still open, the waiting answer is
// reported `notUsedNotNeeded` at once, and the return to the foreground neither shows a warning for
// it nor reports it again. (With a single protection the monitor's stop reports the same status in
// the same step, which is why this needs a second protection.)

import Foundation
import Testing
@testable import hnb

@Suite("Coaching: a waiting answer ends with its protection (rule 33)")
struct CoachingWaitingEndTests {
    @Test("Rule 33: the protection's end reports its waiting answer once; the other protection keeps the monitor on")
    func waitingAnswerEndsWithItsProtection() {
        var engine = coachingEngine()
        #expect(engine.handle(.beginProtection(id: 1, ackPolicy(3), context: coachingContext()), now: 0).coachingQuestions.map(\.id) == [1])
        #expect(engine.handle(.beginProtection(id: 2, ackPolicy(3), context: coachingContext(.general)), now: 0).coachingQuestions == [])
        _ = engine.handle(.appState(isForeground: false), now: 0)
        // A high answer in the background waits for the return; nothing is reported yet.
        #expect(engine.handle(.coachingAnswered(request: 1, .init(level: .high)), now: second) == [])
        // Its protection ends, protection 2 stays open: reported now, not needed.
        #expect(engine.handle(.endProtection(id: 1), now: 2 * second).coachingReports == ["1 notUsedNotNeeded"])
        #expect(engine.isMonitoring)
        // Back in the foreground: no coaching warning for the ended protection, no second report.
        #expect(engine.handle(.appState(isForeground: true), now: 3 * second).labels == [])
        #expect(engine.handle(.endProtection(id: 2), now: 4 * second).coachingReports == [])
    }
}

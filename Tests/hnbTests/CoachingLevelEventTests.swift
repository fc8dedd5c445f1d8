// Rule 34 through the facade: a delegate that draws its own UI learns the coaching level from the
// event it reads (`CallMonitorSecurityEvent.coachingLevel`), published after each step; it is told
// nothing new, and its countdown goes on as before.

import Foundation
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Coaching: the level a delegate reads from the event (rule 34)", .nothingLeftScheduled)
struct CoachingLevelEventTests {
    @Test("The event says unknown, then high once the answer is read, then medium when that protection ends; the delegate hears only the countdown")
    func delegateReadsTheLevel() async throws {
        let h = Harness(callback: false)
        let delegate = ContextRecordingDelegate(log: h.log)
        h.monitor.setDelegate(delegate)
        let source = ScriptedCoachingSource()
        h.monitor.setCoachingSource(using: source)
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        let payment = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .payment))
        let login = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .credentials))
        #expect(h.monitor.currentSecurityEvent?.coachingLevel == .unknown)
        source.answer(2, .init(level: .medium))
        source.answer(1, .init(level: .high))
        await drainMainQueue()
        h.advance(0)
        let event = try #require(h.monitor.currentSecurityEvent)
        #expect(event.coachingLevel == .high)
        #expect(event.description == "terminate 5/5 action=true refused=false captured=false coaching=high")
        #expect(event != CallMonitorSecurityEvent(
            flow: .terminate, remaining: 5, seconds: 5, startedAt: event.startedAt, isActionAvailable: true, isAcknowledgementRefused: false,
            wasScreenCaptured: false
        ))
        #expect(event == CallMonitorSecurityEvent(
            flow: .terminate, remaining: 5, seconds: 5, startedAt: event.startedAt, isActionAvailable: true, isAcknowledgementRefused: false,
            wasScreenCaptured: false, coachingLevel: .high
        ))
        h.advance(1)
        payment.end()
        #expect(h.monitor.currentSecurityEvent?.coachingLevel == .medium)
        login.end()
        #expect(h.monitor.currentSecurityEvent?.coachingLevel == .unknown)
        #expect(h.monitor.currentSecurityEvent?.remaining == 4)
        #expect(source.reports == ["2 usedUnchangedFriction", "1 usedUnchangedFriction"])
        #expect(h.take() == ["0 detect terminate 5", "1 tick 4"])
        h.monitor.stopMonitoring()
        #expect(h.take() == ["1 end"])
    }
}

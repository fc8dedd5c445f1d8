// Issue 30, accessibility: what VoiceOver is told on its own while the built-in dialog counts down
// (WCAG 4.1.3 Status Messages), decided by `Announcements` and carried out by the UIKit renderer.

import Testing
@testable import hnb

@Suite("Accessibility: the announcements of the built-in dialog")
struct AnnouncementTests {
    @Test("The milestones: every 10 s above 10, then 10, 5, 3, 2, 1; never 0")
    func milestones() {
        let said = (0...65).filter { Announcements.isMilestone(Int32($0)) }
        #expect(said == [1, 2, 3, 5, 10, 20, 30, 40, 50, 60])
        #expect(Announcements.isMilestone(Int32.max) == false)
        #expect(Announcements.isMilestone(2_147_483_640) == true)
        #expect(Announcements.isMilestone(-5) == false)
    }

    @Test("A 30-second terminate countdown is announced 6 times, not 30 nor every fifth second")
    func thirtySecondCountdown() {
        var drawn = SecurityAlert(flow: .terminate, remaining: 30, strings: .english)
        var said: [String] = []
        for value in stride(from: Int32(29), through: 0, by: -1) {
            let next = SecurityAlert(flow: .terminate, remaining: value, strings: .english)
            if let text = Announcements.announcement(from: drawn, to: next) { said.append(text) }
            drawn = next
        }
        #expect(said == [
            "App will close in 20 seconds.", "App will close in 10 seconds.", "App will close in 5 seconds.",
            "App will close in 3 seconds.", "App will close in 2 seconds.", "App will close in 1 second.",
        ])
    }

    @Test("A verdict line is announced when it appears, before the countdown; a redraw with the same value says nothing again")
    func verdictAndRedraws() {
        let ten = SecurityAlert(flow: .terminate, remaining: 10, strings: .english)
        let tenWithVerdict = SecurityAlert(flow: .terminate, remaining: 10, strings: .english, verdict: .bankIsNotCalling)
        #expect(Announcements.announcement(from: ten, to: tenWithVerdict) == "Your bank is not calling you. Hang up now.")
        let five = SecurityAlert(flow: .terminate, remaining: 5, strings: .english, verdict: .bankIsCalling)
        #expect(Announcements.announcement(from: tenWithVerdict, to: five) == "Your bank is on a call with you right now. App will close in 5 seconds.")
        // The context changes at a milestone value: nothing is said again.
        let withContext = SecurityAlert(flow: .terminate, remaining: 10, strings: .english, context: CallMonitorContext(kind: .payment))
        #expect(Announcements.announcement(from: ten, to: withContext) == nil)
        // The acknowledge flow's countdown line is gone at 0: nothing to say.
        let ackOne = SecurityAlert(flow: .acknowledge, remaining: 1, strings: .english)
        #expect(Announcements.announcement(from: SecurityAlert(flow: .acknowledge, remaining: 2, strings: .english), to: ackOne) == "Acknowledge in 1 second.")
        #expect(Announcements.announcement(from: ackOne, to: SecurityAlert(flow: .acknowledge, remaining: 0, strings: .english)) == nil)
    }
}

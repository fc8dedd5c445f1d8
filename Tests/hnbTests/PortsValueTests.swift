// The ports value an app builds a monitor of its own from (`CallMonitor.Ports`): the spelling an
// app's tests use with the hnbTesting doubles, and a VoIP feed of the app's own in place of the
// platform's calls. Public API as an app would write it (no @testable import); only the dialog's
// title is read through the package's view of the simulated renderer.

import Testing
import hnb
import hnbTesting

@MainActor
@Suite("The ports value: a monitor of your own")
struct PortsValueTests {
    @Test("A simulated monitor: the terminate flow shows the dialog at 10 and exits at 0, as the testing article shows")
    func simulatedTerminate() throws {
        let clock = ManualScheduler()
        let calls = SimulatedCallSource()
        let dialog = SimulatedAlertRenderer()
        let exits = SimulatedTerminator()
        let monitor = CallMonitor(ports: .simulated(calls: calls, scheduler: clock, alertRenderer: dialog, terminator: exits))
        monitor.startMonitoring(withTerminateIn: 10)

        try calls.incoming("A")
        #expect(dialog.isShowing)
        #expect(monitor.currentSecurityEvent?.remaining == 10)
        clock.advance(bySeconds: 9)
        #expect(monitor.currentSecurityEvent?.remaining == 1)
        #expect(exits.exitCodes == [])
        clock.advance(bySeconds: 1)
        #expect(exits.exitCodes == [0])
        monitor.stopMonitoring()
        #expect(clock.pendingCount == 0)
    }

    @Test("withCalls(from:) replaces only the calls: an ExternalCallSource's list reaches the monitor, its end ends the event")
    func externalFeed() {
        let clock = ManualScheduler()
        let voip = ExternalCallSource()
        let dialog = SimulatedAlertRenderer()
        let base = CallMonitor.Ports.simulated(calls: SimulatedCallSource(), scheduler: clock, alertRenderer: dialog)
        let monitor = CallMonitor(ports: base.withCalls(from: voip))
        var events: [CallEvent] = []
        monitor.setCallback { events.append($0) }
        monitor.startMonitoring(withAcknowledgeIn: 3)

        voip.sendCompleteList([CallSnapshot(id: CallID("sip-1"), hasConnected: true)])
        #expect(events == [.started])
        #expect(dialog.isShowing)
        voip.sendCompleteList([])
        #expect(events == [.started, .ended])
        #expect(!dialog.isShowing)
        #expect(voip.liveCalls == [])
        monitor.stopMonitoring()
        #expect(clock.pendingCount == 0)
    }

    @Test("ExternalCallSource: a complete list replaces the calls and their order; a call listed again appears once")
    func externalCompleteListReplacesOrder() {
        let voip = ExternalCallSource()
        let a = CallSnapshot(id: CallID("A"), hasConnected: true)
        let b = CallSnapshot(id: CallID("B"), hasConnected: false)
        voip.sendCompleteList([a, b])
        voip.sendCompleteList([a, b])
        #expect(voip.liveCalls.map(\.id) == [CallID("A"), CallID("B")])
        voip.sendCompleteList([b, a])
        #expect(voip.liveCalls.map(\.id) == [CallID("B"), CallID("A")])
        voip.sendCompleteList([b])
        #expect(voip.liveCalls.map(\.id) == [CallID("B")])
        voip.send([a])
        #expect(voip.liveCalls.map(\.id) == [CallID("B"), CallID("A")])
        voip.sendCompleteList([])
        #expect(voip.liveCalls.isEmpty)
    }

    @Test("The language given to simulated ports is the built-in dialog's, and the button taps through it")
    func simulatedLanguage() throws {
        let clock = ManualScheduler()
        let calls = SimulatedCallSource()
        let dialog = SimulatedAlertRenderer()
        let monitor = CallMonitor(ports: .simulated(calls: calls, scheduler: clock, alertRenderer: dialog, language: "de"))
        var outcomes: [CallMonitorOutcomeEnding] = []
        monitor.setOutcomeHandler { outcomes.append($0.ending) }
        monitor.startMonitoring(withAcknowledgeIn: 0)
        try calls.incoming("A")
        #expect(dialog.current?.title == "Sicherheitsrichtlinie")
        #expect(dialog.tapButton())
        #expect(!dialog.isShowing)
        #expect(outcomes == [.acknowledged])
        monitor.stopMonitoring()
        try calls.end("A")
        #expect(clock.pendingCount == 0)
    }
}

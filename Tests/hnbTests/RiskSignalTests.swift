// Split out of RiskTests.swift so that each file holds one suite, named as the file (issue 39).

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting

#if canImport(Observation)
import Observation

#endif
@MainActor
@Suite("Risk signals", .nothingLeftScheduled)
struct RiskSignalTests {
    @Test("callState, isMonitoring and the current event follow every step, with exact values")
    func gettersFollowTheEngine() throws {
        let h = Harness(logsOutcomes: true)
        #expect(h.monitor.callState == .idle)
        #expect(h.monitor.isMonitoring == false)
        #expect(h.monitor.currentSecurityEvent == nil)
        h.monitor.startMonitoring(withAcknowledgeIn: 2)
        #expect(h.monitor.isMonitoring == true)
        h.at(1)
        try h.calls.incoming("A")
        #expect(h.monitor.callState == .ringing)
        #expect(h.monitor.currentSecurityEvent == CallMonitorSecurityEvent(
            flow: .acknowledge, remaining: 2, seconds: 2, startedAt: ns(1),
            isActionAvailable: false, isAcknowledgementRefused: false, wasScreenCaptured: false
        ))
        try h.calls.connect("A")
        #expect(h.monitor.callState == .started)
        h.at(3)
        #expect(h.monitor.currentSecurityEvent == CallMonitorSecurityEvent(
            flow: .acknowledge, remaining: 0, seconds: 2, startedAt: ns(1),
            isActionAvailable: true, isAcknowledgementRefused: false, wasScreenCaptured: false
        ))
        #expect(h.renderer.tapButton())
        #expect(h.monitor.currentSecurityEvent == nil)
        #expect(h.monitor.callState == .started)
        try h.calls.end("A")
        #expect(h.monitor.callState == .idle)
        h.monitor.stopMonitoring()
        #expect(h.monitor.isMonitoring == false)
    }

    @Test("Terminate: the action is always available; the monitor stops being 'monitoring' at the exit")
    func terminateEventSignals() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withTerminateIn: 3)
        try h.calls.incoming("A")
        h.at(1)
        #expect(h.monitor.currentSecurityEvent?.description == "terminate 2/3 action=true refused=false captured=false")
        h.at(3)
        #expect(h.monitor.isMonitoring == false)
        #expect(h.monitor.currentSecurityEvent == nil)
        #expect(h.terminator.exitCodes == [0])
    }

    @Test("wasCallLive: live now, then exactly the window after the end, on the monotonic clock")
    func recentCallWindow() throws {
        let h = Harness(logsOutcomes: true)
        #expect(h.monitor.wasCallLive(withinLast: 1e9) == false)
        h.monitor.startMonitoring(withAcknowledgeIn: 5)
        h.at(10)
        try h.calls.incoming("A")
        #expect(h.monitor.wasCallLive(withinLast: 0) == true)
        h.at(20)
        try h.calls.end("A")
        #expect(h.monitor.wasCallLive(withinLast: 0) == true)  // ended at this very nanosecond
        h.at(20.000_000_001)
        #expect(h.monitor.wasCallLive(withinLast: 0) == false)
        h.at(50)
        #expect(h.monitor.wasCallLive(withinLast: 30) == true)
        #expect(h.monitor.wasCallLive(withinLast: 29.999_999_999) == false)
        // The device's time moves back a day and forward a year: nothing changes.
        h.wall.setJump(-86_400)
        #expect(h.monitor.wasCallLive(withinLast: 30) == true)
        #expect(h.monitor.wasCallLive(withinLast: 29.999_999_999) == false)
        h.wall.setJump(31_536_000)
        #expect(h.monitor.wasCallLive(withinLast: 30) == true)
        #expect(h.monitor.wasCallLive(withinLast: 29.999_999_999) == false)
    }

    @Test("wasCallLive clamps bad input: negative is 0, NaN and infinity are forever")
    func recentCallClamps() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withAcknowledgeIn: 5)
        try h.calls.incoming("A")
        #expect(h.monitor.wasCallLive(withinLast: -5) == true)  // live now
        try h.calls.end("A")
        h.at(100_000)
        #expect(h.monitor.wasCallLive(withinLast: -5) == false)
        #expect(h.monitor.wasCallLive(withinLast: -.infinity) == false)
        #expect(h.monitor.wasCallLive(withinLast: .nan) == true)
        #expect(h.monitor.wasCallLive(withinLast: .infinity) == true)
        #expect(h.monitor.wasCallLive(withinLast: .greatestFiniteMagnitude) == true)
        #expect(h.monitor.wasCallLive(withinLast: 99_999) == false)
        #expect(h.monitor.wasCallLive(withinLast: 100_000) == true)
        #expect(RiskSnapshot.nanoseconds(clampingWindow: 1.5) == 1_500_000_000)
        #expect(RiskSnapshot.nanoseconds(clampingWindow: -0.0) == 0)
        #expect(RiskSnapshot.nanoseconds(clampingWindow: 1e300) == .max)
    }

    @Test("Stopping during a call counts the call as live until the stop; while off, calls are not observed")
    func recentCallAcrossStop() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withTerminateIn: 30)
        try h.calls.incoming("A")
        h.at(5)
        h.monitor.stopMonitoring()
        #expect(h.monitor.callState == .idle)
        h.at(8)
        #expect(h.monitor.wasCallLive(withinLast: 3) == true)
        #expect(h.monitor.wasCallLive(withinLast: 2.9) == false)
        try h.calls.end("A")
        try h.calls.incoming("B")
        #expect(h.monitor.wasCallLive(withinLast: 2.9) == false)
        // A new start reports the call in progress at once.
        h.monitor.startMonitoring(withTerminateIn: 30)
        #expect(h.monitor.wasCallLive(withinLast: 0) == true)
    }

    @Test("A scheduler that cannot be read off the main thread: the window is measured up to the latest step (never less cautious)")
    func recentCallWithMainOnlyClock() throws {
        let scheduler = MainOnlyScheduler()
        let calls = SimulatedCallSource()
        let monitor = CallMonitor(callSource: calls, appState: SimulatedAppState(), scheduler: scheduler,
                                  alertRenderer: SimulatedAlertRenderer(), terminator: SimulatedTerminator())
        monitor.startMonitoring(withAcknowledgeIn: 0)
        try calls.incoming("A")
        scheduler.inner.advance(bySeconds: 10)
        try calls.end("A")
        scheduler.inner.advance(bySeconds: 100)
        // No step since the end: as far as the snapshot knows, no time has passed.
        #expect(monitor.wasCallLive(withinLast: 0) == true)
        monitor.setRefusesAcknowledgementWhileScreenCaptured(false)
        #expect(monitor.wasCallLive(withinLast: 99) == false)
        #expect(monitor.wasCallLive(withinLast: 100) == true)
    }
}

/// A scheduler whose clock is main-actor only, like one an embedder might write.
@MainActor
final class MainOnlyScheduler: MonitorScheduler {
    let inner = ManualScheduler()
    var now: Int64 { inner.now }
    func schedule(at deadline: Int64, _ work: @escaping @MainActor () -> Void) -> any ScheduledWork {
        inner.schedule(at: deadline, work)
    }
}

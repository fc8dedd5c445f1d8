// Split out of RiskTests.swift so that each file holds one suite, named as the file (issue 39).

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting

#if canImport(Observation)
import Observation

/// Counts observation callbacks. `@unchecked Sendable`: `count` is only touched under `lock`.
final class ChangeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

@MainActor
@Suite("Observable state", .nothingLeftScheduled)
struct ObservableStateTests {
    @Test("Mirrors call state and the event, replaces the built-in dialog, and offers the user action")
    func mirrors() throws {
        let h = Harness(logsOutcomes: true)
        let state = CallMonitorState.of(h.monitor)
        h.monitor.startMonitoring(withAcknowledgeIn: 1)
        #expect(state.isMonitoring == true)
        let changes = ChangeCounter()
        withObservationTracking { _ = state.securityEvent } onChange: { changes.add() }
        try h.calls.incoming("A")
        #expect(changes.value == 1)
        #expect(state.callState == .ringing)
        #expect(state.securityEvent == CallMonitorSecurityEvent(
            flow: .acknowledge, remaining: 1, seconds: 1, startedAt: 0,
            isActionAvailable: false, isAcknowledgementRefused: false, wasScreenCaptured: false
        ))
        state.performUserAction()  // too early: the engine refuses
        #expect(state.securityEvent?.remaining == 1)
        h.at(1)
        #expect(state.securityEvent?.isActionAvailable == true)
        state.performUserAction()
        #expect(state.securityEvent == nil)
        #expect(state.callState == .ringing)
        // The built-in dialog never showed: the state object is the delegate.
        #expect(h.take() == ["0 event ringing", "1 outcome acknowledged"])
    }

    @Test("Only a real change notifies: a tick notifies the event, not the call state")
    func notifiesOnChange() throws {
        let h = Harness(logsOutcomes: true)
        let state = CallMonitorState.of(h.monitor)
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        let callStateChanges = ChangeCounter()
        let eventChanges = ChangeCounter()
        withObservationTracking { _ = state.callState } onChange: { callStateChanges.add() }
        withObservationTracking { _ = state.securityEvent } onChange: { eventChanges.add() }
        h.at(1)
        #expect(callStateChanges.value == 0)
        #expect(eventChanges.value == 1)
        #expect(state.securityEvent?.remaining == 4)
    }

    @Test("One per monitor: asking again (as SwiftUI re-creating a view does) gives the same object and no hand-over")
    func onePerMonitor() throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.startMonitoring(withTerminateIn: 5)
        let first = CallMonitorState.of(h.monitor)
        try h.calls.incoming("A")
        for _ in 0..<3 { #expect(CallMonitorState.of(h.monitor) === first) }
        h.at(1)
        // Kept by the monitor: nothing of the app holds `first` any more, yet it still mirrors.
        #expect(first.securityEvent?.remaining == 4)
        #expect(h.take() == ["0 event ringing"])
        let other = Harness(logsOutcomes: true)
        #expect(CallMonitorState.of(other.monitor) !== first)
    }

    @Test("Another delegate takes the event over; becomeDelegate() brings it back")
    func anotherDelegate() throws {
        let h = Harness(logsOutcomes: true)
        let state = CallMonitorState.of(h.monitor)
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        h.monitor.setDelegate(nil)
        state.performUserAction()
        #expect(state.securityEvent?.flow == .acknowledge)
        state.becomeDelegate()
        state.performUserAction()
        #expect(state.securityEvent == nil)
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 0 button=Acknowledge", "0 dismiss", "0 outcome acknowledged"])
    }
}

#endif

// Split out of ResumeTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
@testable import hnbTesting

@MainActor
@Suite("Issue 37 through the facade: the suspension race in both orders and both flows", .nothingLeftScheduled)
struct ResumeFacadeTests {
    /// The sequence up to the suspension: `flow` 10 from 0, call A rings at 1, background
    /// at 3; at 4 the process is suspended and the call ends at 8 without the app hearing of it.
    private func suspended(_ flow: CallMonitorFlow, callEnds: Bool = true) throws -> Harness {
        let h = Harness(logsOutcomes: true)
        h.monitor.setDelegate(h.delegate())
        if flow == .terminate { h.monitor.startMonitoring(withTerminateIn: 10) } else { h.monitor.startMonitoring(withAcknowledgeIn: 10) }
        h.at(1)
        try h.calls.incoming("A")
        h.at(3)
        h.app.setForeground(false)
        h.at(4)
        if callEnds { try h.calls.withoutNotifying { try h.calls.end("A") } }
        return h
    }

    private let countdown = ["1 event ringing", "1 delegate detect terminate 10", "2 delegate tick 9", "3 delegate tick 8", "4 delegate tick 7"]

    @Test("Rule 8 (issue 37), terminate, the overdue wake-up first: the list read again at the exit ends the event; no exit", arguments: [true, false])
    func terminateWakeUpFirst(returns: Bool) throws {
        let h = try suspended(.terminate)
        _ = h.take()
        // The resume: the overdue wake-up runs before anything else.
        h.scheduler.suspend(forSeconds: 26)
        if returns { h.app.setForeground(true) }
        h.calls.deliverCompleteList()
        h.advance(5)
        #expect(h.take() == ["30 delegate tick 0", "30 event ended", "30 delegate end", "30 outcome callEnded"])
        #expect(h.terminator.exitCodes == [])
    }

    @Test("Rule 8 (issue 37), terminate, the queued list first: the event ends with the call; no tick 0, no exit")
    func terminateListFirst() throws {
        let h = try suspended(.terminate)
        #expect(h.take() == countdown)
        h.scheduler.move(to: 30 * s)
        h.calls.deliverCompleteList()
        h.advance(5)
        #expect(h.take() == ["30 event ended", "30 delegate end", "30 outcome callEnded"])
        #expect(h.terminator.exitCodes == [])
    }

    @Test("Rule 5 (issue 37), terminate, fail closed: the call still live at the resume: the exit happens at the resume's instant")
    func terminateCallLive() throws {
        let h = try suspended(.terminate, callEnds: false)
        _ = h.take()
        h.scheduler.suspend(forSeconds: 26)
        #expect(h.take() == ["30 delegate tick 0", "30 outcome forceExit", "30 exit 0"])
    }

    @Test("Rule 8 (issue 37), acknowledge, the overdue wake-up first: tick 0, then the list ends the event")
    func acknowledgeWakeUpFirst() throws {
        let h = try suspended(.acknowledge)
        #expect(h.take() == [
            "1 event ringing", "1 delegate detect acknowledge 10", "2 delegate tick 9", "3 delegate tick 8", "4 delegate tick 7",
        ])
        h.scheduler.suspend(forSeconds: 26)
        h.calls.deliverCompleteList()
        h.advance(5)
        #expect(h.take() == ["30 delegate tick 0", "30 event ended", "30 delegate end", "30 outcome callEnded"])
    }

    @Test("Rule 8 (issue 37), acknowledge, the queued list first: the event ends before the button could show")
    func acknowledgeListFirst() throws {
        let h = try suspended(.acknowledge)
        _ = h.take()
        h.scheduler.move(to: 30 * s)
        h.calls.deliverCompleteList()
        h.advance(5)
        #expect(h.take() == ["30 event ended", "30 delegate end", "30 outcome callEnded"])
    }
}

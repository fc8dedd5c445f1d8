// Split out of GuardContractTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

/// A call source that, while it starts, has another thread make an API call (as an app's
/// background work might at that moment), then delivers its list on the main thread.
@MainActor
final class InterruptingCallSource: CallSource {
    private(set) var starts = 0
    /// Runs on another thread during the next start, once.
    var duringStart: (@Sendable () -> Void)?

    func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) {
        starts += 1
        if let work = duringStart {
            duringStart = nil
            DispatchQueue.global().sync { work() }
        }
        deliver(.complete([CallSnapshot(id: CallID("A"))]))
    }

    func stop() {}
}

@MainActor
@Suite("Mailbox order", .nothingLeftScheduled)
struct MailboxOrderTests {
    @Test("Rule 18: commands sent while a source starts come after the rest of the batch being applied, never before it")
    func nestedDrainKeepsOrder() async throws {
        let source = InterruptingCallSource()
        let renderer = SimulatedAlertRenderer()
        let monitor = CallMonitor(callSource: source, appState: SimulatedAppState(), scheduler: ManualScheduler(),
                                  alertRenderer: renderer, terminator: SimulatedTerminator())
        let first = ProtectionBox()
        // The first protection's end is made while the source starts: after both begins.
        source.duringStart = { first.all.first?.end() }
        // Both begins wait in the mailbox together: the main queue is busy with this test.
        DispatchQueue.global().sync {
            first.append(monitor.protect(withTerminateIn: 5))
            first.append(monitor.protect(withAcknowledgeIn: 3))
        }
        await drainMainQueue()
        // In order: begin, begin, end of the first: the second alone guards, one start. Out of
        // order the end would have stopped the monitor between the two begins.
        #expect(source.starts == 1)
        #expect(renderer.current?.flow == .acknowledge)
        #expect(monitor.isMonitoring)
        for protection in first.all { protection.end() }
    }
}

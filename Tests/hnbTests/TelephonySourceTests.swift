// The libdbus call source itself, without daemons (Telephony trait builds on Linux only): a bus
// that cannot be reached is a typed error and an empty first list, and a monitor whose call
// detection is off never makes the source connect.

// The telephony types are compiled only on Linux.
#if os(Linux)

#if Telephony && os(Linux)
import Foundation
import Testing
@testable import hnb
import hnbTesting

/// Statuses and batches a source reported, from its own thread.
///
/// `@unchecked Sendable`: both arrays are only touched under `lock`.
final class SourceRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [Telephony.Status] = []
    private var batches: [CallBatch] = []

    func status(_ status: Telephony.Status) { lock.withLock { statuses.append(status) } }
    func batch(_ batch: CallBatch) { lock.withLock { batches.append(batch) } }
    var seen: (statuses: [Telephony.Status], batches: [CallBatch]) { lock.withLock { (statuses, batches) } }
}

/// A socket path that does not exist, in a folder that does.
private let missingBus = "unix:path=\(NSTemporaryDirectory())callmonitor-no-such-bus-\(getpid())"

@MainActor
@Suite("Telephony source (libdbus, no daemon)", .nothingLeftScheduled)
struct TelephonySourceTests {
    @Test("an unreachable bus: a typed busUnavailable error, then no telephony (one empty complete list)")
    func unreachableBus() async throws {
        let recorder = SourceRecorder()
        let source = TelephonyCallSource(backend: .auto, busAddress: missingBus) { recorder.status($0) }
        source.start { recorder.batch($0) }
        defer { source.stop() }
        // The first failure, then a second and a half of retries (one a second): each distinct
        // failure is reported once. A slow start only means fewer retries, never a second report.
        await Patience.wait { !recorder.seen.batches.isEmpty && !recorder.seen.statuses.isEmpty }
        try await Task.sleep(nanoseconds: 1_500_000_000)
        let seen = recorder.seen
        #expect(seen.batches == [.complete([])])
        #expect(seen.statuses.count == 1)
        guard case .failed(.busUnavailable(let why))? = seen.statuses.first else {
            Issue.record("expected busUnavailable, got \(seen.statuses)")
            return
        }
        #expect(why.contains("No such file or directory") || why.contains("NoServer") || why.contains("FileNotFound"), "\(why)")
    }

    @Test("call detection off: the source is never started, so it never even tries the bus")
    func callDetectionOffCreatesNothing() async throws {
        let recorder = SourceRecorder()
        let source = TelephonyCallSource(backend: .auto, busAddress: missingBus) { recorder.status($0) }
        let monitor = CallMonitor(
            callSource: source, appState: SimulatedAppState(), scheduler: ManualScheduler(),
            alertRenderer: SimulatedAlertRenderer(), terminator: SimulatedTerminator()
        )
        monitor.setCallDetectionEnabled(false)
        monitor.startMonitoring(withTerminateIn: 5)
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(recorder.seen.statuses == [])
        monitor.stopMonitoring()
        // The same source, with detection on: it does try, which shows the check above could fail.
        monitor.setCallDetectionEnabled(true)
        monitor.startMonitoring(withTerminateIn: 5)
        await Patience.wait { !recorder.seen.statuses.isEmpty }
        monitor.stopMonitoring()
        #expect(recorder.seen.statuses.count == 1)
    }
}
#endif
#endif

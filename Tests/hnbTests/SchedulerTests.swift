// The two schedulers the engine runs on: the manual one of the tests (virtual time, in deadline
// order) and the live one (main queue, never early).

import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Schedulers", .nothingLeftScheduled)
struct SchedulerTests {
    @Test("ManualScheduler runs due work in deadline order, ties in scheduling order, and cancels")
    func manualOrder() {
        let scheduler = ManualScheduler()
        var ran: [String] = []
        _ = scheduler.schedule(at: 2_000) { ran.append("b@\(scheduler.now)") }
        _ = scheduler.schedule(at: 1_000) { ran.append("a@\(scheduler.now)") }
        _ = scheduler.schedule(at: 2_000) { ran.append("c@\(scheduler.now)") }
        let cancelled = scheduler.schedule(at: 1_500) { ran.append("x") }
        cancelled.cancel()
        #expect(scheduler.pendingCount == 3)
        #expect(scheduler.nextDeadline == 1_000)
        scheduler.advance(by: 1_999)
        #expect(ran == ["a@1000"])
        scheduler.advance(by: 10)
        #expect(ran == ["a@1000", "b@2000", "c@2000"])
        #expect(scheduler.now == 2_009)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("Work scheduled while advancing runs in the same advance when due")
    func manualChained() {
        let scheduler = ManualScheduler()
        var ran: [Int64] = []
        func again() {
            ran.append(scheduler.now)
            if ran.count < 3 { _ = scheduler.schedule(at: scheduler.now + 10) { again() } }
        }
        _ = scheduler.schedule(at: 10) { again() }
        scheduler.advance(to: 100)
        #expect(ran == [10, 20, 30])
    }

    @Test("Suspension runs late work once, at the wake-up instant")
    func manualSuspension() {
        let scheduler = ManualScheduler()
        var ran: [Int64] = []
        _ = scheduler.schedule(at: 10) { ran.append(scheduler.now) }
        _ = scheduler.schedule(at: 20) { ran.append(scheduler.now) }
        scheduler.suspend(for: 50)
        #expect(ran == [50, 50])
    }

    @Test("Seconds convert to nanoseconds with rounding and saturation")
    func secondsConversion() {
        #expect(ManualScheduler.nanoseconds(1.5) == 1_500_000_000)
        #expect(ManualScheduler.nanoseconds(-3) == 0)
        #expect(ManualScheduler.nanoseconds(.infinity) == .max)
        #expect(ManualScheduler.nanoseconds(.nan) == 0)
        #expect(ManualScheduler.nanoseconds(1e300) == .max)
    }

    @Test("LiveScheduler fires on the main queue, not before its deadline")
    func liveFires() async {
        let scheduler = LiveScheduler()
        let deadline = scheduler.now + 20_000_000
        // The handle is dropped on purpose: the timer must fire anyway.
        let firedAt: Int64 = await withCheckedContinuation { continuation in
            _ = scheduler.schedule(at: deadline) {
                expectOnMainQueue()
                continuation.resume(returning: scheduler.now)
            }
        }
        #expect(firedAt >= deadline)
    }

    @Test("A cancelled LiveScheduler timer never runs")
    func liveCancel() async {
        let scheduler = LiveScheduler()
        var ran = false
        let work = scheduler.schedule(at: scheduler.now + 5_000_000) { ran = true }
        work.cancel()
        let done: Void = await withCheckedContinuation { continuation in
            _ = scheduler.schedule(at: scheduler.now + 30_000_000) { continuation.resume() }
        }
        _ = done
        #expect(!ran)
    }
}

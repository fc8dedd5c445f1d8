// Four parts of `callmonitor bench`: countdown precision on the live scheduler against a naive
// chain of one-second delays, detection latency across threads, engine throughput, and idle cost.

import Dispatch
import hnb
import hnbTesting

extension Bench {
    /// Runs the monitor's terminate countdown and a naive chain of one-second delays at the same
    /// time; returns each one's tick lateness in milliseconds.
    static func countdown(seconds: Int32, clock: LiveScheduler) async -> ([Double], [Double]) {
        let calls = ExternalCallSource()
        let terminator = SimulatedTerminator()
        let monitor = CallMonitor(callSource: calls, appState: ProcessAppState(), scheduler: clock,
                                  alertRenderer: SimulatedAlertRenderer(), terminator: terminator)
        let delegate = BenchDelegate()
        monitor.setDelegate(delegate)
        monitor.startMonitoring(withTerminateIn: seconds)

        var start: Int64 = 0
        var live: [Double] = []
        delegate.onDetect = { _ in start = clock.now }
        delegate.onTick = { remaining in
            let k = Int64(seconds - remaining)
            live.append(Double(clock.now - (start + k * 1_000_000_000)) / 1e6)
        }

        async let naive: [Double] = naiveCountdown(seconds: seconds, clock: clock)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            terminator.onTerminate = { _ in done.resume() }
            calls.send([CallSnapshot(id: CallID("bench"), hasConnected: true)])
        }
        let naiveResult = await naive
        withExtendedLifetime(delegate) {}
        return (live, naiveResult)
    }

    /// What a countdown built from chained one-second `asyncAfter` calls would do.
    static func naiveCountdown(seconds: Int32, clock: LiveScheduler) async -> [Double] {
        await withCheckedContinuation { (done: CheckedContinuation<[Double], Never>) in
            TickSeries(.chainedAsyncAfter, seconds: seconds, clock: clock, done: { done.resume(returning: $0) }).next()
        }
    }

    /// For each call: a background queue delivers it, the delegate on the main thread notes when
    /// it hears of it; the call then ends before the next one.
    static func detection(count: Int, clock: LiveScheduler) async -> [Double] {
        let calls = ExternalCallSource()
        let monitor = CallMonitor(callSource: calls, appState: ProcessAppState(), scheduler: clock,
                                  alertRenderer: SimulatedAlertRenderer(), terminator: SimulatedTerminator())
        let delegate = BenchDelegate()
        monitor.setDelegate(delegate)
        monitor.startMonitoring(withAcknowledgeIn: 5)
        let queue = DispatchQueue(label: "bench.callsource")
        let sentAt = Locked<Int64>(0)
        var latencies: [Double] = []
        latencies.reserveCapacity(count)
        for i in 0..<count {
            let id = CallID("call-\(i)")
            await withCheckedContinuation { (heard: CheckedContinuation<Void, Never>) in
                delegate.onDetect = { _ in
                    latencies.append(Double(clock.now - sentAt.value) / 1e6)
                    heard.resume()
                }
                queue.async {
                    sentAt.set(clock.now)
                    calls.send([CallSnapshot(id: id)])
                }
            }
            calls.send([CallSnapshot(id: id, hasEnded: true)])
        }
        withExtendedLifetime(delegate) {}
        monitor.stopMonitoring()
        return latencies
    }

    /// Events per second through CallMonitor with `calls` calls live, on the manual scheduler.
    static func throughput(calls callCount: Int, events: Int) -> Double {
        let scheduler = ManualScheduler()
        let calls = ExternalCallSource()
        let app = SimulatedAppState()
        let renderer = SimulatedAlertRenderer()
        let monitor = CallMonitor(callSource: calls, appState: app, scheduler: scheduler,
                                  alertRenderer: renderer, terminator: SimulatedTerminator())
        monitor.setCallback { _ in }
        monitor.startMonitoring(withAcknowledgeIn: 2)
        var ids = (0..<callCount).map { CallID("c\($0)") }
        var held = [Bool](repeating: false, count: callCount)
        var nextID = callCount
        for id in ids { calls.send([CallSnapshot(id: id, hasConnected: true)]) }
        var rng = SeededGenerator(seed: 42)
        let wallClock = LiveScheduler()
        let started = wallClock.now
        for _ in 0..<events {
            let roll = rng.next() % 100
            let i = Int(rng.next() % UInt64(callCount))
            switch roll {
            case 0..<60:
                held[i].toggle()
                calls.send([CallSnapshot(id: ids[i], hasConnected: true, isOnHold: held[i])])
            case 60..<70:
                calls.send([CallSnapshot(id: ids[i], hasConnected: true, hasEnded: true)])
                nextID += 1
                ids[i] = CallID("c\(nextID)")
                held[i] = false
                calls.send([CallSnapshot(id: ids[i])])
            case 70..<80:
                app.setForeground(!app.isForeground)
            case 80..<90:
                renderer.tapButton()
            default:
                scheduler.advance(by: Int64(rng.next() % 1_500_000_000))
            }
        }
        let elapsed = Double(wallClock.now - started) / 1e9
        monitor.stopMonitoring()
        return Double(events) / elapsed
    }

    /// Monitoring on with no call: what the monitor schedules and costs while the app is in use.
    static func idleCost(seconds: Double) async -> (timers: Int, wakeUps: Int, cpu: Double, baselineCPU: Double) {
        let baselineStart = cpuMilliseconds()
        await sleep(seconds)
        let baseline = cpuMilliseconds() - baselineStart

        let scheduler = CountingScheduler()
        let monitor = CallMonitor(callSource: ExternalCallSource(), appState: ProcessAppState(), scheduler: scheduler,
                                  alertRenderer: SimulatedAlertRenderer(), terminator: SimulatedTerminator())
        monitor.startMonitoring(withTerminateIn: 10)
        let cpuStart = cpuMilliseconds()
        await sleep(seconds)
        let cpu = cpuMilliseconds() - cpuStart
        monitor.stopMonitoring()
        return (scheduler.scheduled, scheduler.fired, cpu, baseline)
    }

    static func sleep(_ seconds: Double) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { done.resume() }
        }
    }
}

// The measurements of `callmonitor bench` (BenchCommand.swift reads the option): countdown
// precision on the live scheduler against a naive chain of one-second delays, detection latency
// across threads, engine throughput, and idle cost. It runs the production CallMonitor; only the
// call source and the UI are scripted.

import Dispatch
import Foundation
import hnb
import hnbTesting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// How long each part runs: the full run (for the figures in the README) or a few seconds (CI).
struct BenchPlan {
    let countdownSeconds: Int32
    let detections: Int
    let eventsPerCallCount: [(calls: Int, events: Int)]
    let idleSeconds: Double
    let stormSeconds: Double

    static let full = BenchPlan(
        countdownSeconds: 10, detections: 10_000,
        eventsPerCallCount: [(1, 10_000_000), (8, 2_000_000), (64, 2_000_000)], idleSeconds: 5, stormSeconds: 5
    )
    static let quick = BenchPlan(
        countdownSeconds: 2, detections: 500,
        eventsPerCallCount: [(1, 200_000), (8, 100_000), (64, 100_000)], idleSeconds: 0.5, stormSeconds: 0.5
    )
}

/// Counts what the monitor asks of the live scheduler while it is idle.
final class CountingScheduler: MonitorScheduler {
    private let live = LiveScheduler()
    private(set) var scheduled = 0
    private(set) var fired = 0
    var now: Int64 { live.now }
    func schedule(at deadline: Int64, _ work: @escaping @MainActor () -> Void) -> any ScheduledWork {
        scheduled += 1
        return live.schedule(at: deadline) { [weak self] in
            self?.fired += 1
            work()
        }
    }
}

/// A delegate that hands each call to closures the bench sets.
final class BenchDelegate: CallMonitorDelegate {
    var onDetect: (Int32) -> Void = { _ in }
    var onTick: (Int32) -> Void = { _ in }
    var onEnd: () -> Void = {}
    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: Int32, onUserAction: @escaping () -> Void) {
        onDetect(initialRemaining)
    }
    func callMonitorCountdownTick(_ remaining: Int32) { onTick(remaining) }
    func callMonitorDidEndCall() { onEnd() }
}

/// Milliseconds statistics of a sample.
struct Stats {
    let median: Double
    let p99: Double
    let max: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        func at(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            return sorted[Swift.min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))]
        }
        median = at(0.5)
        p99 = at(0.99)
        max = sorted.last ?? .nan
    }
}

/// `RUSAGE_SELF`, whose type differs between Glibc (an enum) and Darwin (an Int32).
#if canImport(Glibc)
let rusageSelf = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
let rusageSelf = RUSAGE_SELF
#endif

func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(rusageSelf, &usage)
    let user = Double(usage.ru_utime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec) / 1000
    let system = Double(usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_stime.tv_usec) / 1000
    return user + system
}

/// Peak resident memory of this process image so far, in MiB.
///
/// On Linux this is `VmHWM` from /proc/self/status, not `getrusage`'s `ru_maxrss`: the kernel keeps
/// `ru_maxrss` across `execve`, so when `swift run` (a large process) execs the tool, the tool
/// reports swift-run's peak (about 117 MiB) instead of its own (about 18). `VmHWM` belongs to the
/// address space, which `execve` replaces, so it counts the benchmark alone. `getrusage` remains the
/// fallback where /proc is missing, and on Darwin, whose `ru_maxrss` is per process image too.
func peakMemoryMiB() -> Double {
    #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let memory = ProcStatusMemory(status), let peak = memory.peakKiB {
        return Double(peak) / 1024
    }
    #endif
    var usage = rusage()
    getrusage(rusageSelf, &usage)
    #if canImport(Darwin)
    return Double(usage.ru_maxrss) / 1_048_576  // bytes on Darwin
    #else
    return Double(usage.ru_maxrss) / 1024  // KiB on Linux
    #endif
}

/// The memory lines of a Linux `/proc/<pid>/status` file: `VmHWM` (peak resident set of the
/// current address space) and `VmRSS` (resident now), in KiB.
struct ProcStatusMemory: Equatable {
    var peakKiB: Int?
    var residentKiB: Int?

    /// Reads the two lines from the file's text; nil when it has neither.
    init?(_ text: String) {
        for line in text.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count >= 2, let value = Int(parts[1]) else { continue }
            // Values are in kB (the kernel's word for KiB); a different unit would be a new format.
            guard parts.count == 2 || parts[2] == "kB" else { continue }
            switch parts[0] {
            case "VmHWM:": peakKiB = value
            case "VmRSS:": residentKiB = value
            default: break
            }
        }
        if peakKiB == nil && residentKiB == nil { return nil }
        // Without VmHWM (some kernels hide it), resident-now is the best lower bound we have.
        if peakKiB == nil { peakKiB = residentKiB }
    }
}

/// A figure for the table, rounded as the BENCH line rounds it; `n/a` when it could not be measured.
func format(_ value: Double, _ digits: Int = 3) -> String {
    value.isFinite ? String(rounded(value, places: digits)) : "n/a"
}

@MainActor
enum Bench {
    static func run(plan: BenchPlan, quick: Bool) async {
        let clock = LiveScheduler()
        Output.write("callmonitor bench\(quick ? " --quick (smoke run: figures are not meaningful)" : "")\n\n")

        // 1. Countdown precision, live scheduler against a naive chain and the OS's own strict
        // one-shot timer, all three at once.
        async let rawSeries = rawTimer(seconds: plan.countdownSeconds, clock: clock)
        let (live, naive) = await countdown(seconds: plan.countdownSeconds, clock: clock)
        let raw = await rawSeries
        let liveStats = Stats(live)
        let naiveStats = Stats(naive)
        let rawStats = Stats(raw)
        let tickRatio = liveStats.p99 / rawStats.p99
        Output.write("1. Countdown precision: a real \(plan.countdownSeconds)-second terminate countdown, lateness of each tick\n")
        Output.write("   against start + k s (ms)          median      p99      max     last tick\n")
        Output.write("   CallMonitor (absolute deadlines)  \(pad(liveStats.median)) \(pad(liveStats.p99)) \(pad(liveStats.max)) \(pad(live.last ?? .nan))\n")
        Output.write("   naive chained asyncAfter(1 s)     \(pad(naiveStats.median)) \(pad(naiveStats.p99)) \(pad(naiveStats.max)) \(pad(naive.last ?? .nan))\n")
        Output.write("   raw strict one-shot timer (OS)    \(pad(rawStats.median)) \(pad(rawStats.p99)) \(pad(rawStats.max)) \(pad(raw.last ?? .nan))\n")
        Output.write("   CallMonitor p99 / raw timer p99: \(format(tickRatio, 2))\n")
        let firstLive = live.first ?? .nan
        Output.write("   growth first → last tick: CallMonitor \(format((live.last ?? .nan) - firstLive)) ms, naive \(format((naive.last ?? .nan) - (naive.first ?? .nan))) ms\n\n")

        // 2. Detection latency across threads.
        let detect = await detection(count: plan.detections, clock: clock)
        let detectStats = Stats(detect)
        Output.write("2. Detection latency: source delivers on a background queue → delegate detect on the main thread\n")
        Output.write("   \(plan.detections) calls: median \(format(detectStats.median)) ms, p99 \(format(detectStats.p99)) ms, max \(format(detectStats.max)) ms\n\n")

        // 3. Engine throughput with the manual scheduler.
        Output.write("3. Engine throughput (manual scheduler, one thread, call/app/user/time events through CallMonitor)\n")
        var rates: [Int: Double] = [:]
        for (calls, events) in plan.eventsPerCallCount {
            let before = peakMemoryMiB()
            let rate = throughput(calls: calls, events: events)
            rates[calls] = rate
            Output.write("   \(calls) simultaneous call\(calls == 1 ? " " : "s"): \(format(rate / 1e6, 2)) M events/s over \(events) events; peak memory \(format(before, 1)) → \(format(peakMemoryMiB(), 1)) MiB\n")
        }
        Output.write("\n")

        // 4. Idle cost.
        let idle = await idleCost(seconds: plan.idleSeconds)
        Output.write("4. Idle cost: monitoring on, no call, \(plan.idleSeconds) s\n")
        Output.write("   timers scheduled \(idle.timers), wake-ups \(idle.wakeUps), CPU \(format(idle.cpu, 2)) ms (the same wait without a monitor: \(format(idle.baselineCPU, 2)) ms)\n\n")

        // 5. A storm of API calls from eight threads.
        let storm = await storm(seconds: plan.stormSeconds)
        let stormStats = Stats(storm.latencies)
        Output.write("5. Storm: 8 threads calling the public API at full speed for \(plan.stormSeconds) s (\(storm.calls) calls)\n")
        Output.write("   main-queue latency: median \(format(stormStats.median)) ms, p99 \(format(stormStats.p99)) ms, max \(format(stormStats.max)) ms; peak memory \(format(storm.peakMiB, 1)) MiB\n\n")

        // The figures for scripts and CI, through the one JSON Lines writer: a figure that could not
        // be measured (no tick came) is null, where the table says n/a.
        var figures = JSONLine()
        figures.add("tick_p99_ms", .number(liveStats.p99, places: 4))
        figures.add("tick_last_ms", .number(live.last ?? .nan, places: 4))
        figures.add("naive_last_ms", .number(naive.last ?? .nan, places: 4))
        figures.add("raw_timer_p99_ms", .number(rawStats.p99, places: 4))
        figures.add("tick_p99_vs_raw", .number(tickRatio, places: 3))
        figures.add("detect_p99_ms", .number(detectStats.p99, places: 4))
        figures.add("events_per_s", Int(rates[1] ?? 0))
        figures.add("events_per_s_64_calls", Int(rates[64] ?? 0))
        figures.add("idle_timers", idle.timers)
        figures.add("idle_cpu_ms", .number(idle.cpu, places: 3))
        figures.add("storm_calls", storm.calls)
        figures.add("storm_main_p99_ms", .number(stormStats.p99, places: 4))
        figures.add("storm_peak_mib", .number(storm.peakMiB, places: 1))
        JSONLinesWriter(flushing: .everyLine).write(figures, prefix: "BENCH ")
    }

    private static func pad(_ value: Double) -> String {
        let text = format(value)
        return String(repeating: " ", count: Swift.max(0, 8 - text.count)) + text
    }

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
        var rng = BenchRandom(seed: 42)
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

/// A countdown of `seconds` ticks without the monitor, to read the monitor's ticks against:
/// tick k is due at start + k s, and each entry of `lateness` is how late it ran, in ms.
@MainActor
final class TickSeries {
    /// How each tick is armed.
    enum Arming {
        /// The naive way: each tick schedules the next one second after it ran, so lateness adds up.
        case chainedAsyncAfter
        /// The OS's best: a strict one-shot timer with no leeway, armed for the absolute instant
        /// start + k s, as LiveScheduler arms the monitor's ticks.
        case absoluteStrictTimer
    }

    let arming: Arming
    let seconds: Int32
    let clock: LiveScheduler
    let done: ([Double]) -> Void
    let start: Int64
    var k: Int64 = 0
    var lateness: [Double] = []
    private var timer: (any DispatchSourceTimer)?

    init(_ arming: Arming, seconds: Int32, clock: LiveScheduler, done: @escaping ([Double]) -> Void) {
        self.arming = arming
        self.seconds = seconds
        self.clock = clock
        self.done = done
        start = clock.now
    }

    func next() {
        let due = start + (k + 1) * 1_000_000_000
        switch arming {
        case .chainedAsyncAfter:
            DispatchQueue.main.asyncAfter(deadline: .now() + 1) {
                MainActor.assumeIsolated { self.fired(due: due) }
            }
        case .absoluteStrictTimer:
            let timer = DispatchSource.makeTimerSource(flags: .strict, queue: .main)
            timer.schedule(deadline: .now() + .nanoseconds(Int(Swift.max(0, due - clock.now))), leeway: .nanoseconds(0))
            timer.setEventHandler {
                MainActor.assumeIsolated {
                    self.timer?.cancel()
                    self.fired(due: due)
                }
            }
            self.timer = timer
            timer.resume()
        }
    }

    private func fired(due: Int64) {
        k += 1
        lateness.append(Double(clock.now - due) / 1e6)
        if k == Int64(seconds) { done(lateness) } else { next() }
    }
}

/// SplitMix64 for the throughput mix, the same events on every run.
struct BenchRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

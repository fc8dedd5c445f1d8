// `callmonitor bench` (BenchCommand.swift reads the option): how long each part runs, and the
// report: the table and the BENCH line. The parts are measured in BenchMeasurements.swift and
// BenchStorm.swift, against the production CallMonitor; only the call source and the UI are
// scripted (BenchDoubles.swift).

import hnb

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

        // 5. A storm of API calls from eight threads, then the same threads spinning without the
        // library: the part of the main queue's wait that is the two cores' and not ours.
        let storm = await storm(seconds: plan.stormSeconds)
        let stormStats = Stats(storm.latencies)
        let spin = await Self.storm(seconds: plan.stormSeconds, library: false)
        let spinStats = Stats(spin.latencies)
        Output.write("5. Storm: 8 threads calling the public API at full speed for \(plan.stormSeconds) s (\(storm.calls) calls)\n")
        Output.write("   main-queue latency: median \(format(stormStats.median)) ms, p99 \(format(stormStats.p99)) ms, max \(format(stormStats.max)) ms; peak memory \(format(storm.peakMiB, 1)) MiB\n")
        if let tail = storm.tail {
            Output.write("   the slowest 1 % of waits: \(percent(tail.runQueue)) waiting for a core, \(percent(tail.mainWork)) main-thread work, \(percent(tail.asleep)) asleep (a lock or idle)\n")
        }
        Output.write("   the same 8 threads spinning without the library: median \(format(spinStats.median)) ms, p99 \(format(spinStats.p99)) ms, max \(format(spinStats.max)) ms")
        if let tail = spin.tail {
            Output.write("; slowest 1 %: \(percent(tail.runQueue)) waiting for a core")
        }
        Output.write("\n\n")

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
        figures.add("storm_tail_runqueue_share", .number(storm.tail?.runQueue ?? .nan, places: 3))
        figures.add("storm_tail_main_work_share", .number(storm.tail?.mainWork ?? .nan, places: 3))
        figures.add("spin_main_p99_ms", .number(spinStats.p99, places: 4))
        JSONLinesWriter(flushing: .everyLine).write(figures, prefix: "BENCH ")
    }

    private static func percent(_ share: Double) -> String {
        "\(format(share * 100, 1)) %"
    }

    private static func pad(_ value: Double) -> String {
        let text = format(value)
        return String(repeating: " ", count: Swift.max(0, 8 - text.count)) + text
    }
}

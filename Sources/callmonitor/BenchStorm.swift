// Two parts of `callmonitor bench` that put the library's figures against a yardstick: the OS's
// own strict one-shot timer (what no countdown on this machine can beat), and a storm of API calls
// from eight threads (what the main-thread mailbox must absorb without growing or lagging).

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

extension Bench {
    /// Lateness of bare strict one-shot Dispatch timers on the main queue, each armed for
    /// start + k s, measured on the same clock as the monitor's ticks: the floor for the
    /// monitor's own tick lateness on this machine at this moment.
    static func rawTimer(seconds: Int32, clock: LiveScheduler) async -> [Double] {
        await withCheckedContinuation { (done: CheckedContinuation<[Double], Never>) in
            TickSeries(.absoluteStrictTimer, seconds: seconds, clock: clock, done: { done.resume(returning: $0) }).next()
        }
    }

    /// What a storm does to the main thread: eight threads call every public method as fast as
    /// they can for `seconds` while a probe on the main queue measures how long main-queue work
    /// waits. Returns the probe's latencies (ms), the API calls made and the process's peak memory
    /// (MiB, `VmHWM`: a high-water mark, so no spike between two samples is missed; the storm runs
    /// last, after parts that peak lower).
    ///
    /// With `library: false` the same eight threads spin on the same random numbers without
    /// calling the library: the main-queue latency that two cores shared by nine busy threads give
    /// by themselves, the yardstick for the storm's own.
    static func storm(seconds: Double, library: Bool = true) async -> StormResult {
        let source = ExternalCallSource()
        let monitor = CallMonitor(callSource: source, appState: ProcessAppState(), scheduler: LiveScheduler(),
                                  alertRenderer: SimulatedAlertRenderer(), terminator: SimulatedTerminator())
        let delegate = BenchDelegate()
        let shared = StormShared(delegate: delegate)
        let clock = LiveScheduler()
        let stopAt = clock.now + Int64(seconds * 1e9)
        let made = Locked(0)

        // Eight workers on their own threads (not the cooperative pool, which the main-queue
        // probe below must not compete with for the same two cores any more than they do).
        let finished = DispatchGroup()
        for worker in 0..<8 {
            finished.enter()
            Thread.detachNewThread {
                var rng = SeededGenerator(seed: UInt64(worker) + 1)
                var count = 0
                var spun: UInt64 = 0
                while clock.now < stopAt {
                    for _ in 0..<64 {
                        let roll = rng.next() % 10
                        let id = CallID("storm-\(worker)-\(rng.next() % 3)")
                        guard library else {
                            spun &+= roll &+ UInt64(id.rawValue.utf8.count)
                            count += 1
                            continue
                        }
                        switch roll {
                        case 0: monitor.startMonitoring(withTerminateIn: 3600)
                        case 1: monitor.startMonitoring(withAcknowledgeIn: Int32(rng.next() % 4))
                        case 2: monitor.stopMonitoring()
                        case 3: monitor.setDelegate(shared.pick(rng.next()))
                        case 4: monitor.setLanguage(rng.next() % 2 == 0 ? "de" : nil)
                        case 5: monitor.setCallback(nil)
                        default: source.send([CallSnapshot(id: id, hasConnected: roll == 7, hasEnded: roll == 8)])
                        }
                        count += 1
                    }
                }
                made.withLock { $0 += count }
                // Kept, so the spinning loop is not optimised away.
                if spun == 1 { Output.write("") }
                finished.leave()
            }
        }

        // The probe: every millisecond, main-queue work notes how late it ran.
        // The main thread's own CPU and run-queue times are read as the probe is posted (this code
        // runs on the main thread) and again when it runs, to say where a slow wait went.
        var latencies: [Double] = []
        var samples: [(waitNs: Int64, cpuNs: Int64, runQueueNs: Int64?)] = []
        while clock.now < stopAt {
            let before = ThreadTimes.current()
            let posted = clock.now
            let (ranAt, after): (Int64, ThreadTimes) = await withCheckedContinuation { ran in
                DispatchQueue.main.async { ran.resume(returning: (clock.now, ThreadTimes.current())) }
            }
            latencies.append(Double(ranAt - posted) / 1e6)
            let queued = after.runQueueNs.flatMap { end in before.runQueueNs.map { end - $0 } }
            samples.append((ranAt - posted, after.cpuNs - before.cpuNs, queued))
            await sleep(0.001)
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            finished.notify(queue: .main) { done.resume() }
        }
        // What was still waiting when the workers stopped is applied now.
        await sleep(0.05)
        monitor.stopMonitoring()
        withExtendedLifetime(delegate) {}
        return StormResult(latencies: latencies, calls: library ? made.value : 0, peakMiB: peakMemoryMiB(),
                           tail: TailAttribution(samples))
    }
}

/// What one storm measured.
struct StormResult {
    /// The probe's main-queue latencies, ms.
    let latencies: [Double]
    /// API calls the workers made (0 when they only spun).
    let calls: Int
    /// The process's peak memory after the storm, MiB.
    let peakMiB: Double
    /// Where the slowest 1 % of the probe's waits went; nil off Linux.
    let tail: TailAttribution?
}

/// The storm's delegates, handed to worker threads.
/// `@unchecked Sendable`: the delegate is only passed to `setDelegate`, which never touches it off
/// the main thread.
struct StormShared: @unchecked Sendable {
    let delegate: BenchDelegate
    func pick(_ roll: UInt64) -> BenchDelegate? { roll % 2 == 0 ? delegate : nil }
}

// What the bench reads of its own process: CPU time used, and peak memory (from /proc where there
// is one, else getrusage).

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

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

/// Where the main thread's time went while one probe waited: on a core doing other main-queue
/// work, runnable but waiting for a core (the scheduler), or neither (asleep: blocked on a lock, or
/// idle before a wake-up). The storm's tail is explained by these three (item 13 of issue 37).
struct ThreadTimes: Equatable {
    /// CPU time of the thread so far, ns.
    var cpuNs: Int64
    /// Time the thread has spent runnable but not running, ns (Linux `schedstat`, second field);
    /// nil where the kernel does not keep it.
    var runQueueNs: Int64?

    /// The calling thread's figures now. The CPU time comes from `CLOCK_THREAD_CPUTIME_ID`, which
    /// the kernel brings up to date when it is read (schedstat's first field can lag by a tick);
    /// the run-queue time is only written when the thread gets a core, so reading it from the
    /// running thread itself always includes the wait that just ended.
    static func current() -> ThreadTimes {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        let cpu = Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
        #if os(Linux)
        return ThreadTimes(cpuNs: cpu, runQueueNs: readSchedstat().flatMap { ScheduleStat($0)?.runQueueNs })
        #else
        return ThreadTimes(cpuNs: cpu, runQueueNs: nil)
        #endif
    }

    #if os(Linux)
    /// /proc/thread-self/schedstat read with one `read`: a probe runs every millisecond, and
    /// Foundation's file reading would cost more than the waits it measures.
    private static func readSchedstat() -> String? {
        let fd = open("/proc/thread-self/schedstat", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 127) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
    #endif
}

/// The three figures of a Linux `/proc/<pid>/task/<tid>/schedstat` line: time on a core, time
/// waiting on a run queue (both ns), and the number of time slices.
struct ScheduleStat: Equatable {
    var onCoreNs: Int64
    var runQueueNs: Int64
    var slices: Int64

    /// Nil unless the text is three non-negative integers.
    init?(_ text: String) {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { Int64($0) }
        guard fields.count == 3, let core = fields[0], let queue = fields[1], let slices = fields[2],
              core >= 0, queue >= 0, slices >= 0 else { return nil }
        self.init(onCoreNs: core, runQueueNs: queue, slices: slices)
    }

    init(onCoreNs: Int64, runQueueNs: Int64, slices: Int64) {
        self.onCoreNs = onCoreNs
        self.runQueueNs = runQueueNs
        self.slices = slices
    }
}

/// The share of the slowest 1 % of waits spent in each place: a
/// tail made of run-queue time is the scheduler sharing two cores among nine busy threads, not
/// the library; one made of main-thread work is the mailbox's drains; the rest is sleep (a lock).
struct TailAttribution: Equatable {
    var runQueue: Double
    var mainWork: Double
    var asleep: Double

    /// Each sample: the wait and, for it, the main thread's CPU and run-queue time (ns). Nil when
    /// there is no run-queue figure (not Linux) or no wait at all.
    init?(_ samples: [(waitNs: Int64, cpuNs: Int64, runQueueNs: Int64?)]) {
        // The slowest 1 % (at least one): what the p99 figure is made of.
        let tail = samples.sorted { $0.waitNs > $1.waitNs }.prefix(Swift.max(1, samples.count / 100))
        var wait: Int64 = 0, cpu: Int64 = 0, queue: Int64 = 0
        for sample in tail {
            guard let runQueue = sample.runQueueNs else { return nil }
            wait += sample.waitNs
            // Each part is clamped to what is left of the wait: the three figures come from
            // different kernel counters read a few microseconds apart.
            let sampleQueue = Swift.min(Swift.max(runQueue, 0), sample.waitNs)
            queue += sampleQueue
            cpu += Swift.min(Swift.max(sample.cpuNs, 0), sample.waitNs - sampleQueue)
        }
        guard wait > 0 else { return nil }
        runQueue = Double(queue) / Double(wait)
        mainWork = Double(cpu) / Double(wait)
        asleep = Double(wait - queue - cpu) / Double(wait)
    }

    init(runQueue: Double, mainWork: Double, asleep: Double) {
        self.runQueue = runQueue
        self.mainWork = mainWork
        self.asleep = asleep
    }
}

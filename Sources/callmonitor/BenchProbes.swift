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

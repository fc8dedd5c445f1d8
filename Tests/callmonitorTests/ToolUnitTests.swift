// The tool's pure parts, tested directly: suggestions for typos and the /proc memory reader.

import Foundation
import Testing
import hnb
@testable import ScenarioLanguage
import hnbTesting
@testable import callmonitor

@Suite("callmonitor parts")
struct ToolUnitTests {
    @Test("keygen's --out obstacle names the file in the way, above the folder or the folder itself, or the nearest folder it cannot write in")
    func outObstacle() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-obstacle-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/afile"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect(PolicyFiles.obstacle(on: file) == "\(file) is a file, not a folder")
        #expect(PolicyFiles.obstacle(on: file + "/") == "\(file) is a file, not a folder")
        #expect(PolicyFiles.obstacle(on: file + "/keys/deeper") == "\(file) is a file, not a folder")
        #expect(PolicyFiles.obstacle(on: dir + "/new/keys") == "cannot write in \(dir)")
        #expect(PolicyFiles.obstacle(on: "/hnb-no-such-folder-\(UUID().uuidString)/keys") == "cannot write in /")
        #expect(PolicyFiles.obstacle(on: "hnb-no-such-folder-\(UUID().uuidString)") == "cannot write in the current folder")
    }

    @Test("Edit distance counts a swap of neighbours as one edit", arguments: [
        ("incomming", "incoming", 1), ("--langauge", "--language", 1), ("ring", "resume", 5), ("", "tap", 3), ("tap", "tap", 0),
    ])
    func editDistance(a: String, b: String, expected: Int) {
        #expect(Suggestions.editDistance(a, b) == expected)
    }

    @Test("A typo gets the nearest word; a different word gets none", arguments: [
        ("incomming", "incoming"), ("conect", "connect"), ("backgroud", "background"), ("Tap", "tap"), ("wiat", "wait"),
    ])
    func suggests(typo: String, expected: String) {
        #expect(Suggestions.nearest(to: typo, in: ScenarioParser.commandNames) == expected)
    }

    @Test("Words that are not typos get no suggestion", arguments: ["ring", "hangup", "x", "answer"])
    func noSuggestion(word: String) {
        #expect(Suggestions.nearest(to: word, in: ScenarioParser.commandNames) == nil)
        #expect(Suggestions.hint(for: word, in: ScenarioParser.commandNames) == "")
    }

    @Test("Peak memory comes from VmHWM; VmRSS stands in when VmHWM is missing; other text is refused")
    func procStatus() {
        let status = "Name:\tcallmonitor\nVmPeak:\t  300000 kB\nVmHWM:\t   19236 kB\nVmRSS:\t   18120 kB\nThreads:\t3\n"
        #expect(ProcStatusMemory(status) == ProcStatusMemory(peak: 19236, resident: 18120))
        #expect(ProcStatusMemory("VmRSS:\t 512 kB\n") == ProcStatusMemory(peak: 512, resident: 512))
        #expect(ProcStatusMemory("Name:\tx\nVmHWM:\tlots kB\n") == nil)
        #expect(ProcStatusMemory("") == nil)
    }

    @Test("A schedstat line is three non-negative integers: time on a core, time on a run queue, slices")
    func scheduleStat() {
        #expect(ScheduleStat("136865 125492 2\n") == ScheduleStat(onCoreNs: 136865, runQueueNs: 125492, slices: 2))
        #expect(ScheduleStat("1 2") == nil)
        #expect(ScheduleStat("1 2 3 4") == nil)
        #expect(ScheduleStat("1 -2 3") == nil)
        #expect(ScheduleStat("a b c") == nil)
        #expect(ScheduleStat("") == nil)
    }

    @Test("The storm's tail is the slowest 1 % of waits, split three ways, each part clamped to its wait")
    func tailAttribution() {
        // 99 quick waits and one slow one: the slowest 1 % is the slow one alone. Of its 10 ms, 6 on a run
        // queue, 3 of main-thread work, 1 asleep.
        var samples: [(waitNs: Int64, cpuNs: Int64, runQueueNs: Int64?)] = Array(repeating: (100_000, 50_000, 0), count: 99)
        samples.append((10_000_000, 3_000_000, 6_000_000))
        let tail = TailAttribution(samples)
        #expect(tail == TailAttribution(runQueue: 0.6, mainWork: 0.3, asleep: 0.1))
        // Counters read microseconds apart may add up to more than the wait: clamped, never over 100 %.
        let over = TailAttribution([(waitNs: 1_000, cpuNs: 900, runQueueNs: 800)])
        #expect(over == TailAttribution(runQueue: 0.8, mainWork: 0.2, asleep: 0))
        #expect(TailAttribution([(waitNs: 1_000, cpuNs: 0, runQueueNs: nil)]) == nil)
        #expect(TailAttribution([]) == nil)
        #expect(TailAttribution([(waitNs: 0, cpuNs: 0, runQueueNs: 0)]) == nil)
    }

    @Test("The benchmark's peak memory is this process's own and plausible")
    func ownPeak() {
        let peak = peakMemoryMiB()
        #expect(peak > 1 && peak < 4096)
    }
}

extension ProcStatusMemory {
    init(peak: Int, resident: Int) {
        self.init("VmHWM: \(peak) kB\nVmRSS: \(resident) kB\n")!
    }
}

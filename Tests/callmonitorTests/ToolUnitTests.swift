// The tool's pure parts, tested directly: suggestions for typos and the /proc memory reader.

import Testing
@testable import callmonitor

@Suite("callmonitor parts")
struct ToolUnitTests {
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

// Split out of SharedPartsTests.swift so that each file holds one suite, named as the file (issue 39).

import Testing
import hnb
@testable import ScenarioLanguage
@testable import callmonitor

@Suite("callmonitor shared parts: the command list")
struct CommandListTests {
    @Test("Every command's help starts with the synopsis the usage lists, and the usage has each command's summary")
    func usageFromCommands() {
        let usage = ToolCommands.usage
        for command in ToolCommands.all {
            #expect(command.help.hasPrefix("usage: callmonitor \(command.synopsis)\n\n\(command.about)\n\noptions:\n"))
            let summary = command.summary.split(separator: "\n").map { "      \($0)\n" }.joined()
            #expect(usage.contains("  callmonitor \(command.synopsis)\n\(summary)"), "usage lacks \(command.name)")
        }
        #expect(usage.hasPrefix("usage:\n  callmonitor simulate FILE|- [--language CODE] [--echo] [--record FILE]\n"))
    }

    @Test("The synopsis and the options table come from the same declarations as the parser")
    func optionsFromDeclarations() {
        for command in ToolCommands.all {
            for label in command.optionLabels {
                #expect(command.synopsis.contains("[\(label)]"))
                #expect(command.help.contains("\n  \(label)   ") || command.help.contains("\n  \(label) "), "\(command.name): \(label)")
            }
            #expect(command.help.contains("\n  --help "))
        }
        #expect(DemoCommand().synopsis == "demo [--flow terminate|acknowledge] [--seconds N] [--speed X] [--language CODE] [--interactive] [--record FILE]")
        #expect(BenchCommand().help.contains("\n  --quick   a few-second smoke run (CI uses it to prove the tool works)\n  --help    this text\n"))
    }

    @Test("Names and aliases are unique, and each finds its command")
    func names() {
        let words = ToolCommands.all.flatMap { [$0.name] + $0.aliases }
        #expect(Set(words).count == words.count)
        #expect(ToolCommands.names == ["simulate", "replay", "demo", "bench", "watch", "policy", "help", "--version"])
        for word in words { #expect(ToolCommands.named(word) != nil) }
        #expect(ToolCommands.named("-V")?.name == "--version")
        #expect(ToolCommands.named("--help")?.name == "help")
        #expect(ToolCommands.named("simulat") == nil)
    }

    @Test("The help and the summary say the defaults the commands use")
    func defaults() {
        #expect(DemoCommand().summary.contains("Defaults: terminate flow, 5-second countdown, speed 1."))
        #expect(DemoCommand().help.contains("the countdown or the acknowledge delay, 0 to 3600 (default 5;\n"))
        #expect(WatchCommand().help.contains("the countdown or the acknowledge delay, 0 to 3600 (default 10;\n"))
        #expect(WatchCommand().help.contains("  --flow terminate|acknowledge        the policy (default terminate)\n"))
    }
}

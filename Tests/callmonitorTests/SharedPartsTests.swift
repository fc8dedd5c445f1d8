// The parts the tool's commands share, tested directly: the flow and seconds words, the policy
// wording, the JSON Lines writer, and the command list that the usage and each help are built from.

import Testing
import hnb
@testable import ScenarioLanguage
@testable import callmonitor

@Suite("callmonitor shared parts: flow and seconds")
struct PolicyWordsTests {
    @Test("A flow word is read exactly", arguments: [("terminate", CallMonitorFlow.terminate), ("acknowledge", .acknowledge)])
    func flowAccepted(word: String, flow: CallMonitorFlow) throws {
        #expect(try PolicyWords.flow(word) == flow)
        #expect(try PolicyWords.flow(word, option: "--flow") == flow)
    }

    @Test("A wrong flow word is refused with the scenario's message, naming the nearest word when it looks like a typo", arguments: [
        ("sometimes", "unknown flow 'sometimes': expected terminate or acknowledge"),
        ("observe", "unknown flow 'observe': expected terminate or acknowledge"),
        ("", "unknown flow '': expected terminate or acknowledge"),
        ("Terminate ", "unknown flow 'Terminate ': did you mean terminate?"),
        ("acknowlege", "unknown flow 'acknowlege': did you mean acknowledge?"),
        ("ack", "unknown flow 'ack': did you mean acknowledge?"),
    ])
    func flowRefusedInScenario(word: String, message: String) {
        #expect(throws: PolicyWordError(message: message)) { try PolicyWords.flow(word) }
    }

    @Test("A wrong --flow value is refused with the option's message and the same hint", arguments: [
        ("exit", "--flow must be terminate or acknowledge"),
        ("term", "--flow must be terminate or acknowledge: did you mean terminate?"),
        ("terminat", "--flow must be terminate or acknowledge: did you mean terminate?"),
        ("ack", "--flow must be terminate or acknowledge: did you mean acknowledge?"),
    ])
    func flowRefusedAsOption(word: String, message: String) {
        #expect(throws: PolicyWordError(message: message)) { try PolicyWords.flow(word, option: "--flow") }
    }

    @Test("A scenario's seconds: any whole number with a sign or leading zeros, clamped to Int32", arguments: [
        ("5", Int32(5)), ("0", 0), ("+7", 7), ("-3", -3), ("-0", 0), ("0007", 7), ("00000000000000000000042", 42),
        ("2147483647", .max), ("2147483648", .max), ("999999999999", .max), ("99999999999999999999999", .max),
        ("-2147483648", .min), ("-99999999999999999999999", .min),
    ])
    func secondsAccepted(word: String, seconds: Int32) throws {
        #expect(try PolicyWords.seconds(word) == seconds)
    }

    @Test("Anything but a whole number is refused, naming the word", arguments: [
        "five", "1.5", "", "-", "+", "--5", "5s", " 5", "1e3", "٣", "½", "0x10",
    ])
    func secondsRefused(word: String) {
        #expect(throws: PolicyWordError(message: "bad number '\(word)': expected a whole number of seconds")) { try PolicyWords.seconds(word) }
    }

    @Test("An option's seconds must be a whole number in 0...3600", arguments: [
        ("0", Int32?(0)), ("3600", 3600), ("+10", 10), ("0010", 10), ("3601", nil), ("-1", nil), ("99999999999999", nil), ("ten", nil), ("1.0", nil),
    ])
    func optionSeconds(word: String, seconds: Int32?) throws {
        if let seconds {
            #expect(try PolicyWords.seconds(word, option: "--seconds") == seconds)
        } else {
            #expect(throws: PolicyWordError(message: "--seconds must be a whole number from 0 to 3600")) {
                try PolicyWords.seconds(word, option: "--seconds")
            }
        }
    }

    @Test("The policy in words shows the clamps the monitor applies", arguments: [
        (CallMonitorFlow.terminate, Int32(5), "terminate flow, 5-second countdown"),
        (.terminate, 0, "terminate flow, 1-second countdown"),
        (.terminate, -9, "terminate flow, 1-second countdown"),
        (.acknowledge, 3, "acknowledge flow, button after 3 s"),
        (.acknowledge, -1, "acknowledge flow, button after 0 s"),
    ])
    func wording(flow: CallMonitorFlow, seconds: Int32, text: String) {
        #expect(PolicyWords.describe(flow, seconds: seconds) == text)
    }
}

@Suite("callmonitor shared parts: JSON Lines")
struct JSONLinesTests {
    @Test("Strings: quote, backslash and control characters escaped, the rest as UTF-8", arguments: [
        ("plain", #""plain""#),
        ("say \"hi\"", #""say \"hi\"""#),
        ("a\\b", #""a\\b""#),
        ("line\nend\r\ttab", #""line\nend\r\ttab""#),
        ("\u{0}\u{1}\u{8}\u{C}\u{1B}\u{1F}", #""\u0000\u0001\u0008\u000c\u001b\u001f""#),
        ("\u{7F} / é €😀", "\"\u{7F} / é €😀\""),
        ("", #""""#),
    ])
    func strings(text: String, json: String) {
        #expect(JSONText.quoted(text) == json)
        #expect(JSONValue.string(text).text == json)
    }

    @Test("Numbers: whole numbers, exact decimals, rounded figures; not finite is null", arguments: [
        (JSONValue.int(0), "0"), (.int(-42), "-42"), (.int(Int.max), "9223372036854775807"),
        (.seconds(0), "0"), (.seconds(3_000_000_000), "3"), (.seconds(1_500_000_000), "1.5"), (.seconds(1), "0.000000001"),
        (.seconds(9_000_000_000_000_000_000), "9000000000"), (.seconds(-1_250_000_000), "-1.25"),
        (.decimal(1500, places: 3, trimmingZeros: false), "1.500"), (.decimal(7, places: 3, trimmingZeros: false), "0.007"),
        (.decimal(0, places: 3, trimmingZeros: false), "0.000"), (.decimal(42, places: 0, trimmingZeros: false), "42"),
        (.decimal(Int64.min, places: 9, trimmingZeros: true), "-9223372036.854775808"),
        (.number(1.23456, places: 4), "1.2346"), (.number(2, places: 3), "2.0"), (.number(-0.5, places: 0), "-1.0"),
        (.number(.nan, places: 4), "null"), (.number(.infinity, places: 1), "null"), (.number(-.infinity, places: 1), "null"),
        (.bool(true), "true"), (.bool(false), "false"), (.null, "null"),
    ])
    func values(value: JSONValue, json: String) {
        #expect(value.text == json)
    }

    @Test("An object keeps its keys in order, nests objects and arrays, and writes nil as null")
    func nested() {
        var inner = JSONLine()
        inner.add("id", "/call/0")
        inner.add("outgoing", false)
        var line = JSONLine(t: 1_500_000_000, kind: "calls")
        line.add("missing", nil as String?)
        line.add("calls", .array([.object(inner), .array([]), .object(JSONLine()), .int(3)]))
        line.add("at", seconds: 2_000_000_001)
        line.add("count", 2)
        line.add("key \"q\"", "v")
        #expect(line.text == #"{"t":1.5,"kind":"calls","missing":null,"calls":[{"id":"/call/0","outgoing":false},[],{},3],"at":2.000000001,"count":2,"key \"q\"":"v"}"#)
    }

    @Test("Every line is written at once, with its line end and an optional prefix outside the JSON")
    func everyLine() {
        let written = Box<[String]>([])
        let writer = JSONLinesWriter(flushing: .everyLine) { written.value.append($0) }
        var object = JSONLine()
        object.add("a", 1)
        writer.write(object)
        writer.write(object, prefix: "BENCH ")
        writer.write(line: "{}")
        #expect(written.value == ["{\"a\":1}\n", "BENCH {\"a\":1}\n", "{}\n"])
        writer.flush()
        #expect(written.value.count == 3)
    }

    @Test("In blocks, lines wait until about the block size is reached, and flush writes the rest")
    func inBlocks() {
        let written = Box<[String]>([])
        let writer = JSONLinesWriter(flushing: .inBlocks(bytes: 10)) { written.value.append($0) }
        writer.write(line: "1234")
        #expect(written.value.isEmpty)
        writer.write(line: "5678")
        #expect(written.value == ["1234\n5678\n"])
        writer.write(line: "x")
        writer.flush()
        writer.flush()
        #expect(written.value == ["1234\n5678\n", "x\n"])
    }
}

/// A value the writer's output closure can append to.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

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

extension CommandLineTests {
    @Suite("callmonitor commands: help and dispatch")
    struct DispatchTests {
        @Test("help COMMAND and COMMAND --help print the same text, on stdout with status 0, for every command",
              arguments: ["simulate", "demo", "bench", "watch", "help", "--version"])
        func helpBothWays(name: String) async throws {
            let viaHelp = try await runTool(["help", name])
            let viaOption = try await runTool([name, "--help"])
            #expect(viaHelp.status == 0)
            #expect(viaOption.status == 0)
            #expect(viaHelp.stderr == "")
            #expect(viaHelp.stdout == viaOption.stdout)
            #expect(viaHelp.stdout.hasPrefix("usage: callmonitor \(name)"))
        }

        @Test("Every command is offered for a typo, watch too, and help refuses a second topic", arguments: [
            (["wach"], "callmonitor: unknown command 'wach': did you mean watch?"),
            (["bnech"], "callmonitor: unknown command 'bnech': did you mean bench?"),
            (["help", "wath"], "callmonitor: no help for 'wath': did you mean watch?"),
            (["help", "demo", "bench"], "callmonitor: help takes one COMMAND at most"),
            (["--version", "now"], "callmonitor: --version takes no arguments"),
            (["watch", "--flow", "term"], "callmonitor: --flow must be terminate or acknowledge: did you mean terminate?"),
        ])
        func refused(arguments: [String], firstLine: String) async throws {
            let result = try await runTool(arguments)
            #expect(result.status == 2)
            #expect(result.stdout == "")
            #expect(result.stderr.split(separator: "\n").first.map(String.init) == firstLine)
        }

        @Test("Without a command, the usage lists every command on stderr and the status is 2")
        func noCommand() async throws {
            let result = try await runTool([])
            #expect(result.status == 2)
            #expect(result.stdout == "")
            for name in ["simulate FILE|-", "demo [--flow", "bench [--quick]", "watch [--backend", "help [COMMAND]", "--version"] {
                #expect(result.stderr.contains("\n  callmonitor \(name)"), "missing: \(name)")
            }
        }
    }
}

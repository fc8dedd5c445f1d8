// Split out of OptionTableTests.swift so that each file holds one suite, named as the file (issue 39).

import Testing
import hnb
@testable import hnbPolicy
@testable import callmonitor

@Suite("callmonitor option table: the commands' tables")
struct CommandOptionTableTests {
    @Test("demo's table reads every option into DemoOptions")
    func demo() throws {
        let parsed = try DemoCommand().options.parse([
            "--flow", "acknowledge", "--seconds", "7", "--speed", "2.5", "--language", "de", "--interactive", "--record", "r.scenario",
        ])
        guard case .options(let options, let words) = parsed else { Issue.record("not parsed: \(parsed)"); return }
        #expect(words.isEmpty)
        #expect(options.flow == .acknowledge)
        #expect(options.seconds == 7)
        #expect(options.speed == 2.5)
        #expect(options.interactive)
        #expect(options.record == "r.scenario")
        #expect(options.strings.language == "de")
    }

    @Test("policy's table collects every --manifest and --attribute, and takes the other values as written")
    func policy() throws {
        let parsed = try PolicyCommand().options.parse([
            "explain", "--attribute", "os=iOS", "--manifest", "a.json", "--keys", "k", "--issuer", "", "--attribute", "os=iPadOS",
            "--attribute", "x==y", "--manifest", "b.json", "--alg", "RSA", "--force", "doc",
        ])
        guard case .options(let options, let words) = parsed else { Issue.record("not parsed: \(parsed)"); return }
        #expect(words == ["explain", "doc"])
        #expect(options.manifests == ["a.json", "b.json"])
        #expect(options.attributes == ["os": "iPadOS", "x": "=y"])
        #expect(options.keys == "k")
        #expect(options.issuer == "")
        #expect(options.alg == "RSA")
        #expect(options.force)
        #expect(!options.allowRelaxation)
        #expect(options.at == nil)
    }

    @Test("Each command's option without its value is refused by name, with what it needs")
    func missingValues() {
        var checked = 0
        for command in ToolCommands.all {
            for label in command.optionLabels where label.contains(" ") {
                let name = String(label.prefix { $0 != " " })
                let message = Self.refusal(of: command, [name])
                #expect(message?.hasPrefix("\(name) needs ") == true, "\(command.name) \(name): \(message ?? "accepted")")
                checked += 1
            }
        }
        // simulate 2, replay 1, demo 5, watch 5, policy 9.
        #expect(checked == 22)
    }

    @Test("A huge value is never echoed whole by any command's table", arguments: [
        ("demo", ["--flow", hugeWord], "--flow must be terminate or acknowledge"),
        ("demo", ["--seconds", hugeWord], "--seconds must be a whole number from 0 to 3600"),
        ("demo", ["--speed", hugeWord], "--speed must be a number from 0.1 to 1000"),
        ("watch", ["--backend", hugeWord], "--backend must be modemmanager, ofono or auto"),
        ("simulate", ["f", "--language", hugeWord],
         "language '\(String(repeating: "x", count: 40))…' is not available; available: \(Languages.available.joined(separator: ", "))"),
        ("bench", ["--" + hugeWord], "unknown option --\(String(repeating: "x", count: 38))…"),
    ])
    func hugeValues(command: String, arguments: [String], message: String) {
        #expect(Self.refusal(of: ToolCommands.named(command)!, arguments) == message)
    }

    /// The message of the refusal `arguments` get from `command`'s table, or nil when accepted.
    static func refusal(of command: some ToolCommand, _ arguments: [String]) -> String? {
        OptionTableTests.refusal(command.options, arguments)?.message
    }
}

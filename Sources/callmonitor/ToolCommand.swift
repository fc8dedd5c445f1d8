// What every subcommand of `callmonitor` is made of, and what they share: the list of commands
// (the usage summary is built from it), option declarations that give both the parser and the
// help's options table, and the way a command fails.

import ScenarioLanguage
import hnb
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// One option of a command, declared once: the parser reads `name` and whether it takes a
/// value, the help prints `name`, `value` and `help`, so the two cannot disagree.
struct CommandOption: Sendable {
    let name: String
    /// What follows the name (`N`, `terminate|acknowledge`); nil for a flag.
    let value: String?
    /// One or more lines; the help aligns the ones after the first under it.
    let help: String

    /// An option that takes a value: `--seconds N`.
    init(_ name: String, _ value: String, _ help: String) {
        self.name = name
        self.value = value
        self.help = help
    }

    /// A flag: `--echo`.
    init(flag name: String, _ help: String) {
        self.name = name
        value = nil
        self.help = help
    }

    /// The name with its value, as the synopsis and the options table write it.
    var label: String { value.map { "\(name) \($0)" } ?? name }
}

/// A subcommand: its name, its options and help text, and what it does. Each lives in its own
/// `…Command.swift`; main.swift only picks one by the first word.
protocol ToolCommand: Sendable {
    /// The word that names it: `simulate`.
    var name: String { get }
    /// Other words that name it (`-V` and `version` for `--version`).
    var aliases: [String] { get }
    /// What comes between the name and the options in the synopsis (`FILE|-`), if anything.
    var operands: String? { get }
    var options: [CommandOption] { get }
    /// The lines under the synopsis in the usage summary (already wrapped, not indented).
    var summary: String { get }
    /// The help's first paragraph, after its usage line.
    var about: String { get }
    /// What the help says after the options table (keys, scenario lines, exit status), if anything.
    var details: String? { get }
    /// Runs the command with the words after its name; it ends the process itself.
    @MainActor func run(_ arguments: ArraySlice<String>) -> Never
}

extension ToolCommand {
    var aliases: [String] { [] }
    var operands: String? { nil }
    var options: [CommandOption] { [] }
    var details: String? { nil }

    /// `simulate FILE|- [--language CODE] [--echo] [--record FILE]`: the usage line of the help and the summary.
    var synopsis: String {
        ([name] + (operands.map { [$0] } ?? []) + options.map { "[\($0.label)]" }).joined(separator: " ")
    }

    /// The whole help, printed for `COMMAND --help` and `help COMMAND`.
    var help: String {
        var text = "usage: callmonitor \(synopsis)\n\n\(about)\n\n"
        text += "options:\n" + Self.table(options + [CommandOption(flag: "--help", "this text")])
        if let details { text += "\n" + details }
        return text
    }

    /// The options table: labels in one column, descriptions aligned three spaces after the
    /// longest label, later lines of a description under its first.
    private static func table(_ options: [CommandOption]) -> String {
        let width = (options.map(\.label.count).max() ?? 0) + 3
        var text = ""
        for option in options {
            for (index, line) in option.help.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let lead = index == 0 ? option.label : ""
                text += "  " + lead + String(repeating: " ", count: width - lead.count) + line + "\n"
            }
        }
        return text
    }

    /// Reads the options from `arguments`; returns their values (an empty string for a flag) and
    /// the other words. `--help` (or `-h`) anywhere prints the help and exits 0, whatever else is
    /// on the line; an unknown option or a missing value fails with the help.
    func parseOptions(_ arguments: ArraySlice<String>) -> (options: [String: String], words: [String]) {
        if arguments.contains("--help") || arguments.contains("-h") {
            Output.write(help)
            exit(0)
        }
        let valued = Set(options.filter { $0.value != nil }.map(\.name))
        let flags = Set(options.filter { $0.value == nil }.map(\.name))
        var found: [String: String] = [:]
        var words: [String] = []
        var iterator = arguments.makeIterator()
        while let word = iterator.next() {
            if valued.contains(word) {
                guard let value = iterator.next() else { fail("\(word) needs a value\n\(help)") }
                found[word] = value
            } else if flags.contains(word) {
                found[word] = ""
            } else if word.hasPrefix("--") {
                let hint = Suggestions.hint(for: word, in: valued.union(flags).sorted() + ["--help"])
                fail("unknown option \(word)\(hint)\n\(help)")
            } else {
                words.append(word)
            }
        }
        return (found, words)
    }
}

/// Every subcommand, in the order the usage summary lists them.
enum ToolCommands {
    static let all: [any ToolCommand] = [
        SimulateCommand(), ReplayCommand(), DemoCommand(), BenchCommand(), WatchCommand(), PolicyCommand(), HelpCommand(),
        VersionCommand(),
    ]

    /// The command `word` names (by its name or an alias), if any.
    static func named(_ word: String) -> (any ToolCommand)? {
        all.first { $0.name == word || $0.aliases.contains(word) }
    }

    /// The command names, for "did you mean" when one is misspelt.
    static var names: [String] { all.map(\.name) }

    /// Printed by `help` alone, and on standard error when the command is missing or unknown:
    /// each command's synopsis and summary, so the list cannot drift from the commands.
    static var usage: String {
        var text = "usage:\n"
        for command in all {
            text += "  callmonitor \(command.synopsis)\n"
            for line in command.summary.split(separator: "\n") { text += "      \(line)\n" }
        }
        return text
    }
}

/// Exits with status 2 after printing `message` to standard error.
func fail(_ message: String) -> Never {
    Output.error("callmonitor: \(message)\n")
    exit(2)
}

/// Fails with `error`'s message, for a refused flow or number of seconds.
func fail(_ error: PolicyWordError) -> Never {
    fail(error.message)
}

/// The dialog's texts for `--language CODE` (English without the option); fails on a language
/// that is not shipped.
func strings(forLanguage code: String?) -> CallMonitorStrings {
    guard let code else { return .english }
    guard let strings = Languages.strings(for: code) else {
        fail("language '\(code)' is not available; available: \(Languages.available.joined(separator: ", "))")
    }
    return strings
}

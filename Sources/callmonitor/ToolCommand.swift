// What every subcommand of `callmonitor` is made of, and what they share: the list of commands
// (the usage summary is built from it), the help and the reading of the options, both from the
// command's option table (OptionTable.swift), and the way a command fails.

import ScenarioLanguage
import hnb
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A subcommand: its name, its options and help text, and what it does. Each lives in its own
/// `…Command.swift`; main.swift only picks one by the first word.
protocol ToolCommand: Sendable {
    /// What its options are read into (`DemoOptions`).
    associatedtype Options: CommandOptions
    /// The word that names it: `simulate`.
    var name: String { get }
    /// Other words that name it (`-V` and `version` for `--version`).
    var aliases: [String] { get }
    /// What comes between the name and the options in the synopsis (`FILE|-`), if anything.
    var operands: String? { get }
    /// Its options and how many other words it takes: what it parses, and what its help and
    /// synopsis list.
    var options: OptionTable<Options> { get }
    /// The lines under the synopsis in the usage summary (already wrapped, not indented).
    var summary: String { get }
    /// The help's first paragraph, after its usage line.
    var about: String { get }
    /// What the help says after the options table (keys, scenario lines, exit status), if anything.
    var details: String? { get }
    /// Runs the command with the words after its name; it ends the process itself.
    @MainActor func run(_ arguments: ArraySlice<String>) -> Never
    /// Whether a command line it cannot read is one line and a pointer to `--help` (`policy`,
    /// issue 53: a bank's scripts read its errors, and a long help buried the line that said what
    /// was wrong), rather than the line and the whole help.
    var pointsToHelp: Bool { get }
}

extension ToolCommand {
    var pointsToHelp: Bool { false }
    var aliases: [String] { [] }
    var operands: String? { nil }
    var details: String? { nil }

    /// The options as the synopsis and the help's table label them (`--seconds N`), in the
    /// table's order; readable where the command's options type is not known (`any ToolCommand`).
    var optionLabels: [String] { options.specs.map(\.label) }

    /// `simulate FILE|- [--language CODE] [--echo] [--record FILE]`: the usage line of the help and the summary.
    var synopsis: String {
        ([name] + (operands.map { [$0] } ?? []) + optionLabels.map { "[\($0)]" }).joined(separator: " ")
    }

    /// The whole help, printed for `COMMAND --help` and `help COMMAND`.
    var help: String {
        var text = "usage: callmonitor \(synopsis)\n\n\(about)\n\n"
        text += "options:\n" + Self.table(options.specs.map { ($0.label, $0.help) } + [("--help", "this text")])
        if let details { text += "\n" + details }
        return text
    }

    /// The options table: labels in one column, descriptions aligned three spaces after the
    /// longest label, later lines of a description under its first.
    private static func table(_ rows: [(label: String, help: String)]) -> String {
        let width = (rows.map(\.label.count).max() ?? 0) + 3
        var text = ""
        for row in rows {
            for (index, line) in row.help.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let lead = index == 0 ? row.label : ""
                text += "  " + lead + String(repeating: " ", count: width - lead.count) + line + "\n"
            }
        }
        return text
    }

    /// Reads `arguments` with the command's option table (OptionTable.parse(_:) says in which
    /// order): its typed options and the other words. `--help` (or `-h`) anywhere prints the help
    /// and exits 0, whatever else is on the line; a refused line fails with its message (and the
    /// help after it for an unknown option, a missing value or a wrong number of words).
    func parse(_ arguments: ArraySlice<String>) -> (options: Options, words: [String]) {
        do throws(OptionTable<Options>.Failure) {
            switch try options.parse(arguments) {
            case .help:
                Output.write(help)
                exit(0)
            case .options(let options, let words):
                return (options, words)
            }
        } catch {
            guard error.showsHelp else { fail(error.message) }
            usage(error.message)
        }
    }

    /// A command line the command cannot read: `message`, then where the help is
    /// (``pointsToHelp``) or the whole help. Exit status 2.
    func usage(_ message: String) -> Never {
        fail(pointsToHelp ? "\(message) (see callmonitor \(name) --help)" : "\(message)\n\(help)")
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

extension OptionSpec {
    /// `--language CODE`, as simulate, demo and watch read it: `store` gets the dialog's texts
    /// for a shipped language; any other is refused, with the list of those that are.
    static func language(_ help: String, _ store: @escaping @Sendable (inout Options, CallMonitorStrings) -> Void) -> OptionSpec {
        .checked("--language", "CODE", help) { options, code throws(OptionValueError) in
            guard let strings = Languages.strings(for: code) else { throw .invalid(unavailable(language: code)) }
            store(&options, strings)
        }
    }
}

/// The dialog's texts for a `--language CODE` that a command checks only when it needs them
/// (English without the option); fails on a language that is not shipped.
func strings(forLanguage code: String?) -> CallMonitorStrings {
    guard let code else { return .english }
    guard let strings = Languages.strings(for: code) else { fail(unavailable(language: code)) }
    return strings
}

/// The refusal of a language that is not shipped, with those that are; a long code is clipped,
/// never echoed whole.
private func unavailable(language code: String) -> String {
    "language '\(PolicyFiles.clipped(code))' is not available; available: \(Languages.available.joined(separator: ", "))"
}

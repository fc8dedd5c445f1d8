// `callmonitor help [COMMAND]` and `callmonitor --version`: the two commands about the tool itself.

import ScenarioLanguage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The tool's version, printed by `callmonitor --version`. scripts/build-xcframework stamps the
/// library's framework with it, reading this very line: keep it `let toolVersion = "…"`.
let toolVersion = "0.1.0"

struct HelpCommand: ToolCommand {
    let name = "help"
    let aliases = ["--help", "-h"]
    let operands: String? = "[COMMAND]"
    let summary = "The options of one command (COMMAND --help prints the same); alone, this list."
    /// Nothing: the topic is read by hand (below); the table gives the help's `--help` row alone.
    let options = OptionTable<NoOptions>(words: .any, [])
    let about = """
        Prints the help of COMMAND: its options, with their ranges and defaults, and what it writes.
        Without COMMAND, the list of commands.
        """

    @MainActor
    func run(_ arguments: ArraySlice<String>) -> Never {
        // Not parse(_:): the topic may itself look like an option (`help --version`).
        guard arguments.count <= 1 else { fail("help takes one COMMAND at most\n\(ToolCommands.usage)") }
        guard let topic = arguments.first else {
            Output.write(ToolCommands.usage)
            exit(0)
        }
        guard let command = ToolCommands.named(topic) else {
            fail("no help for '\(topic)'\(Suggestions.hint(for: topic, in: ToolCommands.names))\n\(ToolCommands.usage)")
        }
        Output.write(command.help)
        exit(0)
    }
}

struct VersionCommand: ToolCommand {
    let name = "--version"
    let aliases = ["-V", "version"]
    let summary = "The tool's version."
    let about = "Prints the tool's version, which is also the library's."
    let options = OptionTable<NoOptions>(words: .none("--version takes no arguments"), [])

    @MainActor
    func run(_ arguments: ArraySlice<String>) -> Never {
        _ = parse(arguments)
        Output.write("callmonitor \(toolVersion)\n")
        exit(0)
    }
}

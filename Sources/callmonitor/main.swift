// `callmonitor`: the policy simulator, the live terminal demo, the benchmark and the Linux phone
// watcher, all running the production `hnb` engine. This file only picks the command the first
// word names and hands it the rest; each command lives in its own …Command.swift with its
// options, its help and its run, and ToolCommands (ToolCommand.swift) lists them.

import ScenarioLanguage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

let arguments = CommandLine.arguments.dropFirst()
guard let word = arguments.first else {
    Output.error(ToolCommands.usage)
    exit(2)
}
guard let command = ToolCommands.named(word) else {
    fail("unknown command '\(word)'\(Suggestions.hint(for: word, in: ToolCommands.names))\n\(ToolCommands.usage)")
}
command.run(arguments.dropFirst())

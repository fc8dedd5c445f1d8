// The parts the tool's commands share, tested directly: the flow and seconds words, the policy
// wording, the JSON Lines writer, and the command list that the usage and each help are built from.

import Testing
import hnb
@testable import ScenarioLanguage
@testable import callmonitor

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

// `callmonitor replay FILE [--check]`: a recording (an app's startRecording(to:), or
// `simulate --record`) run through the simulator, its transcript printed; `--check` compares what
// the monitor did in the replay with the `#>` lines the recording holds.

import Foundation
import ScenarioLanguage
import hnb
import hnbRecording
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// What `replay`'s options say.
struct ReplayOptions: CommandOptions {
    /// Compare the replay with the recording's output lines (`--check`).
    var check = false
    /// The dialog's language code as given (`--language`), checked when the replay starts.
    var language: String?
}

struct ReplayCommand: ToolCommand {
    let name = "replay"
    let operands: String? = "FILE|-"

    var options: OptionTable<ReplayOptions> {
        OptionTable(words: .one("replay takes one FILE (or - for standard input)"), [
            .flag("--check", "compare the replay's outputs with the recording's '#>' lines; exit 1 at the\nfirst difference, printing both lines") {
                $0.check = true
            },
            // Taken as written and checked only once the recording has been read and parsed,
            // as replay always did: a bad file is named before a bad language.
            .text("--language", "CODE", "language of the built-in dialog (default en), as for simulate") { $0.language = $1 },
        ])
    }

    let summary = """
        Replays a recording of a monitor's session (CallMonitor.startRecording(to:), or
        simulate --record) and prints the transcript; --check compares it with the recording.
        """

    let about = """
        Replays a recording through a real CallMonitor on a virtual clock, as simulate runs a
        scenario (a recording is one), and prints the transcript as JSON Lines. With --check, what
        the monitor did in the replay (the '#>' lines it would record) must be what the recording
        says it did, line for line.
        """

    let details: String? = """
        exit status: 0 when the replay ran (and, with --check, matched); 1 at the first difference,
        with 'FILE:N: recorded LINE' and 'replayed LINE' on standard error (N: the recording's line;
        '(nothing)' where one side has no more lines), and for --check of an empty recording or one
        with no '#>' line (nothing to compare); 2 on a bad file or option.

        """

    @MainActor
    func run(_ arguments: ArraySlice<String>) -> Never {
        let (options, words) = parse(arguments)
        let path = words[0]
        let text = SimulateCommand.readAll(path)
        // A check with nothing to compare would pass whatever the replay did (issue 37).
        if options.check, let empty = RecordingCheck.nothingToCompare(text) {
            Output.error("\(path == "-" ? "standard input" : path): \(empty)\n")
            exit(1)
        }
        let steps: [ScenarioStep]
        do { steps = try ScenarioParser.parse(text) } catch {
            let error = error.narrowed(or: ScenarioError.unexpected)
            Output.error("\(path == "-" ? "line \(error.line)" : "\(path):\(error.line)"): \(error.message)\n")
            exit(2)
        }
        let output = JSONLinesWriter(flushing: .inBlocks(bytes: 65_536))
        let simulation = Simulation(strings: strings(forLanguage: options.language), sink: { output.write(line: $0) })
        let again = FileManager.default.temporaryDirectory.appendingPathComponent("callmonitor-replay-\(getpid()).scenario").path
        simulation.startRecording(toPath: again)
        do { _ = try simulation.run(steps) } catch {
            Output.error("\(path):\(error.line): \(error.message)\n")
            exit(2)
        }
        simulation.finishRecording()
        withExtendedLifetime(simulation) {}
        output.flush()
        let replayed = SimulateCommand.readAll(again)
        unlink(again)
        guard options.check else { exit(0) }
        if let difference = RecordingCheck.firstDifference(recorded: text, replayed: replayed) {
            Output.error("\(path):\(difference.line): recorded \(difference.recorded ?? "(nothing)")\nreplayed \(difference.replayed ?? "(nothing)")\n")
            exit(1)
        }
        exit(0)
    }
}

/// What `replay --check` compares: the output lines (`#> …`) of two recordings, in order.
enum RecordingCheck {
    struct Difference: Equatable {
        /// The recording's line number of the differing output line (or of its last line, when
        /// the recording has fewer).
        let line: Int
        let recorded: String?
        let replayed: String?
    }

    /// The output lines of a recording, with their line numbers.
    static func outputs(_ text: String) -> [(line: Int, text: String)] {
        let prefix = "#> "
        return text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated().compactMap { index, line in
            line.hasPrefix(prefix) ? (index + 1, String(line.dropFirst(prefix.count))) : nil
        }
    }

    /// Why `recorded` gives a check nothing to compare, or `nil` when it holds an output line:
    /// without one, every replay would match it.
    static func nothingToCompare(_ recorded: String) -> String? {
        if recorded.allSatisfy(\.isWhitespace) { return "the recording is empty: there is nothing to check" }
        if outputs(recorded).isEmpty {
            return "the recording has no output line ('#> ...'): there is nothing to check the replay against"
        }
        return nil
    }

    /// The first output line that is not the same in both, or `nil` when they all are.
    static func firstDifference(recorded: String, replayed: String) -> Difference? {
        let expected = outputs(recorded)
        let actual = outputs(replayed).map(\.text)
        let lastLine = recorded.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).count
        for index in 0..<max(expected.count, actual.count) {
            let want = index < expected.count ? expected[index].text : nil
            let got = index < actual.count ? actual[index] : nil
            if want != got { return Difference(line: index < expected.count ? expected[index].line : lastLine, recorded: want, replayed: got) }
        }
        return nil
    }
}

extension Simulation {
    /// Records this simulation's monitor to `path` with no bound (a bad path fails the command).
    func startRecording(toPath path: String) {
        do {
            try monitor.startRecording(to: URL(fileURLWithPath: path), maxBytes: .max)
        } catch {
            fail("\(error)")
        }
    }

    /// Ends the recording, if any, once the file is complete.
    func finishRecording() {
        monitor.finishRecording()
    }
}

// `callmonitor`: the policy simulator, the live terminal demo and (later) the benchmark, all
// running the production `hnb` engine.

import Dispatch
import hnb
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The tool's version, printed by `callmonitor --version`; the library and the tool share it.
let toolVersion = "0.1.0"

let usage = """
usage:
  callmonitor simulate FILE|- [--language CODE] [--echo]
      Runs a scenario (one 'TIME COMMAND [ARGS]' a line) against a real CallMonitor on a
      virtual clock and prints the transcript as JSON Lines. Exit status 2 on a bad scenario.
  callmonitor demo [--flow terminate|acknowledge] [--seconds N] [--speed X] [--language CODE] [--interactive]
      Plays the policy in real time in the terminal. Defaults: terminate flow, 5 seconds, speed 1.
  callmonitor bench [--quick]
      Measures countdown precision, detection latency, engine throughput and idle cost with the
      production engine (build with -c release for real figures; --quick is a few-second smoke run).
\(watchUsage)  callmonitor help [COMMAND]      (or COMMAND --help): the options of one command
  callmonitor --version

"""

let simulateHelp = """
usage: callmonitor simulate FILE|- [--language CODE] [--echo]

Runs a scenario against a real CallMonitor on a virtual clock (hours take milliseconds) and
prints every observable output as one JSON object a line. FILE '-' reads standard input.

options:
  --language CODE   language of the built-in dialog: \(Languages.available.joined(separator: " "))
                    (a region such as pt-BR or de-AT picks its language; default en)
  --echo            write each scenario line into the transcript, kind "input", before it runs
  --help            this text

scenario lines: TIME COMMAND [ARGS]   TIME: seconds from the start, 0 to 9000000000, up to
nine decimals, never decreasing. '#' starts a comment. The app starts in the foreground, with no
call, not monitoring, the built-in dialog and a recording callback.
  start terminate N | start acknowledge N   start monitoring (N: any whole number, clamped to Int32)
  start observe                             startMonitoring(): observe only, never a security UI
  stop                                      stopMonitoring() (ends the app-wide policy only)
  protect NAME terminate N | protect NAME acknowledge N
                                            a screen's protection begins (the strictest policy is in force)
  unprotect NAME                            the named protection ends
  exempt ID | unexempt ID                   exemptCall / removeExemption: the app's own call
  detection off | detection on              setCallDetectionEnabled(false / true), at once
  incoming ID | outgoing ID                 a new call ringing in / dialing out
  connect ID | hold ID | resume ID | end ID the call connects, is held, resumed, ends
  background | foreground                   the app leaves / enters the foreground
  tap                                       the delegate's latest onUserAction, else the dialog's button
  delegate custom | delegate none | delegate release
                                            a new recording delegate / setDelegate(nil) / free it unannounced
  callback on | callback off                the recording callback / setCallback(nil)
  capture on | capture off                  the screen starts / stops being captured (recorded, shared)
  capture rule on | capture rule off        setRefusesAcknowledgementWhileScreenCaptured(true / false)
  capture escalate terminate N | capture escalate acknowledge N
                                            protectWhileScreenCaptured: stricter while captured in a call
  capture escalate off                      stopProtectingWhileScreenCaptured()
  wait                                      nothing: lets time run to TIME

transcript kinds: event, detect, tick, end, alert, dismiss, tap (accepted: true|false), input
(with --echo), outcome (ending, flow, startedAt, lowestRemaining, shownOn, captured: one per
security event, when it ends), exit. Examples: Tests/callmonitorTests/Scenarios/*.scenario in the source tree.

exit status: 0 on success; 2 on a bad scenario ('FILE:N: what is wrong', or 'line N: …' for
standard input, on standard error, nothing on standard output) or a bad option.

"""

let demoHelp = """
usage: callmonitor demo [--flow terminate|acknowledge] [--seconds N] [--speed X] [--language CODE] [--interactive]

Plays the policy in real time through the production engine and the live scheduler, drawing the
built-in dialog as a box that fits the terminal (plain lines when the output is not a terminal).

options:
  --flow terminate|acknowledge   the policy (default terminate)
  --seconds N                    the countdown or the acknowledge delay, 0 to 3600 (default 5;
                                 terminate clamps 0 to 1)
  --speed X                      play X times faster, 0.1 to 1000 (default 1)
  --language CODE                language of the dialog: \(Languages.available.joined(separator: " "))
                                 (only the dialog: it is what the user sees; the narration
                                 around it explains the library to you and stays in English)
  --interactive                  drive it yourself with keys instead of the built-in story
  --help                         this text

interactive keys:
  i   a new incoming call            a   answer the latest ringing call
  h   hang up the latest call        t   tap the dialog's button
  b   background / foreground        q   quit (Ctrl-C too)

"""

let benchHelp = """
usage: callmonitor bench [--quick]

Measures the production engine: countdown precision on the live scheduler against a naive chain
of one-second delays, detection latency across threads, engine throughput, peak memory of this
process, and idle cost. Prints a table and a last line 'BENCH {...}' with the figures as JSON.
Build with -c release for real figures.

options:
  --quick   a few-second smoke run (CI uses it to prove the tool works)
  --help    this text

"""

/// The help text of each subcommand, printed for `COMMAND --help` and `help COMMAND`.
let helpTexts = ["simulate": simulateHelp, "demo": demoHelp, "bench": benchHelp, "watch": watchHelp]

/// Exits with status 2 after printing `message` to standard error.
func fail(_ message: String) -> Never {
    Output.error("callmonitor: \(message)\n")
    exit(2)
}

/// Reads `--name VALUE` options from `arguments`; returns the options and the other words.
/// `--help` (or `-h`) anywhere prints `help` and exits 0, whatever else is on the line.
func parseOptions(_ arguments: ArraySlice<String>, valued: Set<String>, flags: Set<String>, help: String) -> ([String: String], [String]) {
    if arguments.contains("--help") || arguments.contains("-h") {
        Output.write(help)
        exit(0)
    }
    var options: [String: String] = [:]
    var words: [String] = []
    var iterator = arguments.makeIterator()
    while let word = iterator.next() {
        if valued.contains(word) {
            guard let value = iterator.next() else { fail("\(word) needs a value\n\(help)") }
            options[word] = value
        } else if flags.contains(word) {
            options[word] = ""
        } else if word.hasPrefix("--") {
            let hint = Suggestions.hint(for: word, in: valued.union(flags).sorted() + ["--help"])
            fail("unknown option \(word)\(hint)\n\(help)")
        } else {
            words.append(word)
        }
    }
    return (options, words)
}

func strings(forLanguage code: String?) -> CallMonitorStrings {
    guard let code else { return .english }
    guard let strings = Languages.strings(for: code) else {
        fail("language '\(code)' is not available; available: \(Languages.available.joined(separator: ", "))")
    }
    return strings
}

func readAll(_ path: String) -> String {
    let fd = path == "-" ? 0 : open(path, O_RDONLY)
    guard fd >= 0 else { fail("cannot open \(path): \(String(cString: strerror(errno)))") }
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count >= 0 else { fail("cannot read \(path): \(String(cString: strerror(errno)))") }
        if count == 0 { break }
        data.append(contentsOf: buffer[0..<count])
    }
    if fd != 0 { close(fd) }
    return String(decoding: data, as: UTF8.self)
}

@MainActor
func simulate(_ arguments: ArraySlice<String>) -> Never {
    let (options, words) = parseOptions(arguments, valued: ["--language"], flags: ["--echo"], help: simulateHelp)
    guard words.count == 1 else { fail("simulate takes one FILE (or - for standard input)\n\(simulateHelp)") }
    let chosen = strings(forLanguage: options["--language"])
    let path = words[0]
    // `FILE:N:` is the form editors and terminals turn into a link to the line; standard input
    // has no name, so it keeps `line N:`.
    let location = path == "-" ? { (line: Int) in "line \(line)" } : { (line: Int) in "\(path):\(line)" }
    func report(_ error: ScenarioError) -> Never {
        Output.error("\(location(error.line)): \(error.message)\n")
        exit(2)
    }
    let steps: [ScenarioStep]
    do { steps = try ScenarioParser.parse(readAll(path)) } catch { report(error) }
    if steps.isEmpty {
        // Not an error (an empty file is a valid scenario), but almost always a mistake: the
        // wrong file, or every line commented out.
        Output.error("callmonitor: warning: \(path == "-" ? "standard input" : path) has no commands; the transcript is empty\n")
    }
    // Each line is written as it happens (memory stays flat on a scenario of years, and a long
    // one can be followed), unless a call command will fail: then, as for a syntax error,
    // nothing is written but the error, so the lines are kept until the run stops.
    let fails = Simulation.firstScriptError(in: steps) != nil
    let output = BufferedOutput()
    // A named simulation: its delegates reach back to it weakly while it runs.
    let simulation = Simulation(strings: chosen, echo: options["--echo"] != nil, sink: fails ? nil : { output.write($0) })
    let lines: [String]
    do { lines = try simulation.run(steps) } catch { report(error) }
    withExtendedLifetime(simulation) {}
    for line in lines { output.write(line) }
    output.flush()
    exit(0)
}

@MainActor
func demo(_ arguments: ArraySlice<String>) -> Never {
    let (options, words) = parseOptions(
        arguments, valued: ["--flow", "--seconds", "--speed", "--language"], flags: ["--interactive"], help: demoHelp
    )
    guard words.isEmpty else { fail("demo takes no arguments besides its options\n\(demoHelp)") }
    var demoOptions = DemoOptions()
    if let flow = options["--flow"] {
        switch flow {
        case "terminate": demoOptions.flow = .terminate
        case "acknowledge": demoOptions.flow = .acknowledge
        default: fail("--flow must be terminate or acknowledge\(Suggestions.hint(for: flow, in: ["terminate", "acknowledge"]))")
        }
    }
    if let text = options["--seconds"] {
        guard let seconds = ScenarioParser.parseSeconds(text), seconds >= 0, seconds <= 3600 else {
            fail("--seconds must be a whole number from 0 to 3600")
        }
        demoOptions.seconds = seconds
    }
    if let text = options["--speed"] {
        guard let speed = Double(text), speed.isFinite, speed >= 0.1, speed <= 1000 else {
            fail("--speed must be a number from 0.1 to 1000")
        }
        demoOptions.speed = speed
    }
    demoOptions.strings = strings(forLanguage: options["--language"])
    demoOptions.interactive = options["--interactive"] != nil
    let demo = Demo(options: demoOptions)
    demo.start()
    withExtendedLifetime(demo) { dispatchMain() }
}

@MainActor
func bench(_ arguments: ArraySlice<String>) -> Never {
    let (options, words) = parseOptions(arguments, valued: [], flags: ["--quick"], help: benchHelp)
    guard words.isEmpty else { fail("bench takes no arguments besides --quick\n\(benchHelp)") }
    let quick = options["--quick"] != nil
    Task { @MainActor in
        await Bench.run(plan: quick ? .quick : .full, quick: quick)
        exit(0)
    }
    dispatchMain()
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "simulate": simulate(arguments.dropFirst())
case "demo": demo(arguments.dropFirst())
case "bench": bench(arguments.dropFirst())
case "watch": watch(arguments.dropFirst())
case "help", "--help", "-h":
    let topic = arguments.dropFirst().first
    if let topic {
        guard let text = helpTexts[topic] else {
            fail("no help for '\(topic)'\(Suggestions.hint(for: topic, in: helpTexts.keys.sorted()))\n\(usage)")
        }
        Output.write(text)
    } else {
        Output.write(usage)
    }
    exit(0)
case "--version", "-V", "version":
    Output.write("callmonitor \(toolVersion)\n")
    exit(0)
case nil:
    Output.error(usage)
    exit(2)
case let other?:
    let hint = Suggestions.hint(for: other, in: ["simulate", "demo", "bench", "help", "--version"])
    fail("unknown command '\(other)'\(hint)\n\(usage)")
}

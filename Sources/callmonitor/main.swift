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

let usage = """
usage:
  callmonitor simulate FILE|- [--language CODE]
      Runs a scenario (one 'TIME COMMAND [ARGS]' a line) against a real CallMonitor on a
      virtual clock and prints the transcript as JSON Lines. Exit status 2 on a bad scenario.
  callmonitor demo [--flow terminate|acknowledge] [--seconds N] [--speed X] [--language CODE] [--interactive]
      Plays the policy in real time in the terminal. Defaults: terminate flow, 5 seconds, speed 1.
  callmonitor bench [--quick]
      Measures countdown precision, detection latency, engine throughput and idle cost with the
      production engine (build with -c release for real figures; --quick is a few-second smoke run).
\(watchUsage)  callmonitor help

"""

/// Exits with status 2 after printing `message` to standard error.
func fail(_ message: String) -> Never {
    Output.error("callmonitor: \(message)\n")
    exit(2)
}

/// Reads `--name VALUE` options from `arguments`; returns the options and the other words.
func parseOptions(_ arguments: ArraySlice<String>, valued: Set<String>, flags: Set<String>) -> ([String: String], [String]) {
    var options: [String: String] = [:]
    var words: [String] = []
    var iterator = arguments.makeIterator()
    while let word = iterator.next() {
        if valued.contains(word) {
            guard let value = iterator.next() else { fail("\(word) needs a value\n\(usage)") }
            options[word] = value
        } else if flags.contains(word) {
            options[word] = ""
        } else if word.hasPrefix("--") {
            fail("unknown option \(word)\n\(usage)")
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
    let (options, words) = parseOptions(arguments, valued: ["--language"], flags: [])
    guard words.count == 1 else { fail("simulate takes one FILE (or - for standard input)\n\(usage)") }
    let chosen = strings(forLanguage: options["--language"])
    func report(_ error: ScenarioError) -> Never {
        Output.error("line \(error.line): \(error.message)\n")
        exit(2)
    }
    let steps: [ScenarioStep]
    do { steps = try ScenarioParser.parse(readAll(words[0])) } catch { report(error) }
    // A named simulation: its delegates reach back to it weakly while it runs.
    let simulation = Simulation(strings: chosen)
    let lines: [String]
    do { lines = try simulation.run(steps) } catch { report(error) }
    withExtendedLifetime(simulation) {}
    Output.write(lines.map { $0 + "\n" }.joined())
    exit(0)
}

@MainActor
func demo(_ arguments: ArraySlice<String>) -> Never {
    let (options, words) = parseOptions(
        arguments, valued: ["--flow", "--seconds", "--speed", "--language"], flags: ["--interactive"]
    )
    guard words.isEmpty else { fail("demo takes no arguments besides its options\n\(usage)") }
    var demoOptions = DemoOptions()
    if let flow = options["--flow"] {
        switch flow {
        case "terminate": demoOptions.flow = .terminate
        case "acknowledge": demoOptions.flow = .acknowledge
        default: fail("--flow must be terminate or acknowledge")
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
    let (options, words) = parseOptions(arguments, valued: [], flags: ["--quick"])
    guard words.isEmpty else { fail("bench takes no arguments besides --quick\n\(usage)") }
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
    Output.write(usage)
    exit(0)
case nil:
    Output.error(usage)
    exit(2)
case let other?:
    fail("unknown command '\(other)'\n\(usage)")
}

// Runs the built `callmonitor` executable, as a user would: every scenario against its expected
// transcript, every class of bad scenario, the demo in a pipe, and the interactive demo in tmux.

import Dispatch
import Foundation
import Testing
import hnbTesting

/// Where the scenario files and their expected transcripts live.
let scenarioDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scenarios")

/// The built `callmonitor`, found next to the test runner (SwiftPM puts products side by side).
let toolURL: URL = {
    var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    if !FileManager.default.fileExists(atPath: directory.path) {
        directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }
    // On macOS the runner sits inside an .xctest bundle; walk up until the product is found.
    for _ in 0..<5 {
        let candidate = directory.appendingPathComponent("callmonitor")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: "callmonitor")
}()

struct RunResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs the tool with `arguments`, feeding `input` on standard input, and waits for it.
func runTool(_ arguments: [String], input: String = "") async throws -> RunResult {
    try await runProcess(toolURL, arguments, input: input)
}

/// Runs a program to completion without blocking Swift's cooperative threads (there are as many
/// as cores, two on CI): the pipes are drained on Dispatch threads and the exit is awaited.
///
/// With `capture` false the output goes to /dev/null: a program that leaves a daemon behind
/// (tmux starting its server) would otherwise hold the pipes open forever.
func runProcess(_ executable: URL, _ arguments: [String], input: String = "", capture: Bool = true) async throws -> RunResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = capture ? stdout : FileHandle.nullDevice
    process.standardError = capture ? stderr : FileHandle.nullDevice
    let exited = AsyncStream<Void> { continuation in
        process.terminationHandler = { _ in
            continuation.yield()
            continuation.finish()
        }
    }
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    async let out = capture ? drain(stdout.fileHandleForReading) : Data()
    async let err = capture ? drain(stderr.fileHandleForReading) : Data()
    let (outData, errData) = await (out, err)
    // Close our ends now. Foundation on Linux keeps every started Process (and through it these
    // pipes) alive for ever, so leaving the closing to deinit leaked two descriptors per run; past
    // about 1,350 open descriptors `Process.run()` itself crashes (swift-corelibs-foundation
    // #5472, an over-read while it lists /proc/self/fd), which took CI down.
    if capture {
        try? stdout.fileHandleForReading.close()
        try? stderr.fileHandleForReading.close()
    }
    for await _ in exited {}
    return RunResult(
        status: process.terminationStatus,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self)
    )
}

/// Reads a pipe to its end on a Dispatch thread.
func drain(_ handle: FileHandle) async -> Data {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(returning: handle.readDataToEndOfFile())
        }
    }
}

func scenarioNames() -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: scenarioDirectory.path)) ?? []
    return files.filter { $0.hasSuffix(".scenario") }.map { String($0.dropLast(".scenario".count)) }.sorted()
}

/// The pipes this process holds open now (Linux lists them in /proc/self/fd as `pipe:[inode]`).
func openPipeCount() -> Int {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return entries.filter { entry in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"))?.hasPrefix("pipe:") == true
    }.count
}

extension CommandLineTests {
    @Suite("the test runner's own process handling")
    struct RunnerHygieneTests {
        /// Hundreds of runs in one suite once left ~1,350 descriptors open, and Foundation's
        /// `Process.run()` crashes when it lists that many (swift-corelibs-foundation #5472).
        /// Each run made two pipes it never closed; 30 runs would leave 60.
        @Test("Running the tool leaves none of its pipes open", .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "needs Linux's /proc"))
        func runsCloseTheirPipes() async throws {
            let before = openPipeCount()
            for _ in 0..<30 {
                let result = try await runTool(["--version"])
                #expect(result.status == 0)
            }
            let after = openPipeCount()
            // Other suites run beside this one and may hold a few pipes for a moment.
            #expect(after - before < 12, "30 runs of the tool left \(after - before) more pipes open (\(before) before, \(after) after)")
        }
    }
}

extension CommandLineTests {
    @Suite("callmonitor simulate")
    struct SimulateTests {
        @Test("Every behaviour rule has scenarios, and every scenario has its transcript")
        func coverage() async throws {
            let names = scenarioNames()
            #expect(names.count >= 20)
            for rule in Array(1...14) + [16, 17] + Array(18...22) + [26, 28] {
                let prefix = String(format: "rule%02d_", rule)
                #expect(names.contains { $0.hasPrefix(prefix) }, "no scenario for rule \(rule)")
            }
            let transcripts = try FileManager.default.contentsOfDirectory(atPath: scenarioDirectory.path).filter { $0.hasSuffix(".jsonl") }
            #expect(transcripts.count == names.count)
        }

        @Test("The transcript matches the expected one exactly", arguments: scenarioNames())
        func scenario(name: String) async throws {
            let file = scenarioDirectory.appendingPathComponent("\(name).scenario")
            let expected = try String(contentsOf: scenarioDirectory.appendingPathComponent("\(name).jsonl"), encoding: .utf8)
            let result = try await runTool(["simulate", file.path])
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(result.stdout == expected)
        }

        @Test("Standard input works as the scenario file")
        func standardInput() async throws {
            let result = try await runTool(["simulate", "-"], input: "0 start terminate 1\n0.5 incoming A\n9 wait\n")
            #expect(result.status == 0)
            #expect(result.stdout.split(separator: "\n").map(String.init) == [
                #"{"t":0.5,"kind":"event","event":"ringing"}"#,
                #"{"t":0.5,"kind":"alert","flow":"terminate","title":"Security Policy","message":"Application access is disabled during active calls for your protection.","countdown":"App will close in 1 second.","button":"Close App","remaining":1,"verdict":null,"context":null}"#,
                #"{"t":1.5,"kind":"alert","flow":"terminate","title":"Security Policy","message":"Application access is disabled during active calls for your protection.","countdown":"App will close in 0 seconds.","button":"Close App","remaining":0,"verdict":null,"context":null}"#,
                #"{"t":1.5,"kind":"outcome","outcome":{"coaching":[],"endedAt":1500000000,"endedDate":1767225601.5,"ending":"forceExit","flow":"terminate","id":1,"language":"en","lowestRemaining":0,"policySource":"code","policyVersion":null,"presentations":[{"at":500000000,"remaining":1,"surface":"builtInDialog"}],"schemaVersion":2,"seconds":1,"shown":[{"frames":[{"at":500000000,"button":"Close App","contextKind":null,"countdown":"App will close in 1 second.","detail":null,"kindLine":null,"message":"Application access is disabled during active calls for your protection.","remaining":1,"title":"Security Policy","verdict":"unknown","verdictLine":null},{"at":1500000000,"button":"Close App","contextKind":null,"countdown":"App will close in 0 seconds.","detail":null,"kindLine":null,"message":"Application access is disabled during active calls for your protection.","remaining":0,"title":"Security Policy","verdict":"unknown","verdictLine":null}],"framesOmitted":0,"surface":"builtInDialog"}],"startedAt":500000000,"startedDate":1767225600.5,"verdict":"unknown","verdictArrivedAt":null,"wasScreenCaptured":false}}"#,
                #"{"t":1.5,"kind":"exit","code":0}"#,
            ])
        }

        @Test("Comments, blank lines, tabs and CRLF line ends are accepted; an empty scenario prints nothing")
        func lexical() async throws {
            let result = try await runTool(["simulate", "-"], input: "# header\r\n\r\n0\tstart  acknowledge 0 # trailing\r\n  1 incoming A\r\n")
            #expect(result.status == 0)
            #expect(result.stdout.split(separator: "\n").count == 2)
            let empty = try await runTool(["simulate", "-"], input: "")
            #expect(empty.status == 0)
            #expect(empty.stdout == "")
        }

        @Test("Hours of virtual time run without waiting for them")
        func longScenario() async throws {
            // Issue 37: no wall-clock bound (a loaded machine can miss any). A simulator that
            // waited in real time would take the scenario's 10 hours, so finishing is the proof.
            let result = try await runTool(["simulate", "-"], input: "0 start acknowledge 30\n1 incoming A\n1 connect A\n36000 end A\n")
            #expect(result.status == 0)
            // 35 lines of events, frames and the dismissal, plus the outcome when the call ends (rule 16).
            #expect(result.stdout.split(separator: "\n").count == 36)
            #expect(result.stdout.contains("{\"t\":36000,\"kind\":\"dismiss\"}"))
        }

        @Test("A bad scenario prints 'line N: …' on stderr, nothing on stdout, and exits 2", arguments: [
            ("0 start terminate 5\n1 ring A\n", "line 2: unknown command 'ring'\n"),
            ("0 start terminate five\n", "line 1: bad number 'five': expected a whole number of seconds\n"),
            ("0 start terminate 1.5\n", "line 1: bad number '1.5': expected a whole number of seconds\n"),
            ("0 start sometimes 5\n", "line 1: unknown flow 'sometimes': expected terminate or acknowledge\n"),
            ("abc start terminate 5\n", "line 1: bad time 'abc': expected seconds such as 3 or 1.5 (0 to 9000000000, at most 9 decimals)\n"),
            ("-1 wait\n", "line 1: bad time '-1': expected seconds such as 3 or 1.5 (0 to 9000000000, at most 9 decimals)\n"),
            ("0 incoming A\n5 wait\n\n# c\n4 end A\n", "line 5: time 4 goes backwards (the previous line is at 5)\n"),
            ("0 start terminate 5\n1 connect B\n", "line 2: unknown call B\n"),
            ("0 incoming A\n1 end A\n2 connect A\n", "line 3: call A has already ended\n"),
            ("0 incoming A\n1 incoming A\n", "line 2: call A already exists\n"),
            ("0 incoming A\n1 hold A\n", "line 2: call A has not connected, so it cannot be held\n"),
            ("0 incoming\n", "line 1: 'incoming' takes one call ID\n"),
            ("0 tap now\n", "line 1: unexpected 'now' after 'tap'; 'tap' takes no arguments, or stale: tap | tap stale\n"),
            ("0 start terminate 3 extra\n", "line 1: unexpected 'extra' after 'start terminate 3'; 'start' takes a flow and seconds: start terminate N | start acknowledge N | start observe\n"),
            ("0 incoming A B\n", "line 1: unexpected 'B' after 'incoming A'; 'incoming' takes one call ID\n"),
            ("0 delegate maybe\n", "line 1: unknown delegate action 'maybe': expected custom, none, release or released\n"),
            ("0 callback sometimes\n", "line 1: unknown callback action 'sometimes': expected on or off\n"),
            ("0 capture maybe\n", "line 1: 'capture' takes on, off, rule on, rule off, escalate terminate N, escalate acknowledge N or escalate off\n"),
            ("0 capture rule\n", "line 1: 'capture' takes on, off, rule on, rule off, escalate terminate N, escalate acknowledge N or escalate off\n"),
            ("0 capture escalate\n", "line 1: 'capture escalate' takes a flow and seconds, or off: capture escalate terminate N | capture escalate acknowledge N | capture escalate off\n"),
            ("0 capture escalate terminate\n", "line 1: 'capture escalate' takes a flow and seconds, or off: capture escalate terminate N | capture escalate acknowledge N | capture escalate off\n"),
            ("0 capture escalate off now\n", "line 1: unexpected 'now' after 'capture escalate off'; 'capture escalate' takes a flow and seconds, or off: capture escalate terminate N | capture escalate acknowledge N | capture escalate off\n"),
            ("0 capture escalate terminate 5 now\n", "line 1: unexpected 'now' after 'capture escalate terminate 5'; 'capture escalate' takes a flow and seconds, or off: capture escalate terminate N | capture escalate acknowledge N | capture escalate off\n"),
            ("0 capture escalate sometimes 5\n", "line 1: unknown flow 'sometimes': expected terminate or acknowledge\n"),
            ("0 capture escalate acknowledge five\n", "line 1: bad number 'five': expected a whole number of seconds\n"),
            ("5\n", "line 1: missing command after the time\n"),
            ("0 protect a terminate 5\n1 protect a acknowledge 1\n", "line 2: protection a is already open\n"),
            ("0 unprotect a\n", "line 1: no open protection named a\n"),
            ("0 protect a terminate\n", "line 1: 'protect' takes a name, a flow and seconds, then optionally a context kind, a quoted detail and the operation's id: protect NAME terminate|acknowledge N [KIND [\"DETAIL\"] [operation \"ID\"]]\n"),
            ("0 protect a terminate 5 paymnet\n", "line 1: unknown context kind 'paymnet': did you mean payment?\n"),
            ("0 protect a terminate 5 payment \"To M.\" more\n", "line 1: unexpected 'more' after 'protect a terminate 5 payment To M.'; 'protect' takes a name, a flow and seconds, then optionally a context kind, a quoted detail and the operation's id: protect NAME terminate|acknowledge N [KIND [\"DETAIL\"] [operation \"ID\"]]\n"),
            ("0 protect a terminate 5 payment \"To M.\" operation\n", "line 1: unexpected 'operation' after 'protect a terminate 5 payment To M.'; 'protect' takes a name, a flow and seconds, then optionally a context kind, a quoted detail and the operation's id: protect NAME terminate|acknowledge N [KIND [\"DETAIL\"] [operation \"ID\"]]\n"),
            ("0 protect a terminate 5 payment \"To M.\" operaton \"TX-1\"\n", "line 1: unexpected 'operaton TX-1' after 'protect a terminate 5 payment To M.'; 'protect' takes a name, a flow and seconds, then optionally a context kind, a quoted detail and the operation's id: protect NAME terminate|acknowledge N [KIND [\"DETAIL\"] [operation \"ID\"]]\n"),
            ("0 protect a terminate 5 payment \"To M.\" operation \"TX-1\" more\n", "line 1: unexpected 'more' after 'protect a terminate 5 payment To M. operation TX-1'; 'protect' takes a name, a flow and seconds, then optionally a context kind, a quoted detail and the operation's id: protect NAME terminate|acknowledge N [KIND [\"DETAIL\"] [operation \"ID\"]]\n"),
            ("0 protect a terminate 5 payment \"To \\\"M.\n", "line 1: unclosed quote: a quoted detail ends with \" (write \\\" for a quote inside it)\n"),
            ("0 protect a sometimes 5\n", "line 1: unknown flow 'sometimes': expected terminate or acknowledge\n"),
            ("0 detection maybe\n", "line 1: unknown detection setting 'maybe': expected on or off\n"),
            ("0 start observe 5\n", "line 1: unknown flow 'observe': expected terminate or acknowledge\n"),
            ("0 exempt\n", "line 1: 'exempt' takes one call ID\n"),
            ("0 wait\n1.0000000001 wait\n", "line 2: bad time '1.0000000001': expected seconds such as 3 or 1.5 (0 to 9000000000, at most 9 decimals)\n"),
            ("99999999999 wait\n", "line 1: bad time '99999999999': expected seconds such as 3 or 1.5 (0 to 9000000000, at most 9 decimals)\n"),
        ])
        func badScenario(text: String, message: String) async throws {
            let result = try await runTool(["simulate", "-"], input: text)
            #expect(result.status == 2)
            #expect(result.stdout == "")
            #expect(result.stderr == message)
        }

        @Test("--language shows the translated dialog with the language's plural forms", arguments: [
            ("ru", [25: "Приложение закроется через 25 секунд.", 22: "Приложение закроется через 22 секунды.", 21: "Приложение закроется через 21 секунду."]),
            ("pl", [25: "Aplikacja zostanie zamknięta za 25 sekund.", 22: "Aplikacja zostanie zamknięta za 22 sekundy.", 1: "Aplikacja zostanie zamknięta za 1 sekundę."]),
            ("cs", [3: "Aplikace se zavře za 3 sekundy.", 5: "Aplikace se zavře za 5 sekund.", 1: "Aplikace se zavře za 1 sekundu."]),
            ("hr", [21: "Aplikacija će se zatvoriti za 21 sekundu.", 11: "Aplikacija će se zatvoriti za 11 sekundi."]),
            ("ro", [20: "Aplicația se va închide în 20 de secunde.", 19: "Aplicația se va închide în 19 secunde."]),
            ("de", [1: "Die App wird in 1 Sekunde geschlossen.", 0: "Die App wird in 0 Sekunden geschlossen."]),
            ("no", [1: "Appen lukkes om 1 sekund.", 2: "Appen lukkes om 2 sekunder."]),
            // The reviewer's wording, right in Brazil and in Portugal; the plural rules differ at 0.
            ("pt-BR", [0: "Encerramento em 0 segundo.", 2: "Encerramento em 2 segundos."]),
            ("pt-PT", [0: "Encerramento em 0 segundos.", 1: "Encerramento em 1 segundo.", 2: "Encerramento em 2 segundos."]),
        ])
        func language(code: String, expected: [Int: String]) async throws {
            let result = try await runTool(["simulate", "-", "--language", code], input: "0 start terminate 25\n0 incoming A\n30 wait\n")
            #expect(result.status == 0)
            var countdowns: [Int: String] = [:]
            for line in result.stdout.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                if object["kind"] as? String == "alert", let remaining = object["remaining"] as? Int {
                    countdowns[remaining] = object["countdown"] as? String
                }
            }
            for (remaining, text) in expected {
                #expect(countdowns[remaining] == text)
            }
        }

        @Test("Every shipped language code gives its own title and a countdown with the number", arguments: [
            "en", "de", "fr", "es", "it", "pt", "nl", "ru", "pl", "tr", "bg", "cs", "da", "el", "fi", "hr", "hu", "nb", "ro", "sk", "sv", "uk",
        ])
        func everyLanguage(code: String) async throws {
            let result = try await runTool(["simulate", "-", "--language", code], input: "0 start acknowledge 2\n0 incoming A\n5 wait\n")
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 4)
            let strings = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Sources/hnb/Resources/\(code).lproj/Localizable.strings"), encoding: .utf8)
            let alerts = try lines.compactMap { line -> [String: Any]? in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return object["kind"] as? String == "alert" ? object : nil
            }
            #expect(alerts.count == 3)
            for alert in alerts {
                let title = try #require(alert["title"] as? String)
                #expect(strings.contains("\"call_monitor_alert_title\" = \"\(title)\";"))
                if let countdown = alert["countdown"] as? String, let remaining = alert["remaining"] as? Int {
                    #expect(countdown.contains(String(remaining)))
                    #expect(!countdown.contains("%"))
                }
            }
            #expect(alerts.last?["button"] is String)
        }

        @Test("An unknown language is refused")
        func unknownLanguage() async throws {
            let result = try await runTool(["simulate", "-", "--language", "xx"], input: "0 wait\n")
            #expect(result.status == 2)
            #expect(result.stdout == "")
            #expect(result.stderr.hasPrefix("callmonitor: language 'xx' is not available"))
        }

        @Test("A syntax error after the exit still fails the scenario, and prints no transcript")
        func errorAfterExit() async throws {
            let result = try await runTool(["simulate", "-"], input: "0 start terminate 1\n0 incoming A\n5 wait\n6 bogus\n")
            #expect(result.status == 2)
            #expect(result.stdout == "")
            #expect(result.stderr == "line 4: unknown command 'bogus'\n")
        }

        @Test("A scenario that fails after hundreds of kilobytes of transcript prints only the error: a bad call command or protection name", arguments: [
            ("0 start acknowledge 3000\n0 incoming A\n3000 wait\n", 3002, "3001 connect B\n", "line 4: unknown call B\n"),
            ("0 start acknowledge 3000\n0 incoming A\n3000 wait\n", 3002, "3001 unprotect P\n", "line 4: no open protection named P\n"),
            ("0 protect P acknowledge 3000\n0 incoming A\n3000 wait\n", 3002, "3001 protect P terminate 3\n", "line 4: protection P is already open\n"),
            ("0 protect P acknowledge 3000\n0 incoming A\n3000 unprotect P\n", 3004, "3001 unprotect P\n", "line 4: no open protection named P\n"),
        ])
        func errorAfterLongTranscript(before: String, lines: Int, failing: String, message: String) async throws {
            // Without the failing line the run prints the ringing, 3001 frames of the countdown
            // (and, ended, the dismissal and the outcome): hundreds of kilobytes, well past the
            // writer's 64 KB blocks, so a run that streamed before failing would show it.
            let good = try await runTool(["simulate", "-"], input: before)
            #expect(good.status == 0)
            #expect(good.stdout.split(separator: "\n").count == lines)
            #expect(good.stdout.utf8.count > 10 * 65_536, "\(good.stdout.utf8.count) bytes")
            let result = try await runTool(["simulate", "-"], input: before + failing)
            #expect(result.status == 2)
            // Counted, not compared: a failure would otherwise print the whole transcript.
            #expect(result.stdout.utf8.count == 0, "stdout begins \(result.stdout.prefix { $0 != "\n" })")
            #expect(result.stderr == message)
        }

        @Test("Usage errors exit 2 with a message", arguments: [
            ["simulate"], ["simulate", "a", "b"], ["simulate", "/nonexistent/file"], ["frobnicate"], [],
            ["simulate", "-", "--language"], ["simulate", "-", "--colour"], ["demo", "--speed", "0"], ["demo", "--seconds", "-1"],
            ["demo", "--flow", "sideways"],
        ])
        func usageErrors(arguments: [String]) async throws {
            let result = try await runTool(arguments)
            #expect(result.status == 2)
            #expect(result.stdout == "")
            #expect(!result.stderr.isEmpty)
        }
}

}

extension CommandLineTests {
    @Suite("callmonitor help, version and suggestions")
    struct HelpTests {
        @Test("Every subcommand answers --help on stdout with status 0: usage, options with ranges", arguments: [
            (["simulate", "--help"], "usage: callmonitor simulate FILE|- [--language CODE] [--echo] [--record FILE]",
             ["  --echo ", "  --language CODE ", "  start terminate N | start acknowledge N ", "  delegate custom | delegate none | delegate release",
              "tap (accepted: true|false)", "Tests/callmonitorTests/Scenarios/*.scenario"]),
            (["demo", "--help"], "usage: callmonitor demo [--flow terminate|acknowledge] [--seconds N] [--speed X] [--language CODE] [--interactive] [--record FILE]",
             ["--seconds N                    the countdown or the acknowledge delay, 0 to 3600", "--speed X                      play X times faster, 0.1 to 1000",
              "interactive keys:", "  i   a new incoming call ", "  t   tap the dialog's button", "  q   quit"]),
            (["bench", "--help"], "usage: callmonitor bench [--quick]", ["  --quick   a few-second smoke run", "BENCH {...}"]),
            (["help", "simulate"], "usage: callmonitor simulate FILE|- [--language CODE] [--echo] [--record FILE]", ["  --echo "]),
            (["demo", "--seconds", "9", "-h"], "usage: callmonitor demo [--flow terminate|acknowledge] [--seconds N] [--speed X] [--language CODE] [--interactive] [--record FILE]", []),
            (["help"], "usage:", ["  callmonitor --version"]),
        ])
        func help(arguments: [String], firstLine: String, contains: [String]) async throws {
            let result = try await runTool(arguments)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(result.stdout.split(separator: "\n").first.map(String.init) == firstLine)
            for text in contains {
                #expect(result.stdout.contains(text), "missing: \(text)")
            }
        }

        @Test("demo --help says the narration stays in English while --language changes the dialog")
        func demoLanguageHelp() async throws {
            let result = try await runTool(["demo", "--help"])
            #expect(result.status == 0)
            let expected = """
                  --language CODE                language of the dialog: en de fr es it pt nl ru pl tr bg cs da el fi hr hu nb ro sk sv uk
                                                 (only the dialog: it is what the user sees; the narration
                                                 around it explains the library to you and stays in English)

                """
            #expect(result.stdout.contains(expected))
        }

        @Test("--version prints the version alone")
        func version() async throws {
            let result = try await runTool(["--version"])
            #expect(result.status == 0)
            #expect(result.stdout == "callmonitor 0.1.0\n")
            #expect(result.stderr == "")
        }

        @Test("A misspelt command or option names the nearest one, exits 2, prints nothing on stdout", arguments: [
            (["simulte", "x"], "callmonitor: unknown command 'simulte': did you mean simulate?"),
            (["simulate", "-", "--langauge", "de"], "callmonitor: unknown option --langauge: did you mean --language?"),
            (["demo", "--interactiv"], "callmonitor: unknown option --interactiv: did you mean --interactive?"),
            (["demo", "--flow", "terminat"], "callmonitor: --flow must be terminate or acknowledge: did you mean terminate?"),
            (["demo", "--flow", "ack"], "callmonitor: --flow must be terminate or acknowledge: did you mean acknowledge?"),
            (["demo", "--flow", "term"], "callmonitor: --flow must be terminate or acknowledge: did you mean terminate?"),
            (["bench", "--quik"], "callmonitor: unknown option --quik: did you mean --quick?"),
            (["frobnicate"], "callmonitor: unknown command 'frobnicate'"),
            (["help", "demon"], "callmonitor: no help for 'demon': did you mean demo?"),
        ])
        func suggestion(arguments: [String], firstLine: String) async throws {
            let result = try await runTool(arguments)
            #expect(result.status == 2)
            #expect(result.stdout == "")
            #expect(result.stderr.split(separator: "\n").first.map(String.init) == firstLine)
        }

        @Test("A misspelt scenario word names the nearest one", arguments: [
            ("0 start terminate 5\n1 incomming A\n", "line 2: unknown command 'incomming': did you mean incoming?\n"),
            ("0 start acknowlege 5\n", "line 1: unknown flow 'acknowlege': did you mean acknowledge?\n"),
            ("0 delegate custon\n", "line 1: unknown delegate action 'custon': did you mean custom?\n"),
            ("0 callback of\n", "line 1: unknown callback action 'of': did you mean on?\n"),
            ("0 start ack 5\n", "line 1: unknown flow 'ack': did you mean acknowledge?\n"),
        ])
        func scenarioSuggestion(text: String, message: String) async throws {
            let result = try await runTool(["simulate", "-"], input: text)
            #expect(result.status == 2)
            #expect(result.stdout == "")
            #expect(result.stderr == message)
        }
    }

    @Suite("callmonitor simulate: debugging aids")
    struct SimulateDebugTests {
        @Test("A tap is in the transcript, before its effects, with whether the monitor accepted it")
        func tapKind() async throws {
            let result = try await runTool(["simulate", "-"], input: "0 start acknowledge 2\n0 delegate custom\n1 incoming A\n1.5 tap\n3 tap\n3 tap\n")
            #expect(result.status == 0)
            #expect(result.stdout.split(separator: "\n").map(String.init) == [
                #"{"t":1,"kind":"event","event":"ringing"}"#,
                #"{"t":1,"kind":"detect","flow":"acknowledge","initialRemaining":2,"delegate":1}"#,
                #"{"t":1.5,"kind":"tap","accepted":false}"#,
                #"{"t":2,"kind":"tick","remaining":1,"delegate":1}"#,
                #"{"t":3,"kind":"tick","remaining":0,"delegate":1}"#,
                #"{"t":3,"kind":"tap","accepted":true}"#,
                #"{"t":3,"kind":"end","delegate":1}"#,
                #"{"t":3,"kind":"outcome","outcome":{"coaching":[],"endedAt":3000000000,"endedDate":1767225603,"ending":"acknowledged","flow":"acknowledge","id":1,"language":"en","lowestRemaining":0,"policySource":"code","policyVersion":null,"presentations":[{"at":1000000000,"remaining":2,"surface":"delegate"}],"schemaVersion":2,"seconds":2,"shown":[{"frames":[{"at":1000000000,"button":null,"contextKind":null,"countdown":null,"detail":null,"kindLine":null,"message":null,"remaining":2,"title":null,"verdict":"unknown","verdictLine":null},{"at":2000000000,"button":null,"contextKind":null,"countdown":null,"detail":null,"kindLine":null,"message":null,"remaining":1,"title":null,"verdict":"unknown","verdictLine":null},{"at":3000000000,"button":null,"contextKind":null,"countdown":null,"detail":null,"kindLine":null,"message":null,"remaining":0,"title":null,"verdict":"unknown","verdictLine":null}],"framesOmitted":0,"surface":"delegate"}],"startedAt":1000000000,"startedDate":1767225601,"verdict":"unknown","verdictArrivedAt":null,"wasScreenCaptured":false}}"#,
                #"{"t":3,"kind":"tap","accepted":false}"#,
            ])
        }

        @Test("A tap with no dialog and no delegate is refused, and a built-in Close App tap exits")
        func tapBuiltIn() async throws {
            let result = try await runTool(["simulate", "-"], input: "0 tap\n0 start terminate 9\n1 incoming A\n2 tap\n")
            #expect(result.stdout.split(separator: "\n").map(String.init) == [
                #"{"t":0,"kind":"tap","accepted":false}"#,
                #"{"t":1,"kind":"event","event":"ringing"}"#,
                #"{"t":1,"kind":"alert","flow":"terminate","title":"Security Policy","message":"Application access is disabled during active calls for your protection.","countdown":"App will close in 9 seconds.","button":"Close App","remaining":9,"verdict":null,"context":null}"#,
                #"{"t":2,"kind":"alert","flow":"terminate","title":"Security Policy","message":"Application access is disabled during active calls for your protection.","countdown":"App will close in 8 seconds.","button":"Close App","remaining":8,"verdict":null,"context":null}"#,
                #"{"t":2,"kind":"tap","accepted":true}"#,
                #"{"t":2,"kind":"outcome","outcome":{"coaching":[],"endedAt":2000000000,"endedDate":1767225602,"ending":"forceExit","flow":"terminate","id":1,"language":"en","lowestRemaining":8,"policySource":"code","policyVersion":null,"presentations":[{"at":1000000000,"remaining":9,"surface":"builtInDialog"}],"schemaVersion":2,"seconds":9,"shown":[{"frames":[{"at":1000000000,"button":"Close App","contextKind":null,"countdown":"App will close in 9 seconds.","detail":null,"kindLine":null,"message":"Application access is disabled during active calls for your protection.","remaining":9,"title":"Security Policy","verdict":"unknown","verdictLine":null},{"at":2000000000,"button":"Close App","contextKind":null,"countdown":"App will close in 8 seconds.","detail":null,"kindLine":null,"message":"Application access is disabled during active calls for your protection.","remaining":8,"title":"Security Policy","verdict":"unknown","verdictLine":null}],"framesOmitted":0,"surface":"builtInDialog"}],"startedAt":1000000000,"startedDate":1767225601,"verdict":"unknown","verdictArrivedAt":null,"wasScreenCaptured":false}}"#,
                #"{"t":2,"kind":"exit","code":0}"#,
            ])
        }

        @Test("--echo writes each command line, as written, before what it causes; comments and blank lines are not commands")
        func echo() async throws {
            let result = try await runTool(["simulate", "-", "--echo"], input: "# story\n0 start terminate 1\n\n0.5 incoming A  # rings\r\n9 wait\n")
            #expect(result.status == 0)
            #expect(result.stdout.split(separator: "\n").map(String.init) == [
                #"{"t":0,"kind":"input","line":2,"text":"0 start terminate 1"}"#,
                #"{"t":0.5,"kind":"input","line":4,"text":"0.5 incoming A  # rings"}"#,
                #"{"t":0.5,"kind":"event","event":"ringing"}"#,
                #"{"t":0.5,"kind":"alert","flow":"terminate","title":"Security Policy","message":"Application access is disabled during active calls for your protection.","countdown":"App will close in 1 second.","button":"Close App","remaining":1,"verdict":null,"context":null}"#,
                #"{"t":1.5,"kind":"alert","flow":"terminate","title":"Security Policy","message":"Application access is disabled during active calls for your protection.","countdown":"App will close in 0 seconds.","button":"Close App","remaining":0,"verdict":null,"context":null}"#,
                #"{"t":1.5,"kind":"outcome","outcome":{"coaching":[],"endedAt":1500000000,"endedDate":1767225601.5,"ending":"forceExit","flow":"terminate","id":1,"language":"en","lowestRemaining":0,"policySource":"code","policyVersion":null,"presentations":[{"at":500000000,"remaining":1,"surface":"builtInDialog"}],"schemaVersion":2,"seconds":1,"shown":[{"frames":[{"at":500000000,"button":"Close App","contextKind":null,"countdown":"App will close in 1 second.","detail":null,"kindLine":null,"message":"Application access is disabled during active calls for your protection.","remaining":1,"title":"Security Policy","verdict":"unknown","verdictLine":null},{"at":1500000000,"button":"Close App","contextKind":null,"countdown":"App will close in 0 seconds.","detail":null,"kindLine":null,"message":"Application access is disabled during active calls for your protection.","remaining":0,"title":"Security Policy","verdict":"unknown","verdictLine":null}],"framesOmitted":0,"surface":"builtInDialog"}],"startedAt":500000000,"startedDate":1767225600.5,"verdict":"unknown","verdictArrivedAt":null,"wasScreenCaptured":false}}"#,
                #"{"t":1.5,"kind":"exit","code":0}"#,
            ])
        }

        @Test("Errors in a file name the file and line; an empty scenario warns on stderr and succeeds")
        func fileNameAndEmpty() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("callmonitor-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let bad = directory.appendingPathComponent("bad.txt")
            try "0 start terminate 5\n1 ring A\n".write(to: bad, atomically: true, encoding: .utf8)
            let failed = try await runTool(["simulate", bad.path])
            #expect(failed.status == 2)
            #expect(failed.stdout == "")
            #expect(failed.stderr == "\(bad.path):2: unknown command 'ring'\n")
            let empty = directory.appendingPathComponent("empty.scenario")
            try "# only a comment\n\n".write(to: empty, atomically: true, encoding: .utf8)
            let warned = try await runTool(["simulate", empty.path])
            #expect(warned.status == 0)
            #expect(warned.stdout == "")
            #expect(warned.stderr == "callmonitor: warning: \(empty.path) has no commands; the transcript is empty\n")
            let stdin = try await runTool(["simulate", "-"], input: "")
            #expect(stdin.stderr == "callmonitor: warning: standard input has no commands; the transcript is empty\n")
        }
    }
}

extension CommandLineTests {
    @Suite("callmonitor demo")
    struct DemoTests {
        @Test("The terminate story finishes by itself, shows the dialog and countdown, and uses no escape codes in a pipe")
        func terminateStory() async throws {
            // Issue 37: no wall-clock bound on how long it took (a loaded machine can miss any);
            // that it finishes by itself is shown by this call returning. How fast `--speed`
            // makes it is a figure of the machine, for a person to watch.
            let result = try await runTool(["demo", "--speed", "10"])
            #expect(result.status == 0)
            #expect(!result.stdout.contains("\u{1B}"))
            for text in ["| Security Policy", "App will close in 5 seconds.", "App will close in 0 seconds.", "[ Close App ]",
                         "(dialog dismissed)", "callback: .ringing", "callback: .ended", "force-exited with exit(0)"] {
                #expect(result.stdout.contains(text), "missing: \(text)")
            }
        }

        @Test("The acknowledge story shows the delay, the button and the acknowledgement, and never exits")
        func acknowledgeStory() async throws {
            let result = try await runTool(["demo", "--speed", "20", "--flow", "acknowledge", "--seconds", "3"])
            #expect(result.status == 0)
            for text in ["Acknowledge in 3 seconds.", "[ Acknowledge ]", "The user taps Acknowledge", "End of the demo."] {
                #expect(result.stdout.contains(text), "missing: \(text)")
            }
            #expect(!result.stdout.contains("force-exited"))
        }

        @Test("Interactive mode reads keys from a pipe too")
        func interactiveFromPipe() async throws {
            let result = try await runTool(["demo", "--interactive", "--seconds", "30"], input: "iahq")
            #expect(result.status == 0)
            for text in ["call 1 rings.", "call 1 connects.", "call 1 ends.", "(dialog dismissed)", "Bye."] {
                #expect(result.stdout.contains(text), "missing: \(text)")
            }
        }
}

}

let tmuxPath: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

extension CommandLineTests {
    @Suite("callmonitor demo in a terminal")
    struct InteractiveTerminalTests {
        /// Runs tmux on a private socket so the test never touches a user's sessions.
        struct Tmux {
            let socket = "callmonitor-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

            @discardableResult
            func run(_ arguments: [String]) async throws -> String {
                try await runProcess(URL(fileURLWithPath: tmuxPath ?? "tmux"), ["-L", socket] + arguments).stdout
            }

            /// Starts the tmux server with a session running `command`. Not through Foundation's
            /// Process: the server outlives the client and would inherit, and hold open, the
            /// descriptors Process uses to notice the client's exit. posix_spawn with every descriptor
            /// above 2 closed leaves the server nothing of ours.
            func startSession(_ command: String, columns: Int = 120, rows: Int = 40) async throws {
                let argv = [tmuxPath ?? "tmux", "-L", socket, "new-session", "-d", "-s", "demo", "-x", String(columns), "-y", String(rows), command]
                let status = await withCheckedContinuation { continuation in
                    DispatchQueue.global().async { continuation.resume(returning: spawnClean(argv)) }
                }
                #expect(status == 0, "tmux new-session failed with status \(status)")
            }

            func screen() async throws -> String { try await run(["capture-pane", "-t", "demo", "-p"]) }

            /// Polls the screen until `predicate` holds or the tests' patience runs out.
            func waitFor(_ what: String, _ predicate: (String) -> Bool) async throws -> String {
                let deadline = Date().addingTimeInterval(Patience.seconds)
                var last = ""
                while Date() < deadline {
                    last = try await screen()
                    if predicate(last) { return last }
                    try await Task.sleep(nanoseconds: 50_000_000)
                }
                Issue.record("timed out waiting for \(what); screen was:\n\(last)")
                return last
            }
        }

        @Test("A person drives the demo with keys: incoming, answer, hang up, tap, quit", .enabled(if: tmuxPath != nil, "tmux is not installed"))
        func drivenByKeys() async throws {
            let tmux = Tmux()
        
            try await tmux.startSession("\(toolURL.path) demo --interactive --seconds 30; echo DEMO-EXITED-$?; sleep 30")
            _ = try await tmux.waitFor("the key legend") { $0.contains("[i] incoming") }
            try await tmux.run(["send-keys", "-t", "demo", "i"])
            let ringing = try await tmux.waitFor("the dialog") { $0.contains("App will close in 30 seconds.") }
            #expect(ringing.contains("Security Policy"))
            #expect(ringing.contains("[ Close App ]"))
            #expect(ringing.contains("calls: ringing"))
            try await tmux.run(["send-keys", "-t", "demo", "a"])
            _ = try await tmux.waitFor("the call to connect") { $0.contains("calls: started") }
            try await tmux.run(["send-keys", "-t", "demo", "h"])
            let ended = try await tmux.waitFor("the dialog to go") { $0.contains("(no security dialog on screen)") }
            #expect(ended.contains("calls: ended"))
            try await tmux.run(["send-keys", "-t", "demo", "i"])
            _ = try await tmux.waitFor("the dialog again") { $0.contains("[ Close App ]") }
            try await tmux.run(["send-keys", "-t", "demo", "t"])
            let exited = try await tmux.waitFor("the exit") { $0.contains("DEMO-EXITED-0") }
            #expect(exited.contains("force-exited with exit(0)"))
            try await tmux.run(["kill-server"])
        }

        /// What the dialog says in each language the terminal tests use (30-second terminate).
        static let dialogs: [String: (title: String, message: String, countdown: String, button: String)] = [
            "en": ("Security Policy", "Application access is disabled during active calls for your protection.",
                   "App will close in 30 seconds.", "Close App"),
            "de": ("Sicherheitsrichtlinie", "Zu Ihrem Schutz ist der Zugriff auf die App während eines aktiven Anrufs gesperrt.",
                   "Die App wird in 30 Sekunden geschlossen.", "App schließen"),
            "ru": ("Политика безопасности", "В целях вашей защиты доступ к приложению во время звонка заблокирован.",
                   "Приложение закроется через 30 секунд.", "Закрыть приложение"),
        ]

        /// Checks one captured screen: the box is whole and fits, the dialog's text is all there
        /// (wrapped at spaces only), and the header is on the top lines.
        static func checkFrame(_ screen: String, columns: Int, language: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let dialog = try #require(dialogs[language])
            #expect(lines.first?.hasPrefix("CallMonitor demo - monitoring on") == true, "header not on the top line:\n\(screen)", sourceLocation: sourceLocation)
            #expect(lines.dropFirst().first?.hasPrefix("calls: ") == true, "status not on the second line:\n\(screen)", sourceLocation: sourceLocation)
            for line in lines {
                #expect(line.count <= columns, "wider than the terminal: \(line)", sourceLocation: sourceLocation)
                #expect(line.trimmingCharacters(in: .whitespaces) != "|", "a border wrapped onto its own line", sourceLocation: sourceLocation)
            }
            let rules = lines.indices.filter { lines[$0].hasPrefix("+-") }
            try #require(rules.count == 2, "expected one box:\n\(screen)", sourceLocation: sourceLocation)
            let rule = lines[rules[0]]
            #expect(lines[rules[1]] == rule, sourceLocation: sourceLocation)
            #expect(rule.count <= columns && rule.hasSuffix("-+"), sourceLocation: sourceLocation)
            let body = lines[(rules[0] + 1)..<rules[1]]
            for row in body {
                #expect(row.hasPrefix("| ") && row.hasSuffix(" |") && row.count == rule.count, "broken box row: \(row)", sourceLocation: sourceLocation)
            }
            let texts = body.map { String($0.dropFirst(2).dropLast(2)).trimmingCharacters(in: .whitespaces) }
            #expect(texts.first == dialog.title, sourceLocation: sourceLocation)
            #expect(texts.last == "[ \(dialog.button) ]", sourceLocation: sourceLocation)
            #expect(texts.dropLast().last == dialog.countdown, sourceLocation: sourceLocation)
            // Joining the message's rows with single spaces gives it back exactly only when every
            // break fell on a space.
            #expect(texts.dropFirst().dropLast(2).joined(separator: " ") == dialog.message, sourceLocation: sourceLocation)
        }

        @Test("The demo fits the terminal, redraws in place and keeps its header, in three languages", .enabled(if: tmuxPath != nil, "tmux is not installed"),
              arguments: [(80, 24), (60, 20)], ["en", "de", "ru"])
        func layout(size: (Int, Int), language: String) async throws {
            let tmux = Tmux()
            // The server is stopped however the checks end, or its `sleep 30` would outlive the test.
            do { try await layoutSteps(tmux, size: size, language: language) } catch { _ = try? await tmux.run(["kill-server"]); throw error }
            try await tmux.run(["kill-server"])
        }

        func layoutSteps(_ tmux: Tmux, size: (Int, Int), language: String) async throws {
            let (columns, rows) = size
            try await tmux.startSession("\(toolURL.path) demo --interactive --seconds 30 --language \(language); echo DEMO-EXITED-$?; sleep 30",
                                        columns: columns, rows: rows)
            _ = try await tmux.waitFor("the key legend") { $0.contains("[i] incoming") }
            try await tmux.run(["send-keys", "-t", "demo", "i"])
            let dialog = try #require(Self.dialogs[language])
            let ringing = try await tmux.waitFor("the dialog") { $0.contains(dialog.countdown) }
            try Self.checkFrame(ringing, columns: columns, language: language)
            // Enough narration to fill the screen several times over: the header must stay.
            try await tmux.run(["send-keys", "-t", "demo", "a"] + Array(repeating: "b", count: 21))
            let busy = try await tmux.waitFor("the app in the background") { $0.contains("app: background") }
            try Self.checkFrame(busy, columns: columns, language: language)
            // Sentences wrap at spaces: the newest one reads back whole when its rows are joined.
            let joined = busy.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(joined.contains("The app goes to the background; the dialog stays and its countdown keeps running."))
            // Every frame overwrote the one before: nothing went into the scrollback.
            let history = try await tmux.run(["display-message", "-p", "-t", "demo", "#{history_size}"])
            #expect(history == "0\n")
            try await tmux.run(["send-keys", "-t", "demo", "t"])
            let exited = try await tmux.waitFor("the exit") { $0.contains("DEMO-EXITED-0") }
            let exitJoined = exited.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(exitJoined.contains("The user taps \(dialog.button) while a call is live: the app is force-exited with exit(0)."))
            #expect(!exited.contains("The countdown reached 0"))
        }

        @Test("Interactive narration says what happened: no countdown talk without a call, the status follows b", .enabled(if: tmuxPath != nil, "tmux is not installed"))
        func narration() async throws {
            let tmux = Tmux()
            do { try await narrationSteps(tmux) } catch { _ = try? await tmux.run(["kill-server"]); throw error }
            try await tmux.run(["kill-server"])
        }

        func narrationSteps(_ tmux: Tmux) async throws {
            try await tmux.startSession("\(toolURL.path) demo --interactive --flow acknowledge --seconds 0; echo DEMO-EXITED-$?; sleep 30", columns: 80, rows: 24)
            _ = try await tmux.waitFor("the key legend") { $0.contains("[i] incoming") }
            try await tmux.run(["send-keys", "-t", "demo", "b"])
            let background = try await tmux.waitFor("the background") { $0.contains("The app goes to the background.") }
            #expect(background.contains("app: background"))
            #expect(!background.contains("countdown"))
            try await tmux.run(["send-keys", "-t", "demo", "b", "i", "t"])
            let acknowledged = try await tmux.waitFor("the acknowledgement") { $0.contains("the monitor accepts it") }
            let joined = acknowledged.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(joined.contains("The user taps Acknowledge: the monitor accepts it and the warning stays away for the rest of this call."))
            #expect(acknowledged.contains("app: foreground"))
            try await tmux.run(["send-keys", "-t", "demo", "q"])
            _ = try await tmux.waitFor("the exit") { $0.contains("DEMO-EXITED-0") }
        }
}

}

/// Runs `argv` with standard input, output and error on /dev/null and every other descriptor
/// closed, waits for it, and returns its exit status (-1 if it could not start).
func spawnClean(_ argv: [String]) -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in 0...2 {
        posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for name in open {
        if let fd = Int32(name), fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
    }
    var cArgs = argv.map { strdup($0) } + [nil]
    defer { for pointer in cArgs { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, argv[0], &actions, nil, &cArgs, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status >> 8) & 0xff
}

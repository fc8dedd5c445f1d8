// Runs the built `callmonitor` executable, as a user would: every scenario against its expected
// transcript, every class of bad scenario, the demo in a pipe, and the interactive demo in tmux.

import Dispatch
import Foundation
import Testing

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

/// Every test here starts processes. They run one at a time so that no child can inherit a pipe
/// another test is waiting on (a leaked pipe end would keep that test waiting for ever).
@Suite("callmonitor command", .serialized)
struct CommandLineTests {}

extension CommandLineTests {
    @Suite("callmonitor simulate")
    struct SimulateTests {
        @Test("Every behaviour rule has scenarios, and every scenario has its transcript")
        func coverage() async throws {
            let names = scenarioNames()
            #expect(names.count >= 20)
            for rule in Array(1...14) + [16, 17] {
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
                #"{"t":0.5,"kind":"alert","flow":"terminate","title":"Security Policy","message":"Application access is disabled during active calls for your protection.","countdown":"App will close in 1 second.","button":"Close App","remaining":1}"#,
                #"{"t":1.5,"kind":"alert","flow":"terminate","title":"Security Policy","message":"Application access is disabled during active calls for your protection.","countdown":"App will close in 0 seconds.","button":"Close App","remaining":0}"#,
                #"{"t":1.5,"kind":"outcome","ending":"forceExit","flow":"terminate","startedAt":0.5,"lowestRemaining":0,"shownOn":"builtInDialog","captured":false}"#,
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

        @Test("Hours of virtual time run in well under a second")
        func longScenario() async throws {
            let started = Date()
            let result = try await runTool(["simulate", "-"], input: "0 start acknowledge 30\n1 incoming A\n1 connect A\n36000 end A\n")
            #expect(result.status == 0)
            // 35 lines of events, frames and the dismissal, plus the outcome when the call ends (rule 16).
            #expect(result.stdout.split(separator: "\n").count == 36)
            #expect(Date().timeIntervalSince(started) < 5, "a 10-hour scenario should take a fraction of a second")
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
            ("0 tap now\n", "line 1: 'tap' takes no arguments\n"),
            ("0 delegate maybe\n", "line 1: unknown delegate action 'maybe': expected custom, none or release\n"),
            ("0 callback sometimes\n", "line 1: unknown callback action 'sometimes': expected on or off\n"),
            ("0 capture maybe\n", "line 1: 'capture' takes on, off, rule on or rule off\n"),
            ("0 capture rule\n", "line 1: 'capture' takes on, off, rule on or rule off\n"),
            ("5\n", "line 1: missing command after the time\n"),
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
            ("pt-BR", [0: "O aplicativo será fechado em 0 segundo.", 2: "O aplicativo será fechado em 2 segundos."]),
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
    @Suite("callmonitor demo")
    struct DemoTests {
        @Test("The terminate story finishes by itself, shows the dialog and countdown, and uses no escape codes in a pipe")
        func terminateStory() async throws {
            let started = Date()
            let result = try await runTool(["demo", "--speed", "10"])
            #expect(result.status == 0)
            #expect(Date().timeIntervalSince(started) < 10)
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
            func startSession(_ command: String) async throws {
                let argv = [tmuxPath ?? "tmux", "-L", socket, "new-session", "-d", "-s", "demo", "-x", "120", "-y", "40", command]
                let status = await withCheckedContinuation { continuation in
                    DispatchQueue.global().async { continuation.resume(returning: spawnClean(argv)) }
                }
                #expect(status == 0, "tmux new-session failed with status \(status)")
            }

            func screen() async throws -> String { try await run(["capture-pane", "-t", "demo", "-p"]) }

            /// Polls the screen until `predicate` holds or 10 seconds pass.
            func waitFor(_ what: String, _ predicate: (String) -> Bool) async throws -> String {
                let deadline = Date().addingTimeInterval(10)
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

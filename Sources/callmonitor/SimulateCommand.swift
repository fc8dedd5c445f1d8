// `callmonitor simulate`: its options and help, and the run: read the scenario, check it, stream
// the transcript of a Simulation (Simulation.swift) to standard output.

import ScenarioLanguage
import hnb
import hnbPolicy
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// What `simulate`'s options say.
struct SimulateOptions: CommandOptions {
    /// The built-in dialog's texts (`--language`).
    var strings: CallMonitorStrings = .english
    /// Each scenario line goes into the transcript before it runs (`--echo`).
    var echo = false
    /// Where the simulated monitor records its session (`--record`), if anywhere.
    var record: String?
}

struct SimulateCommand: ToolCommand {
    let name = "simulate"
    let operands: String? = "FILE|-"

    var options: OptionTable<SimulateOptions> {
        OptionTable(words: .one("simulate takes one FILE (or - for standard input)"), [
            .language("""
                language of the built-in dialog: \(Languages.available.joined(separator: " "))
                (a region such as pt-BR or de-AT picks its language; default en)
                """) { $0.strings = $1 },
            .flag("--echo", "write each scenario line into the transcript, kind \"input\", before it runs") { $0.echo = true },
            .text("--record", "FILE", "record the simulated monitor's inputs and outputs to FILE, as an app's\nstartRecording(to:) does (replay it with 'callmonitor replay FILE --check')") {
                $0.record = $1
            },
        ])
    }

    let summary = """
        Runs a scenario (one 'TIME COMMAND [ARGS]' a line) against a real CallMonitor on a
        virtual clock and prints the transcript as JSON Lines. Exit status 2 on a bad scenario.
        """

    let about = """
        Runs a scenario against a real CallMonitor on a virtual clock (hours take milliseconds) and
        prints every observable output as one JSON object a line. FILE '-' reads standard input.
        """

    let details: String? = """
        scenario lines: TIME COMMAND [ARGS]   TIME: seconds from the start, 0 to 9000000000, up to
        nine decimals, never decreasing. '#' starts a comment. The app starts in the foreground, with no
        call, not monitoring, the built-in dialog and a recording callback.
          start terminate N | start acknowledge N   start monitoring (N: any whole number, clamped to Int32)
          start observe                             startMonitoring(): observe only, never a security UI
          stop                                      stopMonitoring() (ends the app-wide policy only)
          protect NAME terminate N | protect NAME acknowledge N   [KIND ["DETAIL"] [operation "ID"]]
                                                    a screen's protection begins (the strictest policy is in force);
                                                    KIND: payment, credentials, deviceChange, accountChange,
                                                    general; DETAIL quoted, \" inside: the dialog's context;
                                                    ID: the operation's id a coaching question carries
          unprotect NAME                            the named protection ends
          exempt ID | unexempt ID                   exemptCall / removeExemption: the app's own call
          detection off | detection on              setCallDetectionEnabled(false / true), at once
          incoming ID | outgoing ID                 a new call ringing in / dialing out
          connect ID | hold ID | resume ID | end ID the call connects, is held, resumed, ends
          calls ID:STATE ...                        one complete list of the calls (rule 15; STATE: ringing,
                                                    dialing, connected, held); 'calls' alone: no call at all
          changes ID:STATE ...                      several calls changed in one delivery (STATE also ended)
          background | foreground                   the app leaves / enters the foreground
          suspend                                   the background app is suspended: no wake-up runs, call
                                                    changes wait (the calls still change) until the resume
          resume timers calls [foreground]          the process runs again and releases, in the order written,
                                                    the overdue wake-ups, the waiting call deliveries and
                                                    (if named) the return to the foreground
          tap                                       the delegate's latest onUserAction, else the dialog's button
                                                    (with neither, a tap the monitor refuses)
          tap stale                                 a tap on no presentation (a stale onUserAction): refused
          delegate custom | delegate none | delegate release
                                                    a new recording delegate / setDelegate(nil) / free it unannounced
          callback on | callback off                the recording callback / setCallback(nil)
          capture on | capture off                  the screen starts / stops being captured (recorded, shared)
          capture rule on | capture rule off        setRefusesAcknowledgementWhileScreenCaptured(true / false)
          capture escalate terminate N | capture escalate acknowledge N
                                                    protectWhileScreenCaptured: stricter while captured in a call
          capture escalate off                      stopProtectingWhileScreenCaptured()
          verdict bank | verdict notbank | verdict unknown
                                                    the call verifier answers every later question at once
          verdict late N | verdict never            it answers "not calling" N s after each question / never
          verdict twice V V                         it answers twice at once (V: bank, notbank, unknown)
          verdict budget S | verdict off            setCallVerifierBudget(S) / setCallVerifier(nil)
          coaching source app | coaching source off a coaching source that answers only by 'coaching answer' /
                                                    setCoachingSource(nil) (issue 40)
          coaching source trustInsights             the same source, reporting itself as Apple's (as recorded)
          coaching answer N LEVEL                   it answers question N now: unknown, medium, high, or error (a
                                                    failed source); after the budget or a first answer it is ignored;
                                                    after LEVEL, evaluation "ID" and model "VERSION" name the answer's
          coaching budget S                         setCoachingBudget(S)
          coaching policy medium R high R           setCoachingPolicy: R is off, evaluate or acknowledge N
          wait                                      nothing: lets time run to TIME
          keys FILE ISSUER [relax]                  setPolicyKeys: a JWK Set file (relative to the scenario), the iss,
                                                    relax to allow relaxation; nothing is kept between runs
          policy FILE                               applyPolicy(document:) with a signed document file
          attribute NAME VALUE                      a device attribute for the rules (os iOS, osVersion 26.0 and
                                                    appVersion 1.0 unless set)
          clock ISO8601                             sets the wall clock (YYYY-MM-DDTHH:MM:SSZ), forwards or back;
                                                    it starts at 2026-01-01T00:00:00Z plus virtual time

        transcript kinds: event, detect, tick, end, alert (its verdict: the line shown, or null),
        dismiss, tap (accepted: true|false), input (with --echo), verdict (each verdict the monitor
        records: bankIsCalling, bankIsNotCalling, unknown; with "delegate" when a recording delegate
        is told), outcome (one per security event, when it ends: "outcome" is the evidence record as
        CallMonitorOutcome.jsonData() writes it, Schemas/callmonitor-outcome.v2.schema.json: keys
        sorted, instants in nanoseconds of the virtual clock, dates in seconds since 1970),
        policy (result applied|unchanged|rejected|expired, version, reason), coaching (asked: the
        question's number, category and protection; report: its number, consumption status and the
        id of the outcome whose coaching record holds the answer, if one does), exit. Examples:
        Tests/callmonitorTests/Scenarios/*.scenario in the source tree.

        exit status: 0 on success; 2 on a bad scenario ('FILE:N: what is wrong', or 'line N: …' for
        standard input, on standard error, nothing on standard output) or a bad option.

        """

    @MainActor
    func run(_ arguments: ArraySlice<String>) -> Never {
        let (options, words) = parse(arguments)
        let path = words[0]
        // `FILE:N:` is the form editors and terminals turn into a link to the line; standard input
        // has no name, so it keeps `line N:`.
        let location = path == "-" ? { (line: Int) in "line \(line)" } : { (line: Int) in "\(path):\(line)" }
        func report(_ error: ScenarioError) -> Never {
            Output.error("\(location(error.line)): \(error.message)\n")
            exit(2)
        }
        let steps: [ScenarioStep]
        do { steps = try ScenarioParser.parse(Self.readAll(path)) } catch { report(error.narrowed(or: ScenarioError.unexpected)) }
        if steps.isEmpty {
            // Not an error (an empty file is a valid scenario), but almost always a mistake: the
            // wrong file, or every line commented out.
            Output.error("callmonitor: warning: \(path == "-" ? "standard input" : path) has no commands; the transcript is empty\n")
        }
        // Each line is written as it happens (memory stays flat on a scenario of years, and a long
        // one can be followed), unless a call command or a protection name will fail: then, as for
        // a syntax error, nothing is written but the error, so the lines are kept until the run stops.
        let fails = Simulation.firstScriptError(in: steps) != nil
        let output = JSONLinesWriter(flushing: .inBlocks(bytes: 65_536))
        // A named simulation: its delegates reach back to it weakly while it runs.
        // A scenario's policy files are named relative to it (standard input: the working directory).
        let base: String? = path == "-" ? nil : (path.contains("/") ? String(path[...path.lastIndex(of: "/")!]) : ".")
        let simulation = Simulation(
            strings: options.strings, echo: options.echo, baseDirectory: base, sink: fails ? nil : { output.write(line: $0) }
        )
        if let record = options.record { simulation.startRecording(toPath: record) }
        let lines: [String]
        do { lines = try simulation.run(steps) } catch { report(error) }
        simulation.finishRecording()
        withExtendedLifetime(simulation) {}
        for line in lines { output.write(line: line) }
        output.flush()
        exit(0)
    }

    /// The whole of `path` (`-`: standard input) as text; fails when it cannot be read.
    static func readAll(_ path: String) -> String {
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
}

// `callmonitor watch`: the real monitor against the Linux phone's telephony daemon (ModemManager
// or oFono over the D-Bus system bus), the terminal dialog on standard error, a transcript of
// JSON Lines on standard output, and a real exit(0) when the terminate countdown runs out.

import Dispatch
import hnb
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

let watchUsage = """
  callmonitor watch [--backend modemmanager|ofono|auto] [--flow terminate|acknowledge] [--seconds N] [--language CODE] [--no-exit]
      Monitors this Linux phone's real calls (ModemManager or oFono over D-Bus); needs a build
      with --traits Telephony. Dialog on the terminal, transcript as JSON Lines, real exit at 0.

"""

let watchHelp = """
usage: callmonitor watch [--backend modemmanager|ofono|auto] [--flow terminate|acknowledge] [--seconds N] [--language CODE] [--no-exit]

Runs the real monitor against this Linux phone's telephony daemon over the D-Bus system bus
(DBUS_SYSTEM_BUS_ADDRESS if set). Needs a build with the Telephony trait: swift build --traits
Telephony (Debian: libdbus-1-dev). The dialog is drawn on standard error when it is a terminal;
standard output gets a transcript as JSON Lines; a line on standard input taps the dialog's button.

options:
  --backend modemmanager|ofono|auto   the daemon to read (default auto: ModemManager if it is on
                                      the bus, else oFono, else the first of them to appear)
  --flow terminate|acknowledge        the policy (default terminate)
  --seconds N                         the countdown or the acknowledge delay, 0 to 3600 (default 10;
                                      terminate clamps 0 to 1)
  --language CODE                     language of the dialog: \(Languages.available.joined(separator: " "))
  --no-exit                           report the force exit instead of performing it
  --help                              this text

transcript kinds: watch, telephony (status watching|waiting|lost|failed), calls (complete, each
call's id, state ringing|connected|held|ended and direction), event, alert, dismiss, exit, tap,
stopped. t is real seconds since the start.

exit status: 0 when the terminate countdown force-exits; 128+signal when stopped (Ctrl-C: 130);
2 on a bad option or a build without the Telephony trait.

"""

/// What `watch` was asked to do.
struct WatchOptions {
    #if os(Linux)
    var backend: TelephonyBackendChoice = .auto
    #endif
    var flow: CallMonitorFlow = .terminate
    var seconds: Int32 = 10
    var strings: CallMonitorStrings = .english
    var performExit = true
}

@MainActor
func watch(_ arguments: ArraySlice<String>) -> Never {
    let (options, words) = parseOptions(
        arguments, valued: ["--backend", "--flow", "--seconds", "--language"], flags: ["--no-exit"], help: watchHelp
    )
    guard words.isEmpty else { fail("watch takes no arguments besides its options\n\(watchHelp)") }
    var watchOptions = WatchOptions()
    #if os(Linux)
    switch options["--backend"] {
    case nil, "auto"?: watchOptions.backend = .auto
    case let name?:
        guard let backend = TelephonyBackend(rawValue: name) else { fail("--backend must be modemmanager, ofono or auto") }
        watchOptions.backend = .only(backend)
    }
    #else
    // The telephony types exist only on Linux; the option is still checked the same way.
    if let name = options["--backend"], !["auto", "modemmanager", "ofono"].contains(name) {
        fail("--backend must be modemmanager, ofono or auto")
    }
    #endif
    if let flow = options["--flow"] {
        switch flow {
        case "terminate": watchOptions.flow = .terminate
        case "acknowledge": watchOptions.flow = .acknowledge
        default: fail("--flow must be terminate or acknowledge")
        }
    }
    if let text = options["--seconds"] {
        guard let seconds = ScenarioParser.parseSeconds(text), seconds >= 0, seconds <= 3600 else {
            fail("--seconds must be a whole number from 0 to 3600")
        }
        watchOptions.seconds = seconds
    }
    watchOptions.strings = strings(forLanguage: options["--language"])
    watchOptions.performExit = options["--no-exit"] == nil
    #if Telephony && os(Linux)
    let session = WatchSession(options: watchOptions)
    session.start()
    withExtendedLifetime(session) { dispatchMain() }
    #else
    fail("watch needs telephony support: build with `swift build --traits Telephony` on Linux (Debian: apt-get install libdbus-1-dev)")
    #endif
}

#if Telephony && os(Linux)
/// Transcript lines stamped with the real seconds since `watch` started.
@MainActor
final class WatchTranscript {
    private let scheduler = LiveScheduler()
    private let origin: Int64

    init() { origin = scheduler.now }

    /// Writes one JSON object: `t`, `kind`, then `fields` (already encoded JSON values).
    func record(_ kind: String, _ fields: KeyValuePairs<String, String> = [:]) {
        let elapsed = max(0, scheduler.now - origin) / 1_000_000
        let millis = String(elapsed % 1000)
        var text = "{\"t\":\(elapsed / 1000).\(String(repeating: "0", count: 3 - millis.count))\(millis),\"kind\":\(JSONLine.quote(kind))"
        for (key, value) in fields { text += ",\(JSONLine.quote(key)):\(value)" }
        Output.write(text + "}\n")
    }

    static func string(_ text: String?) -> String { text.map(JSONLine.quote) ?? "null" }

    /// A snapshot as the transcript shows it: the call's path and one word for its state.
    static func call(_ snapshot: CallSnapshot) -> String {
        let state = snapshot.hasEnded ? "ended" : snapshot.isOnHold ? "held" : snapshot.hasConnected ? "connected" : "ringing"
        return "{\"id\":\(JSONLine.quote(snapshot.id.rawValue)),\"state\":\"\(state)\",\"outgoing\":\(snapshot.isOutgoing)}"
    }
}

/// The telephony source with each delivery written to the transcript before the monitor sees it.
@MainActor
final class RecordedCallSource: CallSource {
    private let inner: TelephonyCallSource
    private let transcript: WatchTranscript

    init(backend: TelephonyBackendChoice, transcript: WatchTranscript) {
        self.transcript = transcript
        inner = TelephonyCallSource(backend: backend) { status in
            DispatchQueue.main.async { MainActor.assumeIsolated { RecordedCallSource.record(status, transcript) } }
        }
    }

    func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) {
        let transcript = self.transcript
        inner.start { batch in
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    let calls = batch.calls.map(WatchTranscript.call).joined(separator: ",")
                    transcript.record("calls", ["complete": "\(batch.isComplete)", "calls": "[\(calls)]"])
                }
                deliver(batch)
            }
        }
    }

    func stop() { inner.stop() }

    private static func record(_ status: TelephonyStatus, _ transcript: WatchTranscript) {
        switch status {
        case .watching(let backend):
            transcript.record("telephony", ["status": "\"watching\"", "backend": WatchTranscript.string(backend.rawValue)])
        case .waiting(let backends):
            transcript.record("telephony", ["status": "\"waiting\"", "backend": WatchTranscript.string(backends.map(\.rawValue).joined(separator: " "))])
        case .lost(let backend):
            transcript.record("telephony", ["status": "\"lost\"", "backend": WatchTranscript.string(backend.rawValue)])
        case .failed(let error):
            transcript.record("telephony", ["status": "\"failed\"", "error": WatchTranscript.string(error.description)])
        }
    }
}

/// Draws the dialog on the terminal and writes each frame to the transcript, as `simulate` does.
@MainActor
final class RecordedAlertRenderer: SecurityAlertRenderer {
    let terminal = TerminalAlertRenderer()
    private let transcript: WatchTranscript

    init(transcript: WatchTranscript) { self.transcript = transcript }

    func render(_ alert: SecurityAlert, onButton: @escaping @MainActor () -> Void) {
        transcript.record("alert", [
            "flow": WatchTranscript.string(alert.flow.description),
            "title": WatchTranscript.string(alert.title),
            "message": WatchTranscript.string(alert.message),
            "countdown": WatchTranscript.string(alert.countdown),
            "button": WatchTranscript.string(alert.button),
            "remaining": "\(alert.remaining)",
        ])
        terminal.render(alert, onButton: onButton)
    }

    func dismiss() {
        transcript.record("dismiss")
        terminal.dismiss()
    }
}

/// Writes the exit to the transcript, then exits for real (or, with `--no-exit`, only says so).
@MainActor
final class RecordedTerminator: AppTerminator {
    private let transcript: WatchTranscript
    private let perform: Bool

    init(transcript: WatchTranscript, perform: Bool) {
        self.transcript = transcript
        self.perform = perform
    }

    func terminate(code: Int32) {
        transcript.record("exit", ["code": "\(code)", "performed": "\(perform)"])
        if perform { exit(code) }
    }

    /// The before-exit watchdog's way out; `watch` sets no before-exit hook, so it is not used,
    /// but it too exits for real (without a time stamp: the transcript lives on the main thread).
    nonisolated func terminateFromAnyThread(code: Int32) {
        Output.write("{\"kind\":\"exit\",\"code\":\(code),\"performed\":\(perform),\"thread\":\"any\"}\n")
        if perform { exit(code) }
    }
}

/// One run of `watch`.
@MainActor
final class WatchSession {
    private let options: WatchOptions
    private let transcript = WatchTranscript()
    private let renderer: RecordedAlertRenderer
    private let monitor: CallMonitor
    private var signals: [any DispatchSourceSignal] = []

    init(options: WatchOptions) {
        self.options = options
        renderer = RecordedAlertRenderer(transcript: transcript)
        monitor = CallMonitor(
            callSource: RecordedCallSource(backend: options.backend, transcript: transcript),
            appState: ProcessAppState(),
            scheduler: LiveScheduler(),
            alertRenderer: renderer,
            terminator: RecordedTerminator(transcript: transcript, perform: options.performExit),
            strings: options.strings
        )
    }

    func start() {
        let transcript = self.transcript
        monitor.setCallback { event in transcript.record("event", ["event": WatchTranscript.string(event.description)]) }
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler {
                MainActor.assumeIsolated {
                    transcript.record("stopped", ["signal": "\(signalNumber)"])
                    exit(128 + signalNumber)
                }
            }
            source.resume()
            signals.append(source)
        }
        transcript.record("watch", [
            "backend": WatchTranscript.string(options.backend.description),
            "policy": WatchTranscript.string(Self.describe(options.flow, options.seconds)),
        ])
        switch options.flow {
        case .terminate: monitor.startMonitoring(withTerminateIn: options.seconds)
        case .acknowledge: monitor.startMonitoring(withAcknowledgeIn: options.seconds)
        }
        readButtonTaps()
    }

    /// The policy in words, with the clamps the monitor applies.
    static func describe(_ flow: CallMonitorFlow, _ seconds: Int32) -> String {
        switch flow {
        case .terminate: "terminate flow, \(max(1, seconds))-second countdown"
        case .acknowledge: "acknowledge flow, button after \(max(0, seconds)) s"
        }
    }

    /// Each line on standard input taps the dialog's button; the end of input changes nothing.
    private func readButtonTaps() {
        DispatchQueue(label: "callmonitor.watch.input").async { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                let taps = buffer[0..<count].filter { $0 == UInt8(ascii: "\n") }.count
                DispatchQueue.main.async {
                    MainActor.assumeIsolated {
                        guard let self else { return }
                        for _ in 0..<taps { self.tap() }
                    }
                }
            }
        }
    }

    private func tap() {
        if !renderer.terminal.tapButton() {
            transcript.record("tap", ["result": "\"no button\""])
        }
    }
}
#endif

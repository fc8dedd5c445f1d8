// The session behind `callmonitor watch` (WatchCommand.swift reads the options): the real monitor
// against the Linux phone's telephony daemon (ModemManager or oFono over the D-Bus system bus),
// the terminal dialog on standard error, a transcript of JSON Lines on standard output, and a
// real exit(0) when the terminate countdown runs out.

import Dispatch
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

/// What `watch` was asked to do; the defaults are watch's, and its help says them.
struct WatchOptions: CommandOptions {
    #if os(Linux)
    var backend: Telephony.BackendChoice = .auto
    #endif
    var flow: CallMonitorFlow = .terminate
    var seconds: Int32 = 10
    var strings: CallMonitorStrings = .english
    var performExit = true
    /// Where the monitor records its session (issue 29), if anywhere: a real-daemon recording
    /// that `callmonitor replay FILE --check` replays.
    var record: String?
}

#if Telephony && os(Linux)
/// Transcript lines stamped with the real seconds since `watch` started.
@MainActor
final class WatchTranscript {
    private let scheduler = LiveScheduler()
    private let origin: Int64

    init() { origin = scheduler.now }

    /// Each line goes out at once: the transcript is followed as the calls happen.
    private let writer = JSONLinesWriter(flushing: .everyLine)

    /// Writes one line: `t` (real seconds, to the millisecond), `kind`, then what `fill` adds.
    func record(_ kind: String, _ fill: (inout JSONLine) -> Void = { _ in }) {
        var line = JSONLine()
        line.add("t", .decimal(max(0, scheduler.now - origin) / 1_000_000, places: 3, trimmingZeros: false))
        line.add("kind", kind)
        fill(&line)
        writer.write(line)
    }

    /// A snapshot as the transcript shows it: the call's path and one word for its state.
    static func call(_ snapshot: CallSnapshot) -> JSONValue {
        let state = snapshot.hasEnded ? "ended" : snapshot.isOnHold ? "held" : snapshot.hasConnected ? "connected" : "ringing"
        var call = JSONLine()
        call.add("id", snapshot.id.rawValue)
        call.add("state", state)
        call.add("outgoing", snapshot.isOutgoing)
        return .object(call)
    }
}

/// The telephony source with each delivery written to the transcript before the monitor sees it.
@MainActor
final class RecordedCallSource: CallSource {
    private let inner: TelephonyCallSource
    private let transcript: WatchTranscript

    init(backend: Telephony.BackendChoice, transcript: WatchTranscript) {
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
                    transcript.record("calls") {
                        $0.add("complete", batch.isComplete)
                        $0.add("calls", .array(batch.calls.map(WatchTranscript.call)))
                    }
                }
                deliver(batch)
            }
        }
    }

    func stop() { inner.stop() }

    private static func record(_ status: Telephony.Status, _ transcript: WatchTranscript) {
        let (word, key, value) = switch status {
        case .watching(let backend): ("watching", "backend", backend.rawValue)
        case .waiting(let backends): ("waiting", "backend", backends.map(\.rawValue).joined(separator: " "))
        case .lost(let backend): ("lost", "backend", backend.rawValue)
        case .failed(let error): ("failed", "error", error.description)
        }
        transcript.record("telephony") {
            $0.add("status", word)
            $0.add(key, value)
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
        transcript.record("alert") { $0.addAlert(alert) }
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
        let perform = self.perform
        transcript.record("exit") {
            $0.add("code", Int(code))
            $0.add("performed", perform)
        }
        if perform { exit(code) }
    }

    /// The before-exit watchdog's way out; `watch` sets no before-exit hook, so it is not used,
    /// but it too exits for real (without a time stamp: the transcript lives on the main thread).
    nonisolated func terminateFromAnyThread(code: Int32) {
        var line = JSONLine()
        line.add("kind", "exit")
        line.add("code", Int(code))
        line.add("performed", perform)
        line.add("thread", "any")
        JSONLinesWriter(flushing: .everyLine).write(line)
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
        // Before the callback and the start, so that the recording replays from a fresh monitor.
        if let record = options.record {
            do { try monitor.startRecording(to: URL(fileURLWithPath: record), maxBytes: .max) } catch { fail("\(error)") }
        }
        let transcript = self.transcript
        let monitor = self.monitor
        monitor.setCallback { event in transcript.record("event") { $0.add("event", event.description) } }
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler {
                MainActor.assumeIsolated {
                    transcript.record("stopped") { $0.add("signal", Int(signalNumber)) }
                    // The recording is complete before the process ends.
                    monitor.finishRecording()
                    exit(128 + signalNumber)
                }
            }
            source.resume()
            signals.append(source)
        }
        let options = self.options
        transcript.record("watch") {
            $0.add("backend", options.backend.description)
            $0.add("policy", PolicyWords.describe(options.flow, seconds: options.seconds))
        }
        monitor.startMonitoring(options.flow, seconds: options.seconds)
        readButtonTaps()
    }

    /// Each line on standard input taps the dialog's button; the end of input changes nothing.
    private func readButtonTaps() {
        StandardInput.readBursts(label: "callmonitor.watch.input") { [weak self] bytes in
            guard let self else { return }
            for byte in bytes where byte == UInt8(ascii: "\n") { tap() }
        }
    }

    private func tap() {
        if !renderer.terminal.tapButton() {
            transcript.record("tap") { $0.add("result", "no button") }
        }
    }
}
#endif

// The demo behind `callmonitor demo` (DemoCommand.swift reads the options): the policy played in
// real time through the production engine and a faster live clock (ScaledScheduler.swift), with
// the built-in dialog drawn as a dialog box in the terminal, the story told by DemoNarrator.swift and,
// in interactive mode, keys from TerminalKeyboard.swift.

import Foundation
import hnb
import hnbRecording
import hnbTesting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// What `demo` was asked to play; the defaults are the demo's, and its help says them.
struct DemoOptions: CommandOptions {
    var flow: CallMonitorFlow = .terminate
    var seconds: Int32 = 5
    var speed: Double = 1
    var strings: CallMonitorStrings = .english
    var interactive = false
    /// Where the monitor records its session (issue 29), if anywhere: the live clock's recording.
    var record: String?
}

@MainActor
final class Demo {
    private let options: DemoOptions
    private let style: Style
    private let tty: Bool
    private let scheduler: ScaledScheduler
    private let calls = SimulatedCallSource()
    private let app = SimulatedAppState(isForeground: true)
    private let renderer = SimulatedAlertRenderer()
    /// Stands in for `exit(0)`: the demo explains the exit and then ends itself.
    private let terminator = SimulatedTerminator()
    private let monitor: CallMonitor
    private var narration: [String] = []
    private var callState = "no call"
    private var callNumber = 0
    /// Standard input as keys, in interactive mode.
    private let keyboard = TerminalKeyboard()
    /// Everything the monitor did, in order: narration is written from these, never guessed.
    private var observed: [DemoObservation] = []
    /// The button being tapped while the demo performs a tap, so an exit it causes is told as
    /// the tap's doing rather than the countdown's.
    private var tapping: String?
    /// Whether the last frame drawn on the terminal is on screen (then the next one overwrites it).
    private var drewFrame = false

    init(options: DemoOptions) {
        self.options = options
        tty = Output.isTerminal(1)
        style = Style(enabled: tty)
        scheduler = ScaledScheduler(rate: options.speed)
        monitor = CallMonitor(
            callSource: calls,
            appState: app,
            scheduler: scheduler,
            alertRenderer: renderer,
            terminator: terminator,
            strings: options.strings
        )
    }

    /// Starts the demo; it ends the process itself when the story (or the user) is done.
    func start() {
        if let record = options.record {
            do { try monitor.startRecording(to: URL(fileURLWithPath: record), maxBytes: .max) } catch { fail("\(error)") }
        }
        renderer.onChange = { [weak self] alert in
            self?.observed.append(alert.map { .alert($0) } ?? .dismiss)
            self?.dialogChanged(alert)
        }
        terminator.onTerminate = { [weak self] code in
            self?.observed.append(.exit(code))
            self?.appExited(code: code)
        }
        monitor.setCallback { [weak self] event in
            guard let self else { return }
            observed.append(.event(event))
            callState = "\(event)"
            say(style.dim("callback: .\(event)"))
        }
        monitor.startMonitoring(options.flow, seconds: options.seconds)
        say(DemoNarrator.policyLine(options.flow, options.seconds))
        if options.interactive {
            startKeyboard()
        } else {
            playStory()
        }
    }

    // MARK: The built-in story

    private func playStory() {
        let s = Double(max(options.flow == .terminate ? 1 : 0, options.seconds))
        // The first call is answered at 30% of the countdown and ends at 60%, in time.
        let span = max(s, 1)
        let firstEnds = 1 + 0.6 * span
        let secondRings = firstEnds + 2
        var story: [(Double, () -> Void)] = [
            (1, { self.incoming("The phone rings while the banking app is open: the security dialog appears at once.") }),
            (1 + 0.3 * span, { self.answer("The user answers. The countdown keeps running.") }),
            (firstEnds, { self.hangUp("The caller hangs up in time: the dialog goes away by itself and the monitor resets.") }),
            (secondRings, { self.incoming("A second call. The dialog is back, counting from the start.") }),
            (secondRings + 1, { self.answer("Answered again - this time the call goes on.") }),
        ]
        switch options.flow {
        case .terminate:
            story.append((secondRings + 1.5, { self.say("Nobody hangs up now; watch the countdown reach 0.") }))
        case .acknowledge:
            let tapAt = secondRings + s + 1.5
            story.append((tapAt, { self.tapWhenShown(triesLeft: 20) }))
            story.append((tapAt + 2, { self.hangUp("Nothing was closed: the acknowledge flow never exits.") }))
            story.append((tapAt + 3, { self.finish("End of the demo.") }))
        }
        for (second, step) in story {
            _ = scheduler.schedule(at: Int64(second * 1e9)) { step() }
        }
    }

    // MARK: Actions shared by the story and the keyboard

    // The calls are the simulated source's own list (in the order they began, ended ones left
    // out): the latest ringing call is answered, the latest call is hung up.

    private func incoming(_ why: String) {
        callNumber += 1
        let id = "call \(callNumber)"
        say("\(style.cyan(id)) rings." + (why.isEmpty ? "" : " " + why))
        try? calls.incoming(id)
    }

    private func answer(_ why: String) {
        guard let id = calls.liveCalls.last(where: { !$0.hasConnected })?.id.rawValue else { return say("No ringing call to answer.") }
        say("\(style.cyan(id)) connects." + (why.isEmpty ? "" : " " + why))
        try? calls.connect(id)
    }

    private func hangUp(_ why: String) {
        guard let id = calls.liveCalls.last?.id.rawValue else { return say("No call to hang up.") }
        say("\(style.cyan(id)) ends." + (why.isEmpty ? "" : " " + why))
        try? calls.end(id)
    }

    private func toggleBackground() {
        let toForeground = !app.isForeground
        let dialogBefore = renderer.current != nil
        let mark = observed.count
        // The state changes first, so the frame drawn with the sentence shows the new state.
        app.setForeground(toForeground)
        say(DemoNarrator.appStateChanged(
            toForeground: toForeground, dialogBefore: dialogBefore, dialogAfter: renderer.current != nil,
            countdownShown: renderer.current?.countdown != nil, effects: Array(observed[mark...])
        ))
    }

    /// The story's tap comes 1.5 s after the button is due, which on a loaded machine at a high
    /// `--speed` is a few milliseconds of real time: the tap's timer may run before the tick that
    /// shows the button. A person cannot tap a button not drawn yet, so the story waits for it
    /// (in steps of 0.1 s, for 2 s at most, then taps whatever is shown).
    private func tapWhenShown(triesLeft: Int) {
        guard renderer.current?.button == nil, triesLeft > 0 else { return tap() }
        _ = scheduler.schedule(at: scheduler.now + 100_000_000) { self.tapWhenShown(triesLeft: triesLeft - 1) }
    }

    /// Taps the dialog's button and tells what the monitor did with it.
    private func tap() {
        let button = renderer.current?.button
        let mark = observed.count
        tapping = button
        let tapped = renderer.tapButton()
        tapping = nil
        say(DemoNarrator.tapped(button: tapped ? button : nil, dialogShown: renderer.current != nil,
                                effects: Array(observed[mark...])))
    }

    private func appExited(code: Int32) {
        say(style.red(DemoNarrator.exited(code: code, tapped: tapping)) + " End of the demo.")
        finish(nil)
    }

    // MARK: Keyboard (interactive mode)

    private func startKeyboard() {
        keyboard.start(
            onKey: { [weak self] key in self?.key(key) },
            onEnd: { [weak self] in self?.finish("Input closed.") },
            onInterrupt: { [weak self] in self?.finish("Interrupted.") }
        )
        // On a terminal the keys stay on screen under the dialog; in a pipe they are said once.
        if !tty { say("Keys: [i] incoming call  [a] answer  [h] hang up  [t] tap the button  [b] background/foreground  [q] quit") }
    }

    private func key(_ key: Character) {
        switch key {
        case "i": incoming("")
        case "a": answer("")
        case "h": hangUp("")
        case "t": tap()
        case "b": toggleBackground()
        case "q": finish("Bye.")
        default: break
        }
    }

    // MARK: Screen

    private func say(_ line: String) {
        let stamp = style.dim("[" + formatClock(scheduler.now) + "]")
        narration.append("\(stamp) \(line)")
        if tty {
            redraw()
        } else {
            Output.write("\(stamp) \(line)\n")
        }
    }

    private func dialogChanged(_ alert: SecurityAlert?) {
        if tty {
            redraw()
        } else if let alert {
            // A pipe has no width: every field on one line, as a log would want it.
            Output.write(dialogBox(alert, columns: .max))
        } else {
            Output.write("(dialog dismissed)\n")
        }
    }

    /// Draws the whole frame over the previous one: the cursor goes home and each line is
    /// rewritten and cleared to its end, so nothing scrolls into the scrollback and the header
    /// stays on the top line. The frame is cut to the window's height, narration first.
    private func redraw() {
        let columns = TerminalWidth.current(fileDescriptor: 1)
        let rows = TerminalWidth.currentRows(fileDescriptor: 1)
        let appState = app.isForeground ? "foreground" : "background"
        let frame = DemoScreen(
            header: DemoNarrator.policyLine(options.flow, options.seconds),
            status: "calls: \(callState) | app: \(appState) | speed x\(formatSpeed(options.speed))",
            keys: options.interactive ? "[i] incoming  [a] answer  [h] hang up  [t] tap  [b] background/foreground  [q] quit" : nil,
            dialog: renderer.current.map { dialogBox($0, columns: columns).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) },
            narration: narration,
            style: style
        ).lines(columns: columns, rows: rows)
        Output.write(style.home + frame.map { $0 + style.clearToEndOfLine }.joined(separator: "\n") + style.clearBelow)
        drewFrame = true
    }

    private func dialogBox(_ alert: SecurityAlert, columns: Int) -> String {
        let border = alert.flow == .terminate ? style.red : style.yellow
        return TerminalDialogLayout(alert: alert, columns: columns).text(
            paint: { part, text in
                switch part {
                case .title: self.style.bold(text)
                case .message, .detail: text
                case .kindLine, .coachingLine: self.style.bold(text)
                case .verdict: self.style.bold(text)
                case .countdown: self.style.yellow(text)
                case .button: self.style.inverse(text)
                }
            },
            border: { border($0) }
        )
    }

    private func finish(_ message: String?) {
        if let message { say(message) }
        // The shell's prompt goes below the last frame, not over it.
        if drewFrame { Output.write("\n") }
        keyboard.restore()
        monitor.finishRecording()
        exit(0)
    }

    private func formatClock(_ nanoseconds: Int64) -> String {
        let tenths = nanoseconds / 100_000_000
        let seconds = tenths / 10
        let minutes = seconds / 60
        return String(format2(minutes)) + ":" + format2(seconds % 60) + "." + String(tenths % 10)
    }

    private func format2(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private func formatSpeed(_ speed: Double) -> String {
        speed == speed.rounded() && speed < 1e6 ? String(Int(speed)) : String(speed)
    }
}

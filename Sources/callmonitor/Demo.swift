// `callmonitor demo`: the policy played in real time through the production engine and the live
// scheduler, with the default UI drawn as a dialog box in the terminal.

import Dispatch
import hnb
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The live scheduler with time running `rate` times faster, for `--speed`. Deadlines are still
/// absolute instants computed by the engine, so a faster demo does not drift either.
final class ScaledScheduler: MonitorScheduler {
    private let live = LiveScheduler()
    private let origin: Int64
    private let rate: Double

    init(rate: Double) {
        self.rate = rate
        origin = live.now
    }

    var now: Int64 { Int64((Double(live.now - origin) * rate).rounded(.down)) }

    func schedule(at deadline: Int64, _ work: @escaping @MainActor () -> Void) -> any ScheduledWork {
        let realDelay = max(0, Double(deadline - now) / rate)
        return live.schedule(at: live.now + Int64(realDelay.rounded(.up)), work)
    }
}

struct DemoOptions {
    var flow: CallMonitorFlow = .terminate
    var seconds: Int32 = 5
    var speed: Double = 1
    var strings: CallMonitorStrings = .english
    var interactive = false
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
    private var liveCalls: [String] = []
    private var connected: Set<String> = []
    private var interrupt: (any DispatchSourceSignal)?
    private var savedTerminal: termios?

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
        renderer.onChange = { [weak self] alert in self?.dialogChanged(alert) }
        terminator.onTerminate = { [weak self] code in self?.appExited(code: code) }
        monitor.setCallback { [weak self] event in
            guard let self else { return }
            callState = "\(event)"
            say(style.dim("callback: .\(event)"))
        }
        switch options.flow {
        case .terminate: monitor.startMonitoring(withTerminateIn: options.seconds)
        case .acknowledge: monitor.startMonitoring(withAcknowledgeIn: options.seconds)
        }
        let policy = MonitorPolicyText.describe(options.flow, options.seconds)
        say(style.bold("CallMonitor demo") + " - monitoring on: \(policy).")
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
            story.append((tapAt, {
                if self.renderer.tapButton() { self.say("The user taps Acknowledge: the warning stays away for the rest of this call.") }
            }))
            story.append((tapAt + 2, { self.hangUp("Nothing was closed: the acknowledge flow never exits.") }))
            story.append((tapAt + 3, { self.finish("End of the demo.") }))
        }
        for (second, step) in story {
            _ = scheduler.schedule(at: Int64(second * 1e9)) { step() }
        }
    }

    // MARK: Actions shared by the story and the keyboard

    private func incoming(_ why: String) {
        callNumber += 1
        let id = "call \(callNumber)"
        say("\(style.cyan(id)) rings." + (why.isEmpty ? "" : " " + why))
        try? calls.incoming(id)
        liveCalls.append(id)
    }

    private func answer(_ why: String) {
        guard let id = liveCalls.last(where: { !connected.contains($0) }) else { return say("No ringing call to answer.") }
        connected.insert(id)
        say("\(style.cyan(id)) connects." + (why.isEmpty ? "" : " " + why))
        try? calls.connect(id)
    }

    private func hangUp(_ why: String) {
        guard let id = liveCalls.popLast() else { return say("No call to hang up.") }
        connected.remove(id)
        say("\(style.cyan(id)) ends." + (why.isEmpty ? "" : " " + why))
        try? calls.end(id)
    }

    private func toggleBackground() {
        let goingBack = app.isForeground
        say(goingBack ? "The app goes to the background (the countdown keeps running)." : "The app returns to the foreground.")
        app.setForeground(!goingBack)
    }

    private func appExited(code: Int32) {
        say(style.red("The countdown is over and a call is still live: the app is force-exited with exit(\(code)).") + " End of the demo.")
        finish(nil)
    }

    // MARK: Keyboard (interactive mode)

    private func startKeyboard() {
        if Output.isTerminal(0) {
            var raw = termios()
            tcgetattr(0, &raw)
            savedTerminal = raw
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            tcsetattr(0, TCSANOW, &raw)
        }
        // Ctrl-C restores the terminal before leaving.
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        interrupt.setEventHandler { MainActor.assumeIsolated { self.finish("Interrupted.") } }
        interrupt.resume()
        self.interrupt = interrupt

        // A blocking reader on its own queue rather than a read source: it sees every byte of a burst (a
        // pipe delivers "iahq" at once) and the end of input, and hands each to the main queue.
        DispatchQueue(label: "callmonitor.keyboard").async { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                let bytes = count > 0 ? Array(buffer[0..<count]) : []
                DispatchQueue.main.async {
                    MainActor.assumeIsolated {
                        guard let self else { return }
                        if bytes.isEmpty { self.finish("Input closed.") }
                        for byte in bytes { self.key(Character(Unicode.Scalar(byte))) }
                    }
                }
                if count <= 0 { return }
            }
        }
        // On a terminal the keys stay on screen under the dialog; in a pipe they are said once.
        if !tty { say("Keys: [i] incoming call  [a] answer  [h] hang up  [t] tap the button  [b] background/foreground  [q] quit") }
    }

    private func key(_ key: Character) {
        switch key {
        case "i": incoming("")
        case "a": answer("")
        case "h": hangUp("")
        case "t": if !renderer.tapButton() { say("There is no button to tap right now.") }
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
            Output.write(dialogBox(alert))
        } else {
            Output.write("(dialog dismissed)\n")
        }
    }

    private func redraw() {
        var screen = style.clearScreen
        screen += narration.suffix(12).joined(separator: "\n") + "\n\n"
        if let alert = renderer.current {
            screen += dialogBox(alert)
        } else {
            screen += style.dim("(no security dialog on screen)") + "\n"
        }
        let appState = app.isForeground ? "foreground" : "background"
        screen += "\n" + style.dim("calls: \(callState) | app: \(appState) | speed x\(formatSpeed(options.speed))") + "\n"
        if options.interactive {
            screen += style.dim("[i] incoming  [a] answer  [h] hang up  [t] tap  [b] background/foreground  [q] quit") + "\n"
        }
        Output.write(screen)
    }

    private func dialogBox(_ alert: SecurityAlert) -> String {
        var rows: [(String, (String) -> String)] = [(alert.title, style.bold), (alert.message, { $0 })]
        if let countdown = alert.countdown { rows.append((countdown, style.yellow)) }
        if let button = alert.button { rows.append(("[ \(button) ]", style.inverse)) }
        let width = rows.map(\.0.count).max() ?? 0
        let border = alert.flow == .terminate ? style.red : style.yellow
        var out = border("+" + String(repeating: "-", count: width + 2) + "+") + "\n"
        for (text, paint) in rows {
            let padding = String(repeating: " ", count: width - text.count)
            out += border("|") + " " + paint(text) + padding + " " + border("|") + "\n"
        }
        out += border("+" + String(repeating: "-", count: width + 2) + "+") + "\n"
        return out
    }

    private func finish(_ message: String?) {
        if let message { say(message) }
        if var saved = savedTerminal { tcsetattr(0, TCSANOW, &saved) }
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

enum MonitorPolicyText {
    static func describe(_ flow: CallMonitorFlow, _ seconds: Int32) -> String {
        switch flow {
        case .terminate: "terminate flow, \(max(1, seconds))-second countdown"
        case .acknowledge: "acknowledge flow, button after \(max(0, seconds)) s"
        }
    }
}

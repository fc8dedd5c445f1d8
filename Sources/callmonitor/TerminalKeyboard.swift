// The interactive demo's keyboard: each key as it is pressed, not after Return, not echoed over
// the drawing, and the terminal put back as it was however the demo ends (Ctrl-C included).

import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

@MainActor
final class TerminalKeyboard {
    /// The terminal's settings before ``start(onKey:onEnd:onInterrupt:)`` changed them; `nil`
    /// when standard input is not a terminal (a pipe has none to restore).
    private var savedTerminal: termios?
    private var interrupt: (any DispatchSourceSignal)?

    /// Switches a terminal on standard input to single keys without echo, catches Ctrl-C, and
    /// hands each key to `onKey`, all on the main queue; `onEnd` is told when input ends,
    /// `onInterrupt` of Ctrl-C. Call ``restore()`` before the process ends.
    func start(
        onKey: @escaping @Sendable @MainActor (Character) -> Void,
        onEnd: @escaping @Sendable @MainActor () -> Void,
        onInterrupt: @escaping @Sendable @MainActor () -> Void
    ) {
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
        interrupt.setEventHandler { MainActor.assumeIsolated { onInterrupt() } }
        interrupt.resume()
        self.interrupt = interrupt

        StandardInput.readBursts(label: "callmonitor.keyboard") { bytes in
            if bytes.isEmpty { onEnd() }
            for byte in bytes { onKey(Character(Unicode.Scalar(byte))) }
        }
    }

    /// Puts the terminal's settings back as they were before ``start(onKey:onEnd:onInterrupt:)``.
    func restore() {
        if var saved = savedTerminal { tcsetattr(0, TCSANOW, &saved) }
    }
}

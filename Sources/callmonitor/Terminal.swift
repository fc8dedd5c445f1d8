// Plain output helpers: unbuffered writes to a file descriptor, terminal detection and colours
// that disappear when the output is not a terminal.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

enum Output {
    /// Writes all of `text` to `fd` with write(2), so output order is exact even in a pipe, and the
    /// C `stdout`/`stderr` globals (rejected by strict concurrency) are not needed.
    static func write(_ text: String, to fd: Int32 = 1) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { posixWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    static func error(_ text: String) { write(text, to: 2) }

    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
}

private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

/// ANSI styling that is switched off entirely when the output is not a terminal.
struct Style {
    let enabled: Bool

    func apply(_ code: String, _ text: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func bold(_ text: String) -> String { apply("1", text) }
    func dim(_ text: String) -> String { apply("2", text) }
    func red(_ text: String) -> String { apply("31", text) }
    func yellow(_ text: String) -> String { apply("33", text) }
    func green(_ text: String) -> String { apply("32", text) }
    func cyan(_ text: String) -> String { apply("36", text) }
    func inverse(_ text: String) -> String { apply("7", text) }

    /// Clears the screen and moves to its top-left corner.
    var clearScreen: String { enabled ? "\u{1B}[H\u{1B}[2J" : "" }
}

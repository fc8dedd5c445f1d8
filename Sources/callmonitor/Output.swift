// Unbuffered writes to a file descriptor and terminal detection: the tool's only way to standard
// output and standard error.

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

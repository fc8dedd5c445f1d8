// The package's one way to write text to a file descriptor: write(2) until every byte is out.
// `package`, so that the library's plain-text dialog and the `callmonitor` tool share it without
// making it part of the app-facing API.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Unbuffered writes to a file descriptor, and whether one is a terminal.
package enum FileDescriptorOutput {
    /// Writes all of `text` to `fd` with write(2): on after a short write, again after one that a
    /// signal interrupted, and no further after an error (a closed pipe). Unbuffered, so output
    /// order is exact even in a pipe, and the C `stdout`/`stderr` globals (which strict
    /// concurrency rejects) are not needed.
    ///
    /// - Parameters:
    ///   - text: What to write, as UTF-8.
    ///   - fd: The descriptor: 1 for standard output, 2 for standard error.
    package static func write(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { posixWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Whether `fd` is open on a terminal.
    ///
    /// - Parameter fd: The descriptor to ask about.
    package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
}

/// write(2) under a name that does not clash with ``FileDescriptorOutput/write(_:to:)``.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

// The tool's standard output and standard error: every line the tool writes goes through here,
// and so through the package's one write(2) loop (FileDescriptorOutput, shared with the library's
// plain-text dialog and the terminal renderer).

import hnb

enum Output {
    /// Writes all of `text` to `fd` at once, unbuffered, so output order is exact even in a pipe.
    static func write(_ text: String, to fd: Int32 = 1) {
        FileDescriptorOutput.write(text, to: fd)
    }

    static func error(_ text: String) { write(text, to: 2) }

    static func isTerminal(_ fd: Int32) -> Bool { FileDescriptorOutput.isTerminal(fd) }
}

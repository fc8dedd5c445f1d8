// The terminal's size: what the system reports for the window, else the environment, else the
// classic 80 by 24. The system calls are the only impure part.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The width of a terminal: the window size the system reports, else `COLUMNS`, else 80.
public enum TerminalWidth {
    /// The width assumed when nothing says otherwise: the classic terminal's.
    public static let fallback = 80

    /// The width from what the system reported and the environment: a reported width above 0
    /// wins (it follows resizes); then a positive whole `COLUMNS`; then ``fallback``.
    ///
    /// - Parameters:
    ///   - reported: The window's columns from `TIOCGWINSZ`, or nil when the call failed (not a
    ///     terminal); 0 means the terminal did not say.
    ///   - environment: The process environment, read for `COLUMNS`.
    public static func columns(reported: Int?, environment: [String: String]) -> Int {
        if let reported, reported > 0 { return reported }
        if let text = environment["COLUMNS"]?.trimmingSpaces, let value = Int(text), value > 0, value <= 10_000 {
            return value
        }
        return fallback
    }

    /// The rows counterpart of ``columns(reported:environment:)``, read from `LINES`; 24 by default.
    ///
    /// - Parameters:
    ///   - reported: The window's rows from `TIOCGWINSZ`, or nil.
    ///   - environment: The process environment, read for `LINES`.
    public static func rows(reported: Int?, environment: [String: String]) -> Int {
        if let reported, reported > 0 { return reported }
        if let text = environment["LINES"]?.trimmingSpaces, let value = Int(text), value > 0, value <= 10_000 {
            return value
        }
        return 24
    }

    /// The width of the terminal on `fileDescriptor` now (the system call is the only impure part).
    ///
    /// - Parameter fileDescriptor: A descriptor open on the terminal, such as 1 or 2.
    public static func current(fileDescriptor: Int32) -> Int {
        columns(reported: windowSize(fileDescriptor)?.columns, environment: environmentVariables())
    }

    /// The terminal's rows on `fileDescriptor` now.
    ///
    /// - Parameter fileDescriptor: A descriptor open on the terminal.
    public static func currentRows(fileDescriptor: Int32) -> Int {
        rows(reported: windowSize(fileDescriptor)?.rows, environment: environmentVariables())
    }

    /// `TIOCGWINSZ`, or nil when `fileDescriptor` is not a terminal.
    static func windowSize(_ fileDescriptor: Int32) -> (columns: Int, rows: Int)? {
        #if os(Linux) || os(macOS)
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
        #else
        return nil
        #endif
    }

    /// `COLUMNS` and `LINES` from the environment, read with getenv so Foundation is not needed.
    static func environmentVariables() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["COLUMNS", "LINES"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

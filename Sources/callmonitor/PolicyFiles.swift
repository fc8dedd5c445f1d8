// The files `callmonitor policy` reads (issue 38): a document, a key set, a payload, a PEM, or
// `-` for standard input. Each is read up to a limit and one byte more, so a 10 MB file is
// refused as too large without being read whole; every way a file cannot be read is one plain
// line naming the path, never its contents.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

enum PolicyFiles {
    /// Why a file could not be read: the line the tool prints (exit status 2).
    struct Unreadable: Error, Equatable {
        let message: String
    }

    /// The bytes of `path` (`-`: standard input), at most `limit + 1` of them: a caller that sees
    /// more than `limit` knows the file is too long. An empty file is unreadable: no command has
    /// anything to do with one.
    static func read(_ path: String, limit: Int) throws(Unreadable) -> [UInt8] {
        let name = path == "-" ? "standard input" : path
        let bytes: [UInt8]
        if path == "-" {
            bytes = Array(FileHandle.standardInput.readData(ofLength: limit + 1))
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw Unreadable(message: "cannot read \(name): no such file")
            }
            guard !isDirectory.boolValue else { throw Unreadable(message: "cannot read \(name): it is a directory") }
            guard let handle = FileHandle(forReadingAtPath: path) else { throw Unreadable(message: "cannot read \(name): permission denied") }
            defer { try? handle.close() }
            bytes = Array(handle.readData(ofLength: limit + 1))
        }
        guard !bytes.isEmpty else { throw Unreadable(message: "\(name) is empty") }
        return bytes
    }

    /// A NumericDate (`1767830400`, fractions allowed) or an ISO 8601 date-time with its offset
    /// (`2026-01-08T00:00:00Z`, `…T01:00:00.5+01:00`): the instant `--at` names.
    static func instant(_ text: String) -> Date? {
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }), let seconds = Double(text), seconds.isFinite {
            return Date(timeIntervalSince1970: seconds)
        }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// `2026-01-08T00:00:00Z (1767830400)`: an instant as people and documents write it.
    static func describe(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = seconds.rounded() == seconds ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        let numeric = seconds.rounded() == seconds && seconds.magnitude < 1e15 ? String(Int64(seconds)) : String(seconds)
        return "\(formatter.string(from: Date(timeIntervalSince1970: seconds))) (\(numeric))"
    }

    /// At most `limit` characters of a user's word, for a message that must not echo a whole input.
    static func clipped(_ text: String, limit: Int = 40) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }

    /// Why no folder can be made at `path`, as the user wrote it: the file in the way (the path
    /// itself, or a folder above it that is a file), else the nearest folder that exists, which
    /// this user cannot write in.
    static func obstacle(on path: String) -> String {
        var prefix = path
        while prefix.count > 1, prefix.hasSuffix("/") { prefix.removeLast() }
        while !prefix.isEmpty {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: prefix, isDirectory: &isDirectory) {
                return isDirectory.boolValue ? "cannot write in \(prefix)" : "\(prefix) is a file, not a folder"
            }
            guard let slash = prefix.lastIndex(of: "/") else { break }
            prefix = slash == prefix.startIndex ? "/" : String(prefix[..<slash])
        }
        return "cannot write in the current folder"
    }

    /// Writes `bytes` to a new file at `path` with permissions `mode` (less what the umask takes
    /// away: 0600 stays private whatever the umask), refusing (`EEXIST`) when
    /// anything is there already: created with `O_EXCL`, so no race can make it replace a key.
    static func create(_ path: String, _ bytes: [UInt8], mode: mode_t) throws(Unreadable) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard fd >= 0 else {
            throw Unreadable(message: errno == EEXIST ? "\(path) exists" : "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Unreadable(message: "cannot write \(path): \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Replaces the file at `path` by `bytes` in one step (a new file renamed over it), so a
    /// reader sees the old key or the new one, never half of either.
    static func replace(_ path: String, _ bytes: [UInt8], mode: mode_t) throws(Unreadable) {
        let temporary = "\(path).new-\(getpid())"
        try create(temporary, bytes, mode: mode)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Unreadable(message: "cannot write \(path): \(reason)")
        }
    }

    /// `20261203T150400Z`: the instant a backup was made, for its name.
    static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        return formatter.string(from: date)
    }
}

// The recorder behind `startRecording(to:maxBytes:)`: the monitor's step observer (hnb's seam,
// issue 39), so the core hands it every input it runs and the actions that input caused; it asks SessionScript for the lines and queues them for a
// writer thread. The main thread never waits for the disk; the only wait is a short one right
// before a force exit, so the exit line is in the file when the process is gone.

import Dispatch
import hnb
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One recording: the script on the main actor, the file on a serial queue of its own.
@MainActor
final class SessionRecorder: MonitorStepObserver {
    nonisolated let writer: RecordingWriter
    private var script: SessionScript?
    /// The instant the recording started, when it could be read where it started (the main
    /// thread, or a clock readable on any thread); else the first step's.
    private let origin: Int64?
    private let maxBytes: Int
    /// Bytes handed to the writer so far: counted here, so that at most `maxBytes` ever wait in
    /// the queue (the writer's buffer is bounded by the file's bound).
    private var queued: Int
    /// Whether the file reached `maxBytes` and took its last line.
    private var full = false

    /// The last line of a recording stopped by the app.
    nonisolated static let stoppedLine = "# recording stopped by the app\n"

    /// The truncation comment, the file's last line once it is full.
    nonisolated static func truncationLine(maxBytes: Int) -> String {
        "# recording stopped: the file reached its maxBytes of \(maxBytes) bytes; the session went on unrecorded\n"
    }

    nonisolated init(writer: RecordingWriter, header: String, maxBytes: Int, origin: Int64?) {
        self.writer = writer
        self.origin = origin
        self.maxBytes = maxBytes
        queued = header.utf8.count
        writer.append(header)
    }

    /// Records one step: the input's lines, then its outputs.
    func step(_ input: MonitorEngine.Input, now: Int64, sensed: MonitorEngine.Sensors?, shownToken: UInt64?, actions: [MonitorEngine.Action]) {
        guard !full, writer.isOpen else { return }
        var script = self.script ?? SessionScript(origin: origin ?? now)
        let lines = script.lines(for: input, now: now, sensed: sensed, shownToken: shownToken)
        let outputs = script.lines(for: actions, now: now)
        self.script = script
        append(lines + outputs)
    }

    /// Records a tap that reached no monitor code (``CallMonitor/tapWithNothingToPress()``).
    func tapWithNothingToPress(now: Int64, presentationShown: Bool) {
        guard !full, writer.isOpen else { return }
        let script = self.script ?? SessionScript(origin: origin ?? now)
        let line = script.tapWithNothingToPress(now: now, presentationShown: presentationShown)
        self.script = script
        append([line])
    }

    /// Queues the lines of one step, or ends the file when they do not fit.
    private func append(_ all: [String]) {
        guard !all.isEmpty else { return }
        let text = all.joined(separator: "\n") + "\n"
        let size = text.utf8.count
        let last = Self.truncationLine(maxBytes: maxBytes)
        // Whole steps only: a step that does not fit (with room left for the last comment) is
        // not begun, so the file ends on a line the simulator reads.
        if queued + size + last.utf8.count > maxBytes {
            full = true
            writer.finish(with: last)
            return
        }
        queued += size
        writer.append(text)
    }

    /// Waits, briefly, for the queued lines to reach the file: the process is about to end.
    func beforeExit() {
        writer.waitUntilWritten(timeoutNanoseconds: 250_000_000)
    }
}

/// The file of a recording, written on a serial queue: appends, then one last line and the close.
/// A write error closes it and is reported once on standard error; nothing after it is written.
final class RecordingWriter: Sendable {
    private let queue = DispatchQueue(label: "hnb.recording", qos: .utility)
    private struct State {
        var fd: Int32
        /// Set by `finish` (on the caller's thread) and by a write error (on the queue).
        var open = true
    }
    private let state: Locked<State>
    /// The descriptor, `-1` once closed; only read on the queue.
    private var fdOnQueue: Int32 { state.value.fd }
    /// How a write error is reported: standard error by default; tests read it.
    private let report: @Sendable (String) -> Void

    init(fd: Int32, report: @escaping @Sendable (String) -> Void = { FileDescriptorOutput.write($0, to: 2) }) {
        state = Locked(State(fd: fd))
        self.report = report
    }

    /// Opens `path` for a new recording (created, or emptied; readable by the user only).
    static func open(path: String) throws -> Int32 {
        let fd = path.withCString { posixOpen($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw CallMonitor.RecordingError(path: path, reason: String(cString: strerror(errno))) }
        return fd
    }

    /// Whether lines are still taken (no `finish`, no write error).
    var isOpen: Bool { state.value.open }

    func append(_ text: String) {
        queue.async { [self] in write(text) }
    }

    /// Writes `last` (if any) after everything queued, then closes the file; later appends are dropped.
    func finish(with last: String?) {
        let wasOpen = state.withLock { state -> Bool in
            defer { state.open = false }
            return state.open
        }
        guard wasOpen else { return }
        queue.async { [self] in
            if let last { write(last) }
            let fd = state.withLock { state -> Int32 in
                defer { state.fd = -1 }
                return state.fd
            }
            if fd >= 0 { close(fd) }
        }
    }

    /// Blocks until what was queued before it is written, or `timeoutNanoseconds` pass.
    func waitUntilWritten(timeoutNanoseconds: Int64) {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        _ = done.wait(timeout: .now() + .nanoseconds(Int(timeoutNanoseconds)))
    }

    /// write(2) until every byte is out; an error stops the recording, said once.
    private func write(_ text: String) {
        // Lines queued before `finish` are written: only the close or an error ends the file.
        let fd = fdOnQueue
        guard fd >= 0 else { return }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { posixWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let reason = written < 0 ? String(cString: strerror(errno)) : "nothing written"
                let first = state.withLock { state -> Bool in
                    defer { state.open = false; state.fd = -1 }
                    return state.fd >= 0
                }
                if first {
                    close(fd)
                    report("hnb: the session recording stopped: a write failed (\(reason)); nothing more is recorded\n")
                }
                return
            }
            offset += written
        }
    }
}

/// open(2) and write(2) under names that do not clash with the methods above.
private func posixOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }

// Split out of StreamingTests.swift so that each file holds one suite, named as the file (issue 39).

import Dispatch
import Foundation
import Testing

#if canImport(Glibc)
import Glibc

#endif
import hnbTesting

/// The peak resident memory of process `pid` (VmHWM), in kilobytes; nil if it cannot be read.
private func peakMemoryKB(of pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
    return nil
}

@Suite("simulate streams its transcript")
struct SimulateStreamingTests {
    @Test("A countdown of 68 years prints from the start, and memory stays flat while it prints")
    func longScenarioStreams() async throws {
        let process = Process()
        process.executableURL = toolURL
        process.arguments = ["simulate", "-"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("0 start terminate 2147483647\n0 incoming A\n9000000000 wait\n".utf8))
        try input.fileHandleForWriting.close()
        let pid = process.processIdentifier
        let exited = AsyncStream<Void> { continuation in
            process.terminationHandler = { _ in
                continuation.yield()
                continuation.finish()
            }
        }
        // A tool that keeps the transcript until the end prints nothing for hours: stop it after
        // a while, so that the test fails instead of hanging.
        DispatchQueue.global().asyncAfter(deadline: .now() + Patience.seconds) { kill(pid, SIGKILL) }
        let fd = output.fileHandleForReading.fileDescriptor
        let (first, early, late, total) = await withCheckedContinuation { (done: CheckedContinuation<(String, Int?, Int?, Int), Never>) in
            DispatchQueue.global().async {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                var total = 0
                var first = ""
                var early: Int?
                while total < 12_000_000 {
                    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    if first.isEmpty { first = String(decoding: buffer[..<count].prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self) }
                    total += count
                    if early == nil && total >= 2_000_000 { early = peakMemoryKB(of: pid) }
                }
                let late = peakMemoryKB(of: pid)
                kill(pid, SIGKILL)
                done.resume(returning: (first, early, late, total))
            }
        }
        for await _ in exited {}
        try? output.fileHandleForReading.close()
        #expect(first == #"{"t":0,"kind":"event","event":"ringing"}"#)
        #expect(total >= 12_000_000, "the tool printed \(total) bytes before it was stopped")
        let earlyKB = try #require(early)
        let lateKB = try #require(late)
        // 10 MB more transcript written, and less than 4 MB more memory at its peak.
        #expect(lateKB - earlyKB < 4_096, "peak memory grew from \(earlyKB) kB to \(lateKB) kB while printing 10 MB")
    }
}

// Split out of TelephonyEndToEndTests.swift so that each file holds one suite, named as the file
// (issue 39); it uses that file's lab helpers (withLab, telephonyLabRuns).

// The telephony types are compiled only on Linux.
#if os(Linux)

import Foundation
import Testing
#if Telephony && os(Linux)
import hnb
import hnbTesting
#endif

/// `watch`'s command line, checked in every build: options are read before telephony is needed.
@Suite("callmonitor watch: command line")
struct WatchCommandLineTests {
    @Test("watch --help and help watch print the options on stdout with status 0")
    func help() async throws {
        for arguments in [["watch", "--help"], ["help", "watch"]] {
            let result = try await runTool(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("usage: callmonitor watch [--backend modemmanager|ofono|auto] [--flow terminate|acknowledge] [--seconds N] [--language CODE] [--no-exit] [--record FILE]\n"))
            #expect(result.stdout.contains("  --no-exit                           report the force exit instead of performing it\n"))
            #expect(result.stdout.contains("  --record FILE                       record the monitor's session to FILE (replay it with\n"))
            #expect(result.stderr == "")
        }
    }

    @Test("bad options are refused with status 2 and a clear message, before anything connects", arguments: [
        (["--backend", "telepathy"], "callmonitor: --backend must be modemmanager, ofono or auto\n"),
        (["--flow", "exit"], "callmonitor: --flow must be terminate or acknowledge\n"),
        (["--seconds", "3601"], "callmonitor: --seconds must be a whole number from 0 to 3600\n"),
        (["--seconds", "-1"], "callmonitor: --seconds must be a whole number from 0 to 3600\n"),
    ])
    func badOptions(arguments: [String], message: String) async throws {
        let result = try await runTool(["watch"] + arguments)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == message)
    }

    @Test("a stray word or an unknown option is refused with the watch help")
    func strayWords() async throws {
        let stray = try await runTool(["watch", "now"])
        #expect(stray.status == 2)
        #expect(stray.stderr.hasPrefix("callmonitor: watch takes no arguments besides its options\nusage: callmonitor watch "))
        let unknown = try await runTool(["watch", "--backnd", "ofono"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("callmonitor: unknown option --backnd"))
    }

    @Test("a recording that cannot be written is refused with status 2 before anything is watched")
    func recordToBadPath() async throws {
        let result = try await runTool(["watch", "--record", "/nonexistent/callmonitor/session.scenario"])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #if Telephony
        #expect(result.stderr == "callmonitor: cannot record to /nonexistent/callmonitor/session.scenario: No such file or directory\n")
        #else
        #expect(result.stderr == "callmonitor: watch needs telephony support: build with `swift build --traits Telephony` on Linux (Debian: apt-get install libdbus-1-dev)\n")
        #endif
    }
}

#endif

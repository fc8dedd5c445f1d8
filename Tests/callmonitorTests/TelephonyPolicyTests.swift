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

#if Telephony && os(Linux)

/// The README's oFono grant, for the user `nobody` rather than a group (the lab does not add
/// groups to the machine); the rules are the same.
let ofonoReadGrant = """
  <policy user="nobody">
    <allow send_destination="org.ofono" send_interface="org.ofono.Manager" send_member="GetModems"/>
    <allow send_destination="org.ofono" send_interface="org.ofono.VoiceCallManager" send_member="GetCalls"/>
  </policy>
"""

@Suite("Telephony end to end: D-Bus policy (unprivileged watch)", .serialized, .enabled(if: telephonyLabRuns, "needs root and the telephony packages; see the availability test"))
struct TelephonyPolicyTests {
    @Test("oFono's stock policy refuses an unprivileged reader: the typed error is reported, and calls are still seen from signals")
    func ofonoStockPolicy() async throws {
        try await withLab(.ofono, policy: .stock(extra: nil)) { lab in
            let watch = try lab.watch(["--backend", "ofono", "--flow", "acknowledge", "--seconds", "0"], asNobody: true)
            try await watch.output!.waitFor(#""complete":true"#, "the first call list")
            try await lab.network("ring +15550001")
            try await watch.output!.waitFor(#""kind":"alert""#, "the dialog")
            kill(watch.process.processIdentifier, SIGTERM)
            _ = try await watch.waitForExit()
            try await watch.output!.waitForEnd()
            let lines = watch.output!.snapshot.map(WatchLine.withoutTime)
            try #require(lines.count == 7, "\(lines)")
            #expect(lines[0] == WatchLine.watch("ofono", "acknowledge flow, button after 0 s"))
            #expect(lines[1].hasPrefix(#"{"kind":"telephony","status":"failed","error":"the D-Bus policy denies access: Rejected send message"#), "\(lines[1])")
            #expect(lines[1].contains(#"interface=\"org.ofono.Manager\" member=\"GetModems\""#), "\(lines[1])")
            #expect(Array(lines[2...]) == [
                WatchLine.calls(complete: true, []),
                WatchLine.calls(complete: false, [(callPath(.ofono, 1), "ringing", false)]),
                WatchLine.event("ringing"),
                WatchLine.acknowledgeAlert,
                WatchLine.stoppedByTerm,
            ])
        }
    }

    @Test("with the README's grant an unprivileged reader gets the full list, a call in progress included")
    func ofonoGrantedPolicy() async throws {
        try await withLab(.ofono, policy: .stock(extra: ofonoReadGrant)) { lab in
            try await lab.network("ring +15550001")
            try await lab.poll("the call to ring") { (try? await lab.callPath("incoming")) != nil }
            try await lab.answer()
            try await lab.poll("the call to be active") { (try? await lab.callPath("active")) != nil }
            let watch = try lab.watch(["--backend", "ofono", "--flow", "acknowledge", "--seconds", "0"], asNobody: true)
            try await watch.output!.waitFor(#""kind":"alert""#, "the dialog")
            kill(watch.process.processIdentifier, SIGTERM)
            _ = try await watch.waitForExit()
            try await watch.output!.waitForEnd()
            #expect(watch.output!.snapshot.map(WatchLine.withoutTime) == [
                WatchLine.watch("ofono", "acknowledge flow, button after 0 s"),
                WatchLine.telephony("watching", "ofono"),
                WatchLine.calls(complete: true, [(callPath(.ofono, 1), "connected", false)]),
                WatchLine.event("started"),
                WatchLine.acknowledgeAlert,
                WatchLine.stoppedByTerm,
            ])
        }
    }

    @Test("ModemManager's stock policy already lets an unprivileged reader list and follow calls")
    func modemManagerStockPolicy() async throws {
        try await withLab(.modemManager, policy: .stock(extra: nil)) { lab in
            try await lab.network("ring +15550001")
            try await lab.poll("the call to ring") { (try? await lab.callPath("ringing-in")) != nil }
            let watch = try lab.watch(["--backend", "modemmanager", "--flow", "acknowledge", "--seconds", "0"], asNobody: true)
            try await watch.output!.waitFor(#""kind":"alert""#, "the dialog")
            try await lab.answer()
            try await watch.output!.waitFor(#""state":"connected""#, "the answered call")
            kill(watch.process.processIdentifier, SIGTERM)
            _ = try await watch.waitForExit()
            try await watch.output!.waitForEnd()
            let a = callPath(.modemManager, 1)
            #expect(watch.output!.snapshot.map(WatchLine.withoutTime) == [
                WatchLine.watch("modemmanager", "acknowledge flow, button after 0 s"),
                WatchLine.telephony("watching", "modemmanager"),
                WatchLine.calls(complete: true, [(a, "ringing", false)]),
                WatchLine.event("ringing"),
                WatchLine.acknowledgeAlert,
                WatchLine.calls(complete: false, [(a, "connected", false)]),
                WatchLine.event("started"),
                WatchLine.stoppedByTerm,
            ])
        }
    }
}

#endif

#endif

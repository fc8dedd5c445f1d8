// Split out of TelephonyMappingTests.swift so that each file holds one suite, named as the file (issue 39).

#if os(Linux)
// The telephony types are compiled only on Linux.
import Foundation

import Testing
@testable import hnb
import hnbTesting

#endif
@Suite("Telephony: the modem and call table both trackers share", .nothingLeftScheduled)
struct CallTableTests {
    @Test("a call stored before any modem listed it (its CallAdded was missed) still ends with the modem that lists it later")
    func callListedLaterEndsWithModem() {
        var table = CallTable()
        table.updateCall("/call/1") { $0.hasConnected = true }
        #expect(!table.hasVoiceModem)
        table.listCalls(["/call/1"], on: "/modem/0")
        #expect(table.hasVoiceModem)
        table.removeModem("/modem/0")
        #expect(table.snapshots.isEmpty)
        #expect(!table.hasVoiceModem)
    }

    @Test("a modem's calls end with it, other modems' calls stay; a removed call leaves its modem known")
    func modemsAndCalls() {
        var table = CallTable()
        table.addModem("/modem/0")
        table.setCall("/call/1", modem: "/modem/0", CallSnapshot(id: CallID("/call/1")))
        table.setCall("/call/2", modem: "/modem/1", CallSnapshot(id: CallID("/call/2"), hasConnected: true))
        table.setCall("/call/3", modem: "/modem/0", CallSnapshot(id: CallID("/call/3")))
        table.removeCall("/call/3", from: "/modem/0")
        #expect(table.hasModem("/modem/0") && table.hasModem("/modem/1"))
        table.removeModem("/modem/0")
        #expect(table.snapshots == [CallSnapshot(id: CallID("/call/2"), hasConnected: true)])
        #expect(!table.hasModem("/modem/0"))
        #expect(table.snapshot(of: "/call/9") == CallSnapshot(id: CallID("/call/9")))
        table.removeAll()
        #expect(table.snapshots.isEmpty && !table.hasVoiceModem)
    }
}

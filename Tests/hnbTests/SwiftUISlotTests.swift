// Issue 30, SwiftUI: the logic of `callMonitorProtection(terminateIn:context:)` without SwiftUI:
// one protection however often the screen appears, ended when it disappears.

import Testing
@testable import hnb
import hnbSwiftUI
import hnbTesting

@MainActor
@Suite("SwiftUI: the protection slot behind the view modifiers", .nothingLeftScheduled)
struct SwiftUISlotTests {
    @Test("onAppear twice begins one protection; onDisappear ends it, and the warning goes with it")
    func appearTwiceBeginsOnce() throws {
        let h = Harness()
        let slot = ProtectionSlot()
        let request = ProtectionRequest(flow: .terminate, seconds: 5, context: CallMonitorContext(kind: .payment, detail: "To M."))
        slot.appear(request, on: h.monitor)
        let first = try #require(slot.protection)
        slot.appear(request, on: h.monitor)
        #expect(slot.protection === first)
        try h.calls.incoming("A")
        h.advance(1)
        #expect(h.renderer.current?.detail == "To M.")
        slot.disappear()
        #expect(slot.protection == nil)
        slot.disappear()
        // The only policy ended: the warning is dismissed (and the call is followed silently).
        #expect(h.take() == ["0 event ringing", "0 alert terminate 5 button=Close App", "1 alert terminate 4 button=Close App", "1 dismiss"])
        #expect(h.engineOutcomes.map(\.ending) == [.monitoringStopped])
        try h.calls.end("A")
    }

    @Test("callMonitorProtection(acknowledgeIn:context:) hands its context to the protection: the dialog shows it")
    func acknowledgeKeepsContext() throws {
        let h = Harness()
        let slot = ProtectionSlot()
        slot.appear(ProtectionRequest(flow: .acknowledge, seconds: 2, context: CallMonitorContext(kind: .payment, detail: "To M.")), on: h.monitor)
        try h.calls.incoming("A")
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 2 button=-"])
        #expect(h.renderer.current?.detail == "To M.")
        slot.disappear()
        try h.calls.end("A")
    }

    @Test("Fail closed: a screen that appears again after disappearing is guarded again; one that never disappears stays guarded")
    func appearAgain() throws {
        let h = Harness()
        let slot = ProtectionSlot()
        let request = ProtectionRequest(flow: .acknowledge, seconds: 2, context: nil)
        slot.appear(request, on: h.monitor)
        slot.disappear()
        slot.appear(request, on: h.monitor)
        try h.calls.incoming("A")
        #expect(h.take() == ["0 event ringing", "0 alert acknowledge 2 button=-"])
        #expect(h.monitor.isMonitoring)
        try h.calls.end("A")
        slot.disappear()
        #expect(!h.monitor.isMonitoring)
    }
}

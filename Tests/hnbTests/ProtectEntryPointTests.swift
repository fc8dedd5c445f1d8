// One protect entry point per flow (issue 39): the name and the context are optional, and
// Objective-C's one selector per flow turns its kind and detail strings into the context.

import Testing
@testable import hnb
import hnbTesting

@Suite("protect: one entry point per flow, Objective-C's context strings")
struct ProtectEntryPointTests {
    @Test("Objective-C's contextKind and detail: neither is no context, a kind alone has no detail, a detail alone is general, an unknown kind is general")
    func objectiveCContextStrings() {
        #expect(CallMonitorContext.objc(kind: nil, detail: nil) == nil)
        #expect(CallMonitorContext.objc(kind: "payment", detail: nil) == CallMonitorContext(kind: .payment))
        #expect(CallMonitorContext.objc(kind: nil, detail: "Sending €20") == CallMonitorContext(kind: .general, detail: "Sending €20"))
        #expect(CallMonitorContext.objc(kind: "Payment", detail: "x") == CallMonitorContext(kind: .general, detail: "x"))
        #expect(CallMonitorContext.objc(kind: "deviceChange", detail: "x") == CallMonitorContext(kind: .deviceChange, detail: "x"))
    }

    @Test("Objective-C's operationID: carried with the kind and detail; alone it is a general context; all three nil is none")
    func objectiveCOperationID() {
        #expect(CallMonitorContext.objc(kind: nil, detail: nil, operationID: nil) == nil)
        let payment = CallMonitorContext.objc(kind: "payment", detail: "Sending €20", operationID: "TX-9")
        #expect(payment == CallMonitorContext(kind: .payment, detail: "Sending €20", operationID: "TX-9"))
        #expect(payment?.operationID == "TX-9")
        #expect(CallMonitorContext.objc(kind: nil, detail: nil, operationID: "TX-9") == CallMonitorContext(kind: .general, operationID: "TX-9"))
        // The operation id is part of the context: the same kind and detail without it differ.
        #expect(payment != CallMonitorContext(kind: .payment, detail: "Sending €20"))
    }

    @Test("A named acknowledge protection with a context is one call; its end ends it", arguments: [CallMonitorFlow.terminate, .acknowledge])
    @MainActor
    func namedWithContext(flow: CallMonitorFlow) throws {
        let h = Harness()
        let context = CallMonitorContext(kind: .payment, detail: "Sending €20")
        let protection = flow == .terminate
            ? h.monitor.protect(named: "transfer", withTerminateIn: 4, context: context)
            : h.monitor.protect(named: "transfer", withAcknowledgeIn: 4, context: context)
        try h.calls.incoming("A")
        #expect(h.monitor.currentSecurityEvent?.context == context)
        #expect(h.monitor.currentSecurityEvent?.flow == flow)
        protection.end()
        #expect(h.monitor.currentSecurityEvent == nil)
    }
}

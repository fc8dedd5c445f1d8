// Split out of MailboxTests.swift so that each file holds one suite, named as the file (issue 39).

import Testing
@testable import hnb
@testable import hnbPolicy
import hnbTesting

@Suite("Mailbox: merging waiting deliveries", .nothingLeftScheduled)
struct MailboxMergeTests {
    @Test("Deliveries merged in one burst keep each call's latest snapshot, not its first")
    func mergeKeepsLatestSnapshot() {
        let box = Mailbox()
        let ringing = CallSnapshot(id: CallID("A"))
        let connected = CallSnapshot(id: CallID("A"), hasConnected: true)
        let b = CallSnapshot(id: CallID("B"))
        #expect(box.post(calls: .changes([ringing]), generation: 1) == true)
        #expect(box.post(calls: .changes([b, connected]), generation: 1) == false)
        let taken = box.takeAll()
        #expect(taken.count == 1)
        guard case .calls(let batch, let generation)? = taken.first else {
            Issue.record("expected one call delivery, got \(taken.map(\.label))")
            return
        }
        #expect(generation == 1)
        #expect(batch == .changes([connected, b]))
    }
}

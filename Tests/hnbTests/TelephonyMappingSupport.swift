// The D-Bus telephony mapping without daemons: recorded message sequences of ModemManager 1.20
// and oFono 1.31 (shapes, serials and orders as dbus-monitor showed them in the end-to-end lab)
// are played into the session, and each test asserts the exact statuses and call batches out.

#if os(Linux)
// The telephony types are compiled only on Linux.
import Foundation

import Testing
@testable import hnb
import hnbTesting

/// A bus that answers method calls from a recording, in order, and fails the test on any call
/// the recording does not expect.
final class RecordedBus: TelephonyBus {
    var script: [(BusMethodCall, Result<BusMessage, Telephony.Error>)]
    let sourceLocation: SourceLocation

    init(_ script: [(BusMethodCall, Result<BusMessage, Telephony.Error>)] = [], sourceLocation: SourceLocation = #_sourceLocation) {
        self.script = script
        self.sourceLocation = sourceLocation
    }

    /// Adds the replies for the next step of a test.
    func expect(_ calls: [(BusMethodCall, Result<BusMessage, Telephony.Error>)]) {
        script += calls
    }

    func call(_ call: BusMethodCall) throws(Telephony.Error) -> BusMessage {
        guard !script.isEmpty else {
            Issue.record("unexpected call \(call)", sourceLocation: sourceLocation)
            throw .callFailed(name: "test.Unexpected", message: "\(call)")
        }
        let (expected, reply) = script.removeFirst()
        #expect(call == expected, sourceLocation: sourceLocation)
        return try reply.get()
    }

    /// Checks that every recorded call was made.
    func verifyDone(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(script.isEmpty, "calls the code did not make: \(script.map(\.0))", sourceLocation: sourceLocation)
    }
}

// MARK: Building recorded messages

// MARK: Expected snapshots

// MARK: Choosing the daemon

// MARK: ModemManager

// MARK: oFono

// MARK: Replaying recordings of the real daemons

#endif

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

@Suite("Telephony end to end: availability")
struct TelephonyLabAvailabilityTests {
    @Test("the lab can run here, or the skip is said plainly (and fails where it is required)")
    func availability() {
        guard let reason = TelephonyLab.unavailableReason else { return }
        print("TELEPHONY END-TO-END TESTS SKIPPED: \(reason)")
        if ProcessInfo.processInfo.environment["CALLMONITOR_REQUIRE_TELEPHONY_E2E"] == "1" {
            Issue.record("the telephony end-to-end tests are required here but cannot run: \(reason)")
        }
    }
}

#endif

#endif

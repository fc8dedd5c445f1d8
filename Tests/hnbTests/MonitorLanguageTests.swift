// Split out of LocalizationTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

@MainActor
@Suite("Language of a running monitor", .nothingLeftScheduled)
struct MonitorLanguageTests {
    @Test("setLanguage redraws the dialog on screen in the new language; a delegate gets numbers only")
    func setLanguageRedraws() throws {
        let h = Harness()
        h.monitor.startMonitoring(withTerminateIn: 5)
        try h.calls.incoming("A")
        #expect(h.renderer.current?.title == "Security Policy")
        h.monitor.setLanguage("uk")
        #expect(h.renderer.current?.title == "Політика безпеки")
        #expect(h.renderer.current?.countdown == "Застосунок закриється через 5 секунд.")
        h.advance(4)
        #expect(h.renderer.current?.countdown == "Застосунок закриється через 1 секунду.")
        #expect(h.take() == [
            "0 event ringing", "0 alert terminate 5 button=Close App", "0 alert terminate 5 button=Закрити застосунок",
            "1 alert terminate 4 button=Закрити застосунок", "2 alert terminate 3 button=Закрити застосунок",
            "3 alert terminate 2 button=Закрити застосунок", "4 alert terminate 1 button=Закрити застосунок",
        ])
    }
}

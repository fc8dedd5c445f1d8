// Split out of ContextTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

@Suite("Context: the detail is cleaned before it is drawn")
struct ContextDetailTests {
    @Test("A right-to-left override in a payee name is removed, so it cannot reverse the sentence around it")
    func bidiOverrideRemoved() throws {
        // What a scammer types as the payee: the override makes "nahcsiM .M" read as "M. Mischan"
        // and, unclosed, reverses everything after it on the line.
        let raw = "You are sending €2,000 to \u{202E}nahcsiM .M\u{202C} for rent."
        let context = CallMonitorContext(kind: .payment, detail: raw)
        #expect(context.detail == "You are sending €2,000 to nahcsiM .M for rent.")
        let drawn = try #require(context.detail)
        #expect(!drawn.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
        // And it reaches the dialog that way.
        let alert = SecurityAlert(flow: .terminate, remaining: 5, strings: .english, context: context)
        #expect(alert.detail == "You are sending €2,000 to nahcsiM .M for rent.")
        #expect(alert.kindLine == "Your bank will never ask you to move money while you are on a call.")
    }

    @Test("Every bidirectional control is removed: embeddings, overrides, isolates and marks")
    func everyBidiControlRemoved() {
        let controls: [UInt32] = [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C]
        for value in controls {
            let scalar = String(Character(Unicode.Scalar(value)!))
            #expect(ContextDetail.clean("a\(scalar)b") == "ab", "U+\(String(value, radix: 16, uppercase: true))")
        }
    }

    @Test("Control and zero-width characters are removed; white space of every kind collapses to one space")
    func controlsZeroWidthAndWhiteSpace() {
        #expect(ContextDetail.clean("M.\u{200B}Muster\u{200C}\u{200D}mann\u{2060}\u{FEFF}") == "M.Mustermann")
        #expect(ContextDetail.clean("bell\u{0085}next") == "bell next")
        #expect(ContextDetail.clean("  one\n\ntwo\t\tthree\u{2028}four\u{00A0}\u{3000}five  ") == "one two three four five")
        #expect(ContextDetail.clean("soft\u{00AD}hyphen") == "softhyphen")
        // A hidden character between two spaces leaves one space, not two.
        #expect(ContextDetail.clean("a \u{200B} b") == "a b")
    }

    @Test("Control characters that are not white space are removed without a trace")
    func controlsRemovedExactly() {
        #expect(ContextDetail.clean("\u{0007}bell\u{0000}null\u{007F}del\u{001B}[31mred") == "bellnulldel[31mred")
    }

    @Test("Nothing left after cleaning is no detail; the kind stays")
    func emptyIsNil() {
        #expect(ContextDetail.clean("") == nil)
        #expect(ContextDetail.clean(" \n\t\u{202E}\u{200B} ") == nil)
        let context = CallMonitorContext(kind: .credentials, detail: "\u{202E}\u{2066}")
        #expect(context.detail == nil)
        #expect(context.kind == .credentials)
        #expect(CallMonitorContext(kind: .general).detail == nil)
    }

    @Test("Over 200 characters as a person counts them (grapheme clusters): the first 199 and an ellipsis")
    func cutAt200Graphemes() throws {
        // "é" as e + U+0301: two scalars, one character. 250 of them are cut to 199 and "…".
        let accented = String(repeating: "e\u{301}", count: 250)
        let cut = try #require(ContextDetail.clean(accented))
        #expect(cut.count == 200)
        #expect(cut == String(repeating: "e\u{301}", count: 199) + "…")
        // Exactly 200 stays as it is.
        let flags = String(repeating: "🇩🇪", count: 200)
        #expect(ContextDetail.clean(flags) == flags)
        // A cut that lands after a space drops the space before the ellipsis.
        let words = String(repeating: "a", count: 198) + " bcdef"
        #expect(ContextDetail.clean(words) == String(repeating: "a", count: 198) + "…")
    }

    @Test("An Objective-C kind name that is not a case is general: the warning and the detail stay")
    func unknownKindNameIsGeneral() {
        #expect(CallMonitorContext.kind(named: "payment") == .payment)
        #expect(CallMonitorContext.kind(named: "deviceChange") == .deviceChange)
        #expect(CallMonitorContext.kind(named: "Payment") == .general)
        #expect(CallMonitorContext.kind(named: "") == .general)
        #expect(CallMonitorContext.Kind.allCases.map(\.rawValue) == ["payment", "credentials", "deviceChange", "accountChange", "general"])
    }

    @Test("Each kind but general adds its own line; general adds none")
    func kindLines() {
        let lines = CallMonitorContext.Kind.allCases.map { SecurityAlert.kindLine(CallMonitorContext(kind: $0), strings: .english) }
        #expect(lines == [
            "Your bank will never ask you to move money while you are on a call.",
            "Your bank will never ask for your PIN, passwords or codes on a call.",
            "Your bank will never ask you to install an app or add a device on a call.",
            "Your bank will never ask you to change your account details on a call.",
            nil,
        ])
        #expect(SecurityAlert.kindLine(nil, strings: .english) == nil)
    }
}

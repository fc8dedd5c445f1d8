// Split out of SharedPartsTests.swift so that each file holds one suite, named as the file (issue 39).

import Testing
import hnb
@testable import ScenarioLanguage
@testable import callmonitor

@Suite("callmonitor shared parts: flow and seconds")
struct PolicyWordsTests {
    @Test("A flow word is read exactly", arguments: [("terminate", CallMonitorFlow.terminate), ("acknowledge", .acknowledge)])
    func flowAccepted(word: String, flow: CallMonitorFlow) throws {
        #expect(try PolicyWords.flow(word) == flow)
        #expect(try PolicyWords.flow(word, option: "--flow") == flow)
    }

    @Test("A wrong flow word is refused with the scenario's message, naming the nearest word when it looks like a typo", arguments: [
        ("sometimes", "unknown flow 'sometimes': expected terminate or acknowledge"),
        ("observe", "unknown flow 'observe': expected terminate or acknowledge"),
        ("", "unknown flow '': expected terminate or acknowledge"),
        ("Terminate ", "unknown flow 'Terminate ': did you mean terminate?"),
        ("acknowlege", "unknown flow 'acknowlege': did you mean acknowledge?"),
        ("ack", "unknown flow 'ack': did you mean acknowledge?"),
    ])
    func flowRefusedInScenario(word: String, message: String) {
        #expect(throws: PolicyWordError(message: message)) { try PolicyWords.flow(word) }
    }

    @Test("A wrong --flow value is refused with the option's message and the same hint", arguments: [
        ("exit", "--flow must be terminate or acknowledge"),
        ("term", "--flow must be terminate or acknowledge: did you mean terminate?"),
        ("terminat", "--flow must be terminate or acknowledge: did you mean terminate?"),
        ("ack", "--flow must be terminate or acknowledge: did you mean acknowledge?"),
    ])
    func flowRefusedAsOption(word: String, message: String) {
        #expect(throws: PolicyWordError(message: message)) { try PolicyWords.flow(word, option: "--flow") }
    }

    @Test("A scenario's seconds: any whole number with a sign or leading zeros, clamped to Int32", arguments: [
        ("5", Int32(5)), ("0", 0), ("+7", 7), ("-3", -3), ("-0", 0), ("0007", 7), ("00000000000000000000042", 42),
        ("2147483647", .max), ("2147483648", .max), ("999999999999", .max), ("99999999999999999999999", .max),
        ("-2147483648", .min), ("-99999999999999999999999", .min),
    ])
    func secondsAccepted(word: String, seconds: Int32) throws {
        #expect(try PolicyWords.seconds(word) == seconds)
    }

    @Test("Anything but a whole number is refused, naming the word", arguments: [
        "five", "1.5", "", "-", "+", "--5", "5s", " 5", "1e3", "٣", "½", "0x10",
    ])
    func secondsRefused(word: String) {
        #expect(throws: PolicyWordError(message: "bad number '\(word)': expected a whole number of seconds")) { try PolicyWords.seconds(word) }
    }

    @Test("An option's seconds must be a whole number in 0...3600", arguments: [
        ("0", Int32?(0)), ("3600", 3600), ("+10", 10), ("0010", 10), ("3601", nil), ("-1", nil), ("99999999999999", nil), ("ten", nil), ("1.0", nil),
    ])
    func optionSeconds(word: String, seconds: Int32?) throws {
        if let seconds {
            #expect(try PolicyWords.seconds(word, option: "--seconds") == seconds)
        } else {
            #expect(throws: PolicyWordError(message: "--seconds must be a whole number from 0 to 3600")) {
                try PolicyWords.seconds(word, option: "--seconds")
            }
        }
    }

    @Test("The policy in words shows the clamps the monitor applies", arguments: [
        (CallMonitorFlow.terminate, Int32(5), "terminate flow, 5-second countdown"),
        (.terminate, 0, "terminate flow, 1-second countdown"),
        (.terminate, -9, "terminate flow, 1-second countdown"),
        (.acknowledge, 3, "acknowledge flow, button after 3 s"),
        (.acknowledge, -1, "acknowledge flow, button after 0 s"),
    ])
    func wording(flow: CallMonitorFlow, seconds: Int32, text: String) {
        #expect(PolicyWords.describe(flow, seconds: seconds) == text)
    }
}

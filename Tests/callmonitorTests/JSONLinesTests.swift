// Split out of SharedPartsTests.swift so that each file holds one suite, named as the file (issue 39).

import Testing
import hnb
@testable import ScenarioLanguage
@testable import callmonitor

@Suite("callmonitor shared parts: JSON Lines")
struct JSONLinesTests {
    @Test("Strings: quote, backslash and control characters escaped, the rest as UTF-8", arguments: [
        ("plain", #""plain""#),
        ("say \"hi\"", #""say \"hi\"""#),
        ("a\\b", #""a\\b""#),
        ("line\nend\r\ttab", #""line\nend\r\ttab""#),
        ("\u{0}\u{1}\u{8}\u{C}\u{1B}\u{1F}", #""\u0000\u0001\u0008\u000c\u001b\u001f""#),
        ("\u{7F} / é €😀", "\"\u{7F} / é €😀\""),
        ("", #""""#),
    ])
    func strings(text: String, json: String) {
        #expect(JSONText.quoted(text) == json)
        #expect(JSONValue.string(text).text == json)
    }

    @Test("Numbers: whole numbers, exact decimals, rounded figures; not finite is null", arguments: [
        (JSONValue.int(0), "0"), (.int(-42), "-42"), (.int(Int.max), "9223372036854775807"),
        (.seconds(0), "0"), (.seconds(3_000_000_000), "3"), (.seconds(1_500_000_000), "1.5"), (.seconds(1), "0.000000001"),
        (.seconds(9_000_000_000_000_000_000), "9000000000"), (.seconds(-1_250_000_000), "-1.25"),
        (.decimal(1500, places: 3, trimmingZeros: false), "1.500"), (.decimal(7, places: 3, trimmingZeros: false), "0.007"),
        (.decimal(0, places: 3, trimmingZeros: false), "0.000"), (.decimal(42, places: 0, trimmingZeros: false), "42"),
        (.decimal(Int64.min, places: 9, trimmingZeros: true), "-9223372036.854775808"),
        (.number(1.23456, places: 4), "1.2346"), (.number(2, places: 3), "2.0"), (.number(-0.5, places: 0), "-1.0"),
        (.number(.nan, places: 4), "null"), (.number(.infinity, places: 1), "null"), (.number(-.infinity, places: 1), "null"),
        (.bool(true), "true"), (.bool(false), "false"), (.null, "null"),
    ])
    func values(value: JSONValue, json: String) {
        #expect(value.text == json)
    }

    @Test("An object keeps its keys in order, nests objects and arrays, and writes nil as null")
    func nested() {
        var inner = JSONLine()
        inner.add("id", "/call/0")
        inner.add("outgoing", false)
        var line = JSONLine(t: 1_500_000_000, kind: "calls")
        line.add("missing", nil as String?)
        line.add("calls", .array([.object(inner), .array([]), .object(JSONLine()), .int(3)]))
        line.add("at", seconds: 2_000_000_001)
        line.add("count", 2)
        line.add("key \"q\"", "v")
        #expect(line.text == #"{"t":1.5,"kind":"calls","missing":null,"calls":[{"id":"/call/0","outgoing":false},[],{},3],"at":2.000000001,"count":2,"key \"q\"":"v"}"#)
    }

    @Test("Every line is written at once, with its line end and an optional prefix outside the JSON")
    func everyLine() {
        let written = Box<[String]>([])
        let writer = JSONLinesWriter(flushing: .everyLine) { written.value.append($0) }
        var object = JSONLine()
        object.add("a", 1)
        writer.write(object)
        writer.write(object, prefix: "BENCH ")
        writer.write(line: "{}")
        #expect(written.value == ["{\"a\":1}\n", "BENCH {\"a\":1}\n", "{}\n"])
        writer.flush()
        #expect(written.value.count == 3)
    }

    @Test("In blocks, lines wait until about the block size is reached, and flush writes the rest")
    func inBlocks() {
        let written = Box<[String]>([])
        let writer = JSONLinesWriter(flushing: .inBlocks(bytes: 10)) { written.value.append($0) }
        writer.write(line: "1234")
        #expect(written.value.isEmpty)
        writer.write(line: "5678")
        #expect(written.value == ["1234\n5678\n"])
        writer.write(line: "x")
        writer.flush()
        writer.flush()
        #expect(written.value == ["1234\n5678\n", "x\n"])
    }
}

/// A value the writer's output closure can append to.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

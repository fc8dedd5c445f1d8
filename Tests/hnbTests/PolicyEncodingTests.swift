// Split out of PolicyDocumentTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy

@Suite("Policy: base64url and JSON")
struct PolicyEncodingTests {
    @Test("Base64url round-trips every length and refuses padding, other alphabets, a lone character and stray bits")
    func base64URLStrict() {
        for length in 0..<20 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 250) }
            #expect(Base64URL.decode(Array(Base64URL.encode(bytes).utf8)) == bytes)
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode(Array("-_8".utf8)) == [0xFB, 0xFF])
        #expect(Base64URL.decode(Array("-_8=".utf8)) == nil)
        #expect(Base64URL.decode(Array("+/8".utf8)) == nil)
        #expect(Base64URL.decode(Array("QUJDR".utf8)) == nil)
        // "QQ" is "A"; "QR" sets bits past the byte and would decode to the same "A" leniently.
        #expect(Base64URL.decode(Array("QQ".utf8)) == [0x41])
        #expect(Base64URL.decode(Array("QR".utf8)) == nil)
        #expect(Base64URL.decode(Array("QUI".utf8)) == [0x41, 0x42])
        #expect(Base64URL.decode(Array("QUJ".utf8)) == nil)
        #expect(Base64URL.decode(Array("QU I".utf8)) == nil)
    }

    @Test("JSON keeps integers exact, refuses duplicate keys, bounds depth and reads only RFC 8259")
    func strictJSON() throws {
        #expect(try StrictJSON.parse(Array(#" {"a": [1, -0, 9223372036854775807, 1.5, "x\u00e9\ud83d\ude00", true, null]} "#.utf8))
            == .object([("a", .array([.integer(1), .integer(0), .integer(.max), .number(1.5, literal: "1.5"), .string("xé😀"), .bool(true), .null]))]))
        #expect(throws: StrictJSON.Failure.duplicateKey("a")) { try StrictJSON.parse(Array(#"{"a":1,"b":{},"a":2}"#.utf8)) }
        #expect(throws: StrictJSON.Failure.duplicateKey("k")) { try StrictJSON.parse(Array(#"[{"k":1,"k":1}]"#.utf8)) }
        let deep = String(repeating: "[", count: 16) + String(repeating: "]", count: 16)
        #expect((try? StrictJSON.parse(Array(deep.utf8))) != nil)
        #expect(throws: StrictJSON.Failure.tooDeep) { try StrictJSON.parse(Array(("[" + deep + "]").utf8)) }
        for bad in ["", "{", "[1,]", "{\"a\":1,}", "01", "1.", "+1", "'a'", "\"\\x\"", "\"\u{01}\"", "\"\\ud800\"", "[1] 2", "tru", "NaN", "1e999"] {
            #expect(throws: (any Error).self, "\(bad)") { try StrictJSON.parse(Array(bad.utf8)) }
        }
        #expect(throws: (any Error).self) { try StrictJSON.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(try StrictJSON.parse(Array("99999999999999999999".utf8)) == .number(1e20, literal: "99999999999999999999"))
    }
}

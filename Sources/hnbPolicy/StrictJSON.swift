// A small JSON reader for the signed policy and the key set (issue 28). Foundation's readers
// cannot be used there: they keep the last of two equal keys without saying so (a signed
// document could then be read one way by the bank's tools and another way here) and turn large
// integers into doubles. This one rejects duplicate keys, keeps integers exact, bounds its depth
// and reads only what RFC 8259 allows. It decides nothing about policies.

/// One JSON value. Objects keep their members in document order; their keys are unique.
///
/// Not `Equatable`: the library reads values and never compares two of them, and the optimizer
/// turned the recursive comparison into 33 KiB of every app's binary (issue 27). The tests
/// that compare parsed values bring their own `==` (Tests/hnbTests/StrictJSONEquality.swift).
enum StrictJSON: Sendable {
    case object([(key: String, value: StrictJSON)])
    case array([StrictJSON])
    case string(String)
    /// A number written as an integer (no fraction, no exponent) that fits in `Int64`.
    case integer(Int64)
    /// Any other number; `literal` is kept for messages.
    case number(Double, literal: String)
    case bool(Bool)
    case null

    /// Why a text is not JSON as this reader accepts it.
    enum Failure: Error, Equatable, Sendable {
        /// Not JSON: a syntax error at the byte offset.
        case syntax(at: Int)
        /// An object names `key` twice.
        case duplicateKey(String)
        /// Nested deeper than ``StrictJSON/maximumDepth``.
        case tooDeep
    }

    /// Arrays and objects nest at most this deep: a policy needs four levels, and a bound keeps
    /// a hostile document from exhausting the stack.
    static let maximumDepth = 16

    /// Reads exactly one JSON value, with optional white space around it.
    static func parse(_ bytes: [UInt8]) throws -> StrictJSON {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == bytes.count else { throw StrictJSON.Failure.syntax(at: reader.index) }
        return value
    }

    /// The member `key` of an object, `nil` when absent or when this is not an object.
    subscript(key: String) -> StrictJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

private struct Reader {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func expect(_ literal: String) throws {
        for byte in literal.utf8 {
            guard peek() == byte else { throw StrictJSON.Failure.syntax(at: index) }
            index += 1
        }
    }

    mutating func value(depth: Int) throws -> StrictJSON {
        guard let byte = peek() else { throw StrictJSON.Failure.syntax(at: index) }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw StrictJSON.Failure.syntax(at: index)
        }
    }

    private mutating func object(depth: Int) throws -> StrictJSON {
        guard depth <= StrictJSON.maximumDepth else { throw StrictJSON.Failure.tooDeep }
        index += 1
        var members: [(key: String, value: StrictJSON)] = []
        var keys = Set<String>()
        skipSpace()
        if peek() == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard peek() == UInt8(ascii: "\"") else { throw StrictJSON.Failure.syntax(at: index) }
            let key = try string()
            guard keys.insert(key).inserted else { throw StrictJSON.Failure.duplicateKey(key) }
            skipSpace()
            try expect(":")
            skipSpace()
            members.append((key, try value(depth: depth)))
            skipSpace()
            guard let next = peek() else { throw StrictJSON.Failure.syntax(at: index) }
            index += 1
            if next == UInt8(ascii: "}") { return .object(members) }
            guard next == UInt8(ascii: ",") else { throw StrictJSON.Failure.syntax(at: index - 1) }
        }
    }

    private mutating func array(depth: Int) throws -> StrictJSON {
        guard depth <= StrictJSON.maximumDepth else { throw StrictJSON.Failure.tooDeep }
        index += 1
        var elements: [StrictJSON] = []
        skipSpace()
        if peek() == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipSpace()
            elements.append(try value(depth: depth))
            skipSpace()
            guard let next = peek() else { throw StrictJSON.Failure.syntax(at: index) }
            index += 1
            if next == UInt8(ascii: "]") { return .array(elements) }
            guard next == UInt8(ascii: ",") else { throw StrictJSON.Failure.syntax(at: index - 1) }
        }
    }

    private mutating func hexQuad() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw StrictJSON.Failure.syntax(at: index) }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw StrictJSON.Failure.syntax(at: index)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A string, with its escapes; raw control characters, lone surrogates and invalid UTF-8 are
    /// errors, not replacement characters, so two different texts never read as one key.
    private mutating func string() throws -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        func flush(_ raw: inout [UInt8], into scalars: inout String.UnicodeScalarView, at offset: Int) throws {
            guard !raw.isEmpty else { return }
            // Not String(validating:), which needs iOS 18: the decoder reports invalid UTF-8.
            var iterator = raw.makeIterator()
            var decoder = UTF8()
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): scalars.append(scalar)
                case .emptyInput: break decoding
                case .error: throw StrictJSON.Failure.syntax(at: offset)
                }
            }
            raw.removeAll(keepingCapacity: true)
        }
        while true {
            guard let byte = peek() else { throw StrictJSON.Failure.syntax(at: index) }
            switch byte {
            case UInt8(ascii: "\""):
                try flush(&raw, into: &scalars, at: index)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush(&raw, into: &scalars, at: index)
                index += 1
                guard let escape = peek() else { throw StrictJSON.Failure.syntax(at: index) }
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let start = index
                    var code = try hexQuad()
                    if (0xD800...0xDBFF).contains(code) {
                        try expect("\\u")
                        let low = try hexQuad()
                        guard (0xDC00...0xDFFF).contains(low) else { throw StrictJSON.Failure.syntax(at: start) }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw StrictJSON.Failure.syntax(at: start) }
                    scalars.append(scalar)
                default: throw StrictJSON.Failure.syntax(at: index - 1)
                }
            case 0x00..<0x20:
                throw StrictJSON.Failure.syntax(at: index)
            default:
                raw.append(byte)
                index += 1
            }
        }
    }

    private mutating func number() throws -> StrictJSON {
        let start = index
        var isInteger = true
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { throw StrictJSON.Failure.syntax(at: index) }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            digits()
        }
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard digits() > 0 else { throw StrictJSON.Failure.syntax(at: index) }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw StrictJSON.Failure.syntax(at: index) }
        }
        let literal = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let exact = Int64(literal) { return .integer(exact) }
        guard let double = Double(literal), double.isFinite else { throw StrictJSON.Failure.syntax(at: start) }
        return .number(double, literal: literal)
    }

    @discardableResult
    private mutating func digits() -> Int {
        var count = 0
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            index += 1
            count += 1
        }
        return count
    }
}

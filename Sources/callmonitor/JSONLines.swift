// The tool's one JSON Lines writer: `simulate`'s transcript, `watch`'s transcript and `bench`'s
// BENCH line are all encoded by `JSONLine` and written by `JSONLinesWriter`, so escaping, number
// formats and the order of keys are decided here once.

import hnb

/// A JSON value as the tool writes it. Numbers that stand for time are exact decimals built from
/// whole nanoseconds or milliseconds, never floating point, so a transcript is the same on every
/// machine.
indirect enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    /// `value` divided by 10^`places`, written exactly: with every place (`1.500`), or with the
    /// trailing zeros and then the point dropped (`1.5`, `3`).
    case decimal(Int64, places: Int, trimmingZeros: Bool)
    /// A measured figure rounded to `places` decimals; not finite (NaN, infinity) is `null`, as
    /// JSON has no word for it.
    case number(Double, places: Int)
    case object(JSONLine)
    case array([JSONValue])
    /// A value some other writer already encoded as JSON (the library's outcome evidence,
    /// `CallMonitorOutcome.jsonData()`), written as it is, so that it stays that writer's form.
    case encoded(String)

    /// Virtual nanoseconds as seconds with only the decimals needed: `3`, `1.5`, `0.000000001`.
    static func seconds(_ nanoseconds: Int64) -> JSONValue {
        .decimal(nanoseconds, places: 9, trimmingZeros: true)
    }

    /// The value's JSON text.
    var text: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .string(let value): JSONText.quoted(value)
        case .decimal(let value, let places, let trimming): decimalText(value, places: places, trimmingZeros: trimming)
        case .number(let value, let places): value.isFinite ? String(rounded(value, places: places)) : "null"
        case .object(let object): object.text
        case .array(let values): JSONText.array(values.map(\.text))
        case .encoded(let json): json
        }
    }
}

/// A JSON object under construction, written with its keys in the order they were added: a
/// transcript reads the same way every time, and a test can compare it byte for byte.
struct JSONLine: Equatable {
    private var object = JSONText.Object()

    init() {}

    mutating func add(_ key: String, _ value: JSONValue) {
        object.add(key, json: value.text)
    }

    /// A string, or `null` for nil.
    mutating func add(_ key: String, _ value: String?) {
        add(key, value.map(JSONValue.string) ?? .null)
    }

    mutating func add(_ key: String, _ value: Int) {
        add(key, .int(value))
    }

    mutating func add(_ key: String, _ value: Bool) {
        add(key, .bool(value))
    }

    /// Virtual nanoseconds as a number of seconds, like a simulate transcript's `t`.
    mutating func add(_ key: String, seconds nanoseconds: Int64) {
        add(key, .seconds(nanoseconds))
    }

    var text: String { object.text }

    /// Two lines are equal when they are the same text (the writer keeps no other state).
    static func == (a: JSONLine, b: JSONLine) -> Bool { a.text == b.text }
}

/// Writes JSON Lines: each object, or a line encoded earlier, and a line end.
///
/// `simulate` writes in blocks (``Flushing/inBlocks``): one write(2) a line would cost more than
/// the simulation itself, and a block is still seen at once in a pipe; it calls ``flush()`` before
/// it exits. `watch` and `bench` write each line at once (``Flushing/everyLine``): they run in
/// real time, and a line must be seen when it happens.
final class JSONLinesWriter {
    enum Flushing {
        case everyLine
        /// Whenever about `bytes` are waiting, and at ``JSONLinesWriter/flush()``.
        case inBlocks(bytes: Int)
    }

    private let flushing: Flushing
    private let output: (String) -> Void
    private var buffer: [UInt8] = []

    /// - Parameter output: Receives each block of text; standard output unless a test says otherwise.
    init(flushing: Flushing, output: @escaping (String) -> Void = { Output.write($0) }) {
        self.flushing = flushing
        self.output = output
    }

    /// Writes `object` as one line, after `prefix` (`BENCH `), which is not part of the JSON.
    func write(_ object: JSONLine, prefix: String = "") {
        write(line: prefix + object.text)
    }

    /// Writes one line already encoded (a transcript line that waited for the ones before it).
    func write(line: String) {
        switch flushing {
        case .everyLine:
            output(line + "\n")
        case .inBlocks(let bytes):
            buffer.append(contentsOf: line.utf8)
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= bytes { flush() }
        }
    }

    /// Writes whatever waits.
    func flush() {
        guard !buffer.isEmpty else { return }
        output(String(decoding: buffer, as: UTF8.self))
        buffer.removeAll(keepingCapacity: true)
    }
}

/// `value` / 10^`places` in decimal, exactly (no floating point on the way).
func decimalText(_ value: Int64, places: Int, trimmingZeros: Bool) -> String {
    // 10^19 would not fit in UInt64; no figure of the tool has more than nine places.
    let places = min(max(places, 0), 18)
    let sign = value < 0 ? "-" : ""
    // The magnitude as unsigned, so that Int64.min has one too.
    let magnitude = value.magnitude
    var scale: UInt64 = 1
    for _ in 0..<places { scale *= 10 }
    let whole = magnitude / scale
    var digits = places == 0 ? "" : String(magnitude % scale)
    digits = String(repeating: "0", count: places - digits.count) + digits
    if trimmingZeros {
        while digits.hasSuffix("0") { digits.removeLast() }
    }
    return sign + String(whole) + (digits.isEmpty ? "" : "." + digits)
}

/// `value` rounded to `places` decimals (half away from zero), for figures meant to be read.
func rounded(_ value: Double, places: Int) -> Double {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    return (value * scale).rounded() / scale
}

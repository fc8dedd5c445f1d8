// A recording of the D-Bus traffic a telephony source saw: every signal it handled and every
// method call it made with its reply, one JSON object a line. Set CALLMONITOR_DBUS_RECORD=FILE to
// make one (for a bug report); the mapping tests replay such recordings made against the real
// daemons. Phone numbers are in it: treat the file as private.

// Linux only: no Apple build compiles the D-Bus telephony code.
#if os(Linux)

import Foundation

/// One line of a recording.
struct BusRecord: Codable, Sendable, Equatable {
    /// Nanoseconds since the source started.
    var t: Int64
    /// A signal the session handled.
    var signal: BusMessage?
    /// A method call the session made…
    var call: BusMethodCall?
    /// …and its reply,
    var reply: BusMessage?
    /// …or the error it failed with.
    var error: String?
}

/// A compact JSON form: one key naming the type (`s` string, `o` object path, `b` boolean, `i`
/// integer, `d` double, `v` variant, `a` array, `e` dictionary entries, `r` structure,
/// `x` unsupported type code).
extension BusValue: Codable {
    private enum Key: String, CodingKey { case s, o, b, i, d, v, a, e, r, x }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .string(let text): try container.encode(text, forKey: .s)
        case .objectPath(let path): try container.encode(path, forKey: .o)
        case .bool(let value): try container.encode(value, forKey: .b)
        case .integer(let value): try container.encode(value, forKey: .i)
        case .double(let value): try container.encode(value, forKey: .d)
        case .variant(let box): try container.encode(box.value, forKey: .v)
        case .array(let values): try container.encode(values, forKey: .a)
        case .dictionary(let entries): try container.encode(entries.map { [$0.key, $0.value] }, forKey: .e)
        case .structure(let values): try container.encode(values, forKey: .r)
        case .unsupported(let code): try container.encode(String(code), forKey: .x)
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard let key = container.allKeys.first, container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a value has exactly one type key"))
        }
        switch key {
        case .s: self = .string(try container.decode(String.self, forKey: key))
        case .o: self = .objectPath(try container.decode(String.self, forKey: key))
        case .b: self = .bool(try container.decode(Bool.self, forKey: key))
        case .i: self = .integer(try container.decode(Int64.self, forKey: key))
        case .d: self = .double(try container.decode(Double.self, forKey: key))
        case .v: self = .variant(try container.decode(BusValue.self, forKey: key))
        case .a: self = .array(try container.decode([BusValue].self, forKey: key))
        case .r: self = .structure(try container.decode([BusValue].self, forKey: key))
        case .x: self = .unsupported(try container.decode(String.self, forKey: key).first ?? "?")
        case .e:
            let pairs = try container.decode([[BusValue]].self, forKey: key)
            self = .dictionary(try pairs.map { pair in
                guard pair.count == 2 else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a dictionary entry is a pair"))
                }
                return .init(key: pair[0], value: pair[1])
            })
        }
    }
}

#if Telephony && os(Linux)
/// A bus that writes down each call it passes on, and the signals it is told of.
///
/// Used on the source's thread only, like the bus it wraps.
final class RecordingBus: TelephonyBus {
    private let bus: any TelephonyBus
    private let file: FileHandle
    private let origin: Int64
    private let clock: () -> Int64
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Appends to `path` (created if needed), or returns `nil` if it cannot be opened.
    init?(_ bus: any TelephonyBus, path: String, clock: @escaping () -> Int64) {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else { return nil }
        }
        guard let file = FileHandle(forWritingAtPath: path) else { return nil }
        file.seekToEndOfFile()
        self.bus = bus
        self.file = file
        self.clock = clock
        origin = clock()
    }

    func call(_ call: BusMethodCall) throws(Telephony.Error) -> BusMessage {
        do {
            let reply = try bus.call(call)
            write(BusRecord(t: clock() - origin, call: call, reply: reply))
            return reply
        } catch {
            write(BusRecord(t: clock() - origin, call: call, error: error.description))
            throw error
        }
    }

    /// Notes a signal about to be handled.
    func signal(_ message: BusMessage) {
        guard message.kind == .signal else { return }
        write(BusRecord(t: clock() - origin, signal: message))
    }

    private func write(_ record: BusRecord) {
        guard let data = try? encoder.encode(record) else { return }
        file.write(data + Data("\n".utf8))
    }
}
#endif
#endif

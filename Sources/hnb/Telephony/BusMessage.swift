// D-Bus messages as plain Swift values. The libdbus transport decodes every message into these,
// so the telephony mapping never touches libdbus and can be tested with recorded messages.

// Linux only: no Apple build compiles the D-Bus telephony code.
#if os(Linux)

/// One value of a D-Bus message body, reduced to the types the telephony services send.
enum BusValue: Sendable, Hashable {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    /// Every integer type (y, n, q, i, u, x, t), widened.
    case integer(Int64)
    case double(Double)
    case variant(Box)
    case array([BusValue])
    /// An `a{..}`: dictionary entries in the order they came.
    case dictionary([DictionaryEntry])
    case structure([BusValue])
    /// A type the mapping never reads (a file descriptor, a signature), kept by its type code.
    case unsupported(Character)

    /// The key and value of one dictionary entry.
    struct DictionaryEntry: Sendable, Hashable {
        var key: BusValue
        var value: BusValue
    }

    /// A variant's content, boxed so that the enum can hold itself.
    final class Box: Sendable, Hashable {
        let value: BusValue
        init(_ value: BusValue) { self.value = value }
        static func == (left: Box, right: Box) -> Bool { left.value == right.value }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }

    /// Wraps `value` in a variant.
    static func variant(_ value: BusValue) -> BusValue { .variant(Box(value)) }

    /// The value with any variants around it removed.
    var unwrapped: BusValue {
        if case .variant(let box) = self { return box.value.unwrapped }
        return self
    }

    /// The text of a string or object path.
    var text: String? {
        switch unwrapped {
        case .string(let text), .objectPath(let text): text
        default: nil
        }
    }

    var integer: Int64? {
        if case .integer(let value) = unwrapped { return value }
        return nil
    }

    var bool: Bool? {
        if case .bool(let value) = unwrapped { return value }
        return nil
    }

    /// The elements of an array (or the fields of a structure).
    var elements: [BusValue]? {
        switch unwrapped {
        case .array(let values), .structure(let values): values
        case .dictionary(let entries): entries.map { .structure([$0.key, $0.value]) }
        default: nil
        }
    }

    /// An `a{sv}` (or `a{ov}`, `a{sa{sv}}`…) as a dictionary keyed by text; later keys win.
    var properties: [String: BusValue]? {
        switch unwrapped {
        case .dictionary(let entries):
            var result: [String: BusValue] = [:]
            for entry in entries {
                guard let key = entry.key.text else { continue }
                result[key] = entry.value.unwrapped
            }
            return result
        case .array(let values) where values.isEmpty:
            // An empty array carries no element type in our model; it is an empty dictionary too.
            return [:]
        default:
            return nil
        }
    }

    /// The texts of an `as` or `ao`.
    var texts: [String]? { elements?.compactMap(\.text) }
}

/// A method call the mapping asks the transport to make. Only string arguments are needed.
struct BusMethodCall: Sendable, Hashable, Codable, CustomStringConvertible {
    var destination: String
    var path: String
    var interface: String
    var member: String
    var arguments: [String] = []

    var description: String {
        "\(destination) \(path) \(interface).\(member)(\(arguments.joined(separator: ", ")))"
    }
}

/// A message received from the bus: a signal or a method reply.
struct BusMessage: Sendable, Hashable, Codable {
    enum Kind: String, Sendable, Hashable, Codable { case signal, methodReturn, error, methodCall }

    var kind: Kind
    /// The sender's unique name (":1.42"); the bus itself is "org.freedesktop.DBus".
    var sender: String
    /// The sender's serial number. Serials of one sender grow, which orders a reply against the
    /// signals of the same sender.
    var serial: UInt32
    var path: String = ""
    var interface: String = ""
    var member: String = ""
    /// The error name of an error reply.
    var errorName: String = ""
    var arguments: [BusValue] = []

    /// A signal, as the tests write one.
    static func signal(_ sender: String, _ serial: UInt32, _ path: String, _ interface: String, _ member: String, _ arguments: [BusValue] = []) -> BusMessage {
        BusMessage(kind: .signal, sender: sender, serial: serial, path: path, interface: interface, member: member, arguments: arguments)
    }

    /// A method reply, as the tests write one.
    static func reply(_ sender: String, _ serial: UInt32, _ arguments: [BusValue] = []) -> BusMessage {
        BusMessage(kind: .methodReturn, sender: sender, serial: serial, arguments: arguments)
    }

    /// The argument at `index`, or `nil` when the message is shorter.
    func argument(_ index: Int) -> BusValue? {
        index < arguments.count ? arguments[index] : nil
    }
}

/// Makes method calls on the bus and waits for their replies: the libdbus connection in
/// production, a list of recorded replies in tests.
protocol TelephonyBus: AnyObject {
    /// The reply to `call`. A D-Bus error reply is thrown as ``Telephony/Error/callFailed(name:message:)``.
    func call(_ call: BusMethodCall) throws(Telephony.Error) -> BusMessage
}
#endif

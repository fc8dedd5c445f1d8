// The wire: a private libdbus connection to the system bus, used from one thread only, that
// decodes every message into a `BusMessage`. Built only with the `Telephony` package trait.

#if Telephony && os(Linux)
import CDBus

/// One private connection to a bus. Not thread-safe: the worker thread that made it is the only
/// one that uses it, as libdbus's blocking calls and message queue expect.
final class DBusTransport: TelephonyBus {
    private let connection: OpaquePointer
    /// How long a method call may take before the daemon is taken to be hung.
    private let callTimeoutMilliseconds: Int32 = 5_000

    private static let threadsReady: Bool = {
        // libdbus 1.7 and later lock by default; older ones need this before any other call.
        dbus_threads_init_default() != 0
    }()

    /// Connects to `address` (a D-Bus address such as `unix:path=/run/dbus/system_bus_socket`),
    /// or to the system bus (honouring `DBUS_SYSTEM_BUS_ADDRESS`) when `address` is `nil`.
    init(address: String?) throws(Telephony.Error) {
        _ = Self.threadsReady
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        var made: OpaquePointer?
        if let address {
            made = dbus_connection_open_private(address, &error)
            if let opened = made, dbus_bus_register(opened, &error) == 0 {
                dbus_connection_close(opened)
                dbus_connection_unref(opened)
                made = nil
            }
        } else {
            made = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error)
        }
        guard let made else {
            throw Self.translate(&error) { name, message in .busUnavailable(name.isEmpty ? message : "\(name): \(message)") }
        }
        // A private connection would otherwise call _exit() when the bus goes away.
        dbus_connection_set_exit_on_disconnect(made, 0)
        connection = made
    }

    deinit {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    /// Asks the bus to route signals matching `rule` to this connection.
    func addMatch(_ rule: String) throws(Telephony.Error) {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        dbus_bus_add_match(connection, rule, &error)
        if dbus_error_is_set(&error) != 0 {
            throw Self.translate(&error) { name, message in .callFailed(name: name, message: "AddMatch: \(message)") }
        }
    }

    func call(_ call: BusMethodCall) throws(Telephony.Error) -> BusMessage {
        guard let message = dbus_message_new_method_call(call.destination, call.path, call.interface, call.member) else {
            throw .unexpectedReply("libdbus could not build \(call)")
        }
        defer { dbus_message_unref(message) }
        var arguments = DBusMessageIter()
        dbus_message_iter_init_append(message, &arguments)
        for argument in call.arguments {
            let appended = argument.withCString { text -> Bool in
                var pointer: UnsafePointer<CChar>? = text
                return dbus_message_iter_append_basic(&arguments, CDBUS_TYPE_STRING, &pointer) != 0
            }
            guard appended else { throw .unexpectedReply("libdbus could not add an argument to \(call)") }
        }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let reply = dbus_connection_send_with_reply_and_block(connection, message, callTimeoutMilliseconds, &error) else {
            throw Self.translate(&error) { name, message in .callFailed(name: name, message: "\(call.interface).\(call.member): \(message)") }
        }
        defer { dbus_message_unref(reply) }
        return Self.decode(reply)
    }

    /// Sends what is queued and waits up to `milliseconds` for incoming data. `false` once the
    /// connection is closed.
    func pump(milliseconds: Int32) -> Bool {
        dbus_connection_read_write(connection, milliseconds) != 0 && dbus_connection_get_is_connected(connection) != 0
    }

    /// The next message received, if any.
    func nextMessage() -> BusMessage? {
        guard let message = dbus_connection_pop_message(connection) else { return nil }
        defer { dbus_message_unref(message) }
        return Self.decode(message)
    }

    /// A typed error for a libdbus error. Access denials are told apart: the README's policy
    /// section says what to do about them.
    private static func translate(_ error: inout DBusError, _ make: (_ name: String, _ message: String) -> Telephony.Error) -> Telephony.Error {
        let isSet = dbus_error_is_set(&error) != 0
        let name = isSet ? error.name.map { String(cString: $0) } ?? "" : ""
        let message = isSet ? error.message.map { String(cString: $0) } ?? "" : "no error details"
        if name == "org.freedesktop.DBus.Error.AccessDenied" { return .accessDenied(message) }
        if name == "org.freedesktop.DBus.Error.Disconnected" { return .disconnected }
        return make(name, message)
    }

    private static func decode(_ message: OpaquePointer) -> BusMessage {
        let kind: BusMessage.Kind
        switch dbus_message_get_type(message) {
        case DBUS_MESSAGE_TYPE_SIGNAL: kind = .signal
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: kind = .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: kind = .error
        default: kind = .methodCall
        }
        var decoded = BusMessage(
            kind: kind,
            sender: dbus_message_get_sender(message).map { String(cString: $0) } ?? "",
            serial: dbus_message_get_serial(message),
            path: dbus_message_get_path(message).map { String(cString: $0) } ?? "",
            interface: dbus_message_get_interface(message).map { String(cString: $0) } ?? "",
            member: dbus_message_get_member(message).map { String(cString: $0) } ?? "",
            errorName: dbus_message_get_error_name(message).map { String(cString: $0) } ?? ""
        )
        var iterator = DBusMessageIter()
        if dbus_message_iter_init(message, &iterator) != 0 {
            decoded.arguments = readAll(&iterator)
        }
        return decoded
    }

    private static func readAll(_ iterator: inout DBusMessageIter) -> [BusValue] {
        var values: [BusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != CDBUS_TYPE_INVALID {
            values.append(read(&iterator))
            dbus_message_iter_next(&iterator)
        }
        return values
    }

    private static func read(_ iterator: inout DBusMessageIter) -> BusValue {
        let type = dbus_message_iter_get_arg_type(&iterator)
        switch type {
        case CDBUS_TYPE_STRING, CDBUS_TYPE_OBJECT_PATH:
            var text: UnsafePointer<CChar>?
            dbus_message_iter_get_basic(&iterator, &text)
            let string = text.map { String(cString: $0) } ?? ""
            return type == CDBUS_TYPE_STRING ? .string(string) : .objectPath(string)
        case CDBUS_TYPE_BOOLEAN:
            var value: dbus_bool_t = 0
            dbus_message_iter_get_basic(&iterator, &value)
            return .bool(value != 0)
        case CDBUS_TYPE_BYTE: return .integer(Int64(basic(&iterator, UInt8(0))))
        case CDBUS_TYPE_INT16: return .integer(Int64(basic(&iterator, Int16(0))))
        case CDBUS_TYPE_UINT16: return .integer(Int64(basic(&iterator, UInt16(0))))
        case CDBUS_TYPE_INT32: return .integer(Int64(basic(&iterator, Int32(0))))
        case CDBUS_TYPE_UINT32: return .integer(Int64(basic(&iterator, UInt32(0))))
        case CDBUS_TYPE_INT64: return .integer(basic(&iterator, Int64(0)))
        case CDBUS_TYPE_UINT64: return .integer(Int64(truncatingIfNeeded: basic(&iterator, UInt64(0))))
        case CDBUS_TYPE_DOUBLE: return .double(basic(&iterator, Double(0)))
        case CDBUS_TYPE_VARIANT:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .variant(read(&inner))
        case CDBUS_TYPE_STRUCT:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .structure(readAll(&inner))
        case CDBUS_TYPE_ARRAY:
            let isDictionary = dbus_message_iter_get_element_type(&iterator) == CDBUS_TYPE_DICT_ENTRY
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            guard isDictionary else { return .array(readAll(&inner)) }
            var entries: [BusValue.DictionaryEntry] = []
            while dbus_message_iter_get_arg_type(&inner) == CDBUS_TYPE_DICT_ENTRY {
                var entry = DBusMessageIter()
                dbus_message_iter_recurse(&inner, &entry)
                let pair = readAll(&entry)
                if pair.count == 2 { entries.append(.init(key: pair[0], value: pair[1])) }
                dbus_message_iter_next(&inner)
            }
            return .dictionary(entries)
        default:
            return .unsupported(Character(Unicode.Scalar(UInt8(truncatingIfNeeded: type))))
        }
    }

    private static func basic<Value>(_ iterator: inout DBusMessageIter, _ initial: Value) -> Value {
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iterator, $0) }
        return value
    }
}
#endif

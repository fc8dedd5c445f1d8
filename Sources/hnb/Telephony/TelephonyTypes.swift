// The public vocabulary of the Linux telephony call sources: which daemon, what went wrong, and
// what the source is doing. Linux only, like the sources, which also need the
// `Telephony` package trait.

// Linux only: no Apple build compiles the D-Bus telephony code.
#if os(Linux)

/// The vocabulary of the Linux telephony call source (`TelephonyCallSource`, with the `Telephony`
/// package trait): which daemon it reads, what went wrong, and what it is doing.
public enum Telephony {
    /// A Linux telephony daemon a call source can read over the D-Bus system bus.
    public enum Backend: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// ModemManager (`org.freedesktop.ModemManager1`), as on Mobian, postmarketOS and most
        /// Linux phones.
        case modemManager = "modemmanager"
        /// oFono (`org.ofono`), as on Sailfish OS, Ubuntu Touch and some postmarketOS images.
        case ofono

        /// The daemon's well-known bus name.
        public var busName: String {
            switch self {
            case .modemManager: "org.freedesktop.ModemManager1"
            case .ofono: "org.ofono"
            }
        }

        /// The name `callmonitor watch --backend` takes: `modemmanager` or `ofono`.
        public var description: String { rawValue }
    }

    /// Which daemon a call source reads.
    public enum BackendChoice: Sendable, Hashable, CustomStringConvertible {
        /// ModemManager if it is on the bus when the source starts, else oFono; if neither is, the
        /// first of them to appear.
        case auto
        /// This daemon only; the source waits for it if it is not on the bus yet.
        case only(Telephony.Backend)

        /// `auto`, or the daemon's name.
        public var description: String {
            switch self {
            case .auto: "auto"
            case .only(let backend): backend.rawValue
            }
        }
    }

    /// Why a telephony call source cannot read calls.
    public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// The system bus could not be reached (no bus, no socket, authentication refused).
        case busUnavailable(String)
        /// The bus's policy does not let this process talk to the daemon (see the README's D-Bus
        /// policy section).
        case accessDenied(String)
        /// A method call came back with a D-Bus error.
        case callFailed(name: String, message: String)
        /// A reply did not have the shape the daemon's documented interface promises.
        case unexpectedReply(String)
        /// The connection to the bus was lost.
        case disconnected

        /// What went wrong, in a sentence for a log or a terminal.
        public var description: String {
            switch self {
            case .busUnavailable(let why): "cannot reach the D-Bus system bus: \(why)"
            case .accessDenied(let why): "the D-Bus policy denies access: \(why)"
            case .callFailed(let name, let message): "D-Bus call failed: \(name): \(message)"
            case .unexpectedReply(let what): "unexpected D-Bus reply: \(what)"
            case .disconnected: "the connection to the D-Bus system bus was lost"
            }
        }
    }

    /// What a telephony call source is doing, reported whenever it changes.
    public enum Status: Sendable, Hashable, CustomStringConvertible {
        /// Reading this daemon's calls.
        case watching(Telephony.Backend)
        /// None of these daemons is on the bus; the source reports no calls until one appears.
        case waiting(for: [Telephony.Backend])
        /// The daemon left the bus. The calls it last reported are kept as they were (a daemon crash
        /// does not end a call on the modem) until it is back and has listed its modem's calls.
        case lost(Telephony.Backend)
        /// The source cannot work; it reports no calls. With ``Telephony/Error/disconnected`` and
        /// ``Telephony/Error/busUnavailable(_:)`` it keeps trying to reconnect every second.
        case failed(Telephony.Error)

        /// The status in a few words, for a log or a terminal.
        public var description: String {
            switch self {
            case .watching(let backend): "watching \(backend)"
            case .waiting(let backends): "waiting for \(backends.map(\.rawValue).joined(separator: " or "))"
            case .lost(let backend): "\(backend) left the bus; keeping its calls until it is back"
            case .failed(let error): "failed: \(error)"
            }
        }
    }
}
#endif

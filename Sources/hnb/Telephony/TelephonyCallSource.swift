// The call source of a Linux phone: ModemManager's or oFono's calls read over the D-Bus system
// bus on a thread of its own. Built only with the `Telephony` package trait.

#if Telephony && os(Linux)
import Dispatch
import Foundation

/// Reports the calls of a Linux phone's telephony daemon, ModemManager or oFono, read over the
/// D-Bus system bus with libdbus.
///
/// ```swift
/// let calls = TelephonyCallSource(backend: .only(.ofono)) { status in print("telephony:", status) }
/// let monitor = CallMonitor(ports: .live.withCalls(from: calls))
/// monitor.startMonitoring(withTerminateIn: 10)
/// ```
///
/// Nothing is opened until ``start(_:)``: the connection, the thread and the choice of daemon all
/// happen there, so a monitor whose call detection is off creates none of them.
///
/// > Important: When the bus cannot be reached the source reports ``Telephony/Status/failed(_:)``,
/// > delivers an empty call list (no telephony) and retries every second. A daemon that leaves
/// > the bus ends none of its calls; see ``Telephony/Status/lost(_:)``.
public final class TelephonyCallSource: CallSource {
    private let choice: Telephony.BackendChoice
    private let busAddress: String?
    private let onStatus: (@Sendable (Telephony.Status) -> Void)?
    private var worker: TelephonyWorker?

    /// A source that will read `backend`'s calls once started.
    ///
    /// - Parameters:
    ///   - backend: The daemon to read; `.auto` takes ModemManager if it is on the bus, else oFono.
    ///   - busAddress: A D-Bus address to use instead of the system bus (the tests' private bus);
    ///     `nil` uses the system bus, or `DBUS_SYSTEM_BUS_ADDRESS` when it is set.
    ///   - onStatus: Told, on the source's own thread, whenever what the source does changes.
    public nonisolated init(
        backend: Telephony.BackendChoice = .auto,
        busAddress: String? = nil,
        onStatus: (@Sendable (Telephony.Status) -> Void)? = nil
    ) {
        self.choice = backend
        self.busAddress = busAddress
        self.onStatus = onStatus
    }

    /// Sets the closure told of the shared instance's telephony status (on Linux with the
    /// `Telephony` trait, ``CallMonitor/sharedInstance()`` reads calls through a
    /// `TelephonyCallSource`), or removes it with `nil`. Set it before `startMonitoring` to hear
    /// why no calls are reported: no bus, no daemon, a D-Bus policy that denies access.
    ///
    /// > Important: The closure runs on the source's own thread, not the main thread.
    public nonisolated static func setSharedInstanceStatusHandler(_ handler: (@Sendable (Telephony.Status) -> Void)?) {
        sharedHandler.withLock { $0 = handler }
    }

    private nonisolated static let sharedHandler = Locked<(@Sendable (Telephony.Status) -> Void)?>(nil)

    /// Forwards a status of the shared instance's source to the handler set at that moment.
    nonisolated static let sharedInstanceStatus: @Sendable (Telephony.Status) -> Void = { status in
        sharedHandler.withLock { $0 }?(status)
    }

    /// Starts a thread that connects to the bus, chooses the daemon and delivers its calls: a
    /// complete list first (empty when there is no bus or no daemon), then changes.
    ///
    /// - Parameter deliver: Called on the source's thread, never on the main thread.
    package func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) {
        worker?.stop()
        let made = TelephonyWorker(choice: choice, busAddress: busAddress, deliver: deliver, onStatus: onStatus)
        worker = made
        made.start()
    }

    /// Stops the thread (within a tenth of a second) and closes the connection; nothing more is
    /// delivered.
    package func stop() {
        worker?.stop()
        worker = nil
    }
}

/// The thread that owns the libdbus connection and the session.
///
/// `@unchecked Sendable`: `stopped` is only touched under `lock`; the session and the connection
/// are created and used on the worker thread alone; the rest is immutable.
final class TelephonyWorker: @unchecked Sendable {
    private let choice: Telephony.BackendChoice
    private let busAddress: String?
    private let deliver: @Sendable (CallBatch) -> Void
    private let onStatus: (@Sendable (Telephony.Status) -> Void)?
    private let lock = NSLock()
    private var stopped = false

    init(choice: Telephony.BackendChoice, busAddress: String?, deliver: @escaping @Sendable (CallBatch) -> Void, onStatus: (@Sendable (Telephony.Status) -> Void)?) {
        self.choice = choice
        self.busAddress = busAddress
        self.deliver = deliver
        self.onStatus = onStatus
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "hnb.telephony"
        thread.start()
    }

    func stop() {
        lock.withLock { stopped = true }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func run() {
        var session = TelephonySession(choice: choice)
        var firstAttempt = true
        var lastFailure: Telephony.Error?
        while !isStopped {
            let transport: DBusTransport
            do {
                transport = try DBusTransport(address: busAddress)
                for rule in session.matchRules { try transport.addMatch(rule) }
            } catch {
                // Report each distinct failure once, then keep retrying quietly.
                if error != lastFailure || firstAttempt {
                    perform(session.busUnavailable(error, firstAttempt: firstAttempt))
                }
                lastFailure = error
                firstAttempt = false
                pause(seconds: 1)
                continue
            }
            firstAttempt = false
            lastFailure = nil
            // A diagnostic: CALLMONITOR_DBUS_RECORD=FILE writes down the traffic (README).
            let recorder = ProcessInfo.processInfo.environment["CALLMONITOR_DBUS_RECORD"].flatMap {
                RecordingBus(transport, path: $0, clock: { Self.now })
            }
            let bus: any TelephonyBus = recorder ?? transport
            perform(session.start(bus, now: Self.now))
            while !isStopped {
                // A short wait, so that stop() and the session's deadlines are served within a
                // tenth of a second.
                guard transport.pump(milliseconds: 100) else { break }
                while !isStopped, let message = transport.nextMessage() {
                    recorder?.signal(message)
                    perform(session.handle(message, bus, now: Self.now))
                }
                perform(session.tick(now: Self.now))
            }
            if !isStopped {
                perform(session.busUnavailable(.disconnected, firstAttempt: false))
                lastFailure = .disconnected
                pause(seconds: 1)
            }
        }
    }

    /// The library's one monotonic clock (``MonotonicClock``, counting time suspended), so the
    /// worker's retry and resync times and the monitor's countdown read the same clock.
    private static var now: Int64 { MonotonicClock.now() }

    private func perform(_ outputs: [TelephonyOutput]) {
        for output in outputs where !isStopped {
            switch output {
            case .deliver(let batch): deliver(batch)
            case .status(let status): onStatus?(status)
            }
        }
    }

    private func pause(seconds: Int) {
        for _ in 0..<(seconds * 10) where !isStopped {
            usleep(100_000)
        }
    }
}
extension CallMonitor.Ports {
    /// These parts, with the calls of `source`'s telephony daemon instead of the default choice
    /// (the shared instance reads ModemManager if it is on the bus, else oFono): for another
    /// daemon choice, a bus of your own, or a status handler of this monitor's own.
    ///
    /// - Parameter source: The telephony call source to read.
    public func withCalls(from source: TelephonyCallSource) -> Self {
        var ports = self
        ports.callSource = source
        return ports
    }
}
#endif

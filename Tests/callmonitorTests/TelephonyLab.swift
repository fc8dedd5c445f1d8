// The end-to-end telephony lab: a private D-Bus system bus, a scripted AT modem
// (Tests/TelephonyE2E/fake_modem.py) and a real oFono or ModemManager daemon, all started and
// stopped by the test itself, on free ports and in a fresh folder, never touching the machine's
// own system bus. Needs root (ModemManager runs in a private mount namespace with a fake sysfs
// node for the modem's pty) and the Debian packages listed in `TelephonyLab.packages`.

// The telephony types are compiled only on Linux.
#if os(Linux)

#if Telephony && os(Linux)
import Dispatch
import Foundation
import Testing
import hnb
import hnbTesting

/// Why a lab step failed; the message names the step and says where the logs are.
struct LabError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The lines a child process writes, collected as they come.
///
/// `@unchecked Sendable`: `lines` and `partial` are only touched under `lock`.
final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var partial = Data()
    private var ended = false

    /// Reads `handle` to its end on a Dispatch thread.
    init(_ handle: FileHandle) {
        DispatchQueue.global().async { [self] in
            while true {
                let data = handle.availableData
                lock.withLock {
                    if data.isEmpty {
                        // Foundation on Linux never frees a started Process, so close the pipe here.
                        try? handle.close()
                        if !partial.isEmpty { lines.append(String(decoding: partial, as: UTF8.self)) }
                        partial = Data()
                        ended = true
                        return
                    }
                    partial.append(data)
                    while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                        lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
                        partial = Data(partial[(newline + 1)...])
                    }
                }
                if data.isEmpty { return }
            }
        }
    }

    var snapshot: [String] { lock.withLock { lines } }
    var isAtEnd: Bool { lock.withLock { ended } }

    /// Waits until the output has ended (the process closed it, by exiting), so that every line
    /// it wrote is in ``snapshot``: reading after a fixed pause can miss the last lines when the
    /// reading thread waits for a core.
    func waitForEnd() async throws {
        guard await Patience.wait(until: { isAtEnd }) else {
            throw LabError("the output did not end within \(Int(Patience.seconds)) s")
        }
    }

    /// Waits until `count` lines contain `text`; fails with the lines so far after
    /// ``Patience/seconds`` (no real-clock figure a loaded machine can miss), or at once when the
    /// output has ended without them.
    @discardableResult
    func waitFor(_ text: String, count: Int = 1, _ what: String) async throws -> [String] {
        let deadline = Date().addingTimeInterval(Patience.seconds)
        while true {
            let now = snapshot
            if now.filter({ $0.contains(text) }).count >= count { return now }
            if Date() > deadline || (isAtEnd && now.filter({ $0.contains(text) }).count < count) {
                throw LabError("timed out waiting for \(what) (\(count)× “\(text)”); lines so far:\n" + now.joined(separator: "\n"))
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }
}

/// One child process of the lab.
final class LabProcess: @unchecked Sendable {
    // `@unchecked Sendable`: `Process` is only started once and then only signalled and polled.
    let name: String
    let process = Process()
    let output: LineCollector?

    /// Starts `executable`; its output goes to `log` unless `collect` asks for its lines.
    init(_ name: String, _ executable: String, _ arguments: [String], environment: [String: String], log: URL, collect: Bool = false, input: Pipe? = nil) throws {
        self.name = name
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        process.standardError = logHandle
        if collect {
            let pipe = Pipe()
            process.standardOutput = pipe
            output = LineCollector(pipe.fileHandleForReading)
        } else {
            process.standardOutput = logHandle
            output = nil
        }
        process.standardInput = input ?? FileHandle.nullDevice
        try process.run()
    }

    var isRunning: Bool { process.isRunning }

    /// Sends `signal`, waits up to `seconds` for the exit, then kills.
    func stop(_ signal: Int32 = SIGTERM, seconds: Double = 3) async {
        guard process.isRunning else { return }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline {
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            while process.isRunning { try? await Task.sleep(nanoseconds: 20_000_000) }
        }
    }

    /// Waits for the process to end by itself (for up to ``Patience/seconds``) and returns its
    /// status.
    func waitForExit() async throws -> Int32 {
        let deadline = Date().addingTimeInterval(Patience.seconds)
        while process.isRunning {
            if Date() > deadline { throw LabError("\(name) did not exit within \(Int(Patience.seconds)) s") }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        return process.terminationStatus
    }
}

/// A private telephony stack for one test.
final class TelephonyLab: @unchecked Sendable {
    // `@unchecked Sendable`: used by one test task at a time; `processes` is changed only there.

    enum Daemon: String, CaseIterable, CustomStringConvertible {
        case ofono
        case modemManager = "modemmanager"
        var description: String { rawValue }
    }

    static let packages = "dbus ofono modemmanager libdbus-1-dev python3-dbusmock libglib2.0-bin"
    static let fakeModem = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TelephonyE2E/fake_modem.py").path
    static let python = "/usr/bin/python3"

    /// Why the lab cannot run on this machine, or `nil` when it can.
    static let unavailableReason: String? = {
        if getuid() != 0 { return "not running as root (ModemManager needs a private mount namespace)" }
        let tools = ["/usr/bin/dbus-daemon", "/usr/sbin/ofonod", "/usr/sbin/ModemManager", "/usr/bin/mmcli", "/usr/bin/gdbus", "/usr/bin/unshare", "/usr/bin/setpriv", python]
        if let missing = tools.first(where: { !FileManager.default.isExecutableFile(atPath: $0) }) {
            return "\(missing) is missing (apt-get install \(packages))"
        }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-m", "--propagation", "private", "/bin/true"]
        probe.standardError = FileHandle.nullDevice
        if (try? probe.run()) == nil { return "unshare cannot run" }
        probe.waitUntilExit()
        if probe.terminationStatus != 0 { return "unshare -m is not permitted here (no mount namespaces)" }
        let mock = Process()
        mock.executableURL = URL(fileURLWithPath: python)
        mock.arguments = ["-c", "import dbusmock"]
        mock.standardError = FileHandle.nullDevice
        if (try? mock.run()) == nil { return "python3 cannot run" }
        mock.waitUntilExit()
        if mock.terminationStatus != 0 { return "python3-dbusmock is missing (apt-get install \(packages))" }
        return nil
    }()

    /// The bus's access policy.
    enum BusPolicy {
        /// Everyone may do everything: the lab's tools and the watched tool alike.
        case permissive
        /// Debian's default system-bus policy plus the daemon's own packaged policy file, and
        /// optionally extra policy XML (the README's grant): as on a real phone.
        case stock(extra: String?)
    }

    /// The real polkitd runs as `polkitd`; the mock runs as root and needs the name too.
    static let polkitMockPolicy = """
      <policy user="root">
        <allow own="org.freedesktop.PolicyKit1"/>
        <allow send_destination="org.freedesktop.PolicyKit1"/>
      </policy>
    """

    let daemon: Daemon
    let policy: BusPolicy
    /// The test's name, for kept transcripts and recordings.
    var label = ""
    let folder: URL
    let busAddress: String
    private var processes: [LabProcess] = []
    private var bus: LabProcess?
    private var telephonyDaemon: LabProcess?
    private var modemProcess: LabProcess?
    private(set) var controlPort = 0
    private var atPort = 0
    private var ptyNumber = ""

    var environment: [String: String] {
        [
            "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
            "DBUS_SYSTEM_BUS_ADDRESS": busAddress,
            // Never let a helper reach a session bus either.
            "DBUS_SESSION_BUS_ADDRESS": "disabled:",
            "LANG": "C.UTF-8",
        ]
    }

    /// Starts the bus, the fake modem and the daemon, and waits until the modem can carry calls.
    static func start(_ daemon: Daemon, policy: BusPolicy = .permissive) async throws -> TelephonyLab {
        let lab = try TelephonyLab(daemon, policy: policy)
        do {
            try await lab.startAll()
        } catch {
            await lab.shutdown(keepLogs: true)
            throw LabError("\(error)\nlogs: \(lab.folder.path)")
        }
        return lab
    }

    private init(_ daemon: Daemon, policy: BusPolicy) throws {
        self.daemon = daemon
        self.policy = policy
        var template = Array((NSTemporaryDirectory() + "callmonitor-telephony-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw LabError("mkdtemp failed") }
        folder = URL(fileURLWithPath: String(cString: made))
        busAddress = "unix:path=\(folder.path)/system_bus_socket"
    }

    private func startAll() async throws {
        try await startBus()
        try await startModem()
        try await startDaemon()
    }

    // MARK: Bus

    private func startBus() async throws {
        let rules: String
        switch policy {
        case .permissive:
            rules = """
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_destination="*"/>
                <allow receive_sender="*"/>
              </policy>
            """
        case .stock(let extra):
            // Debian's system.conf default policy, then the packaged daemon policies.
            rules = """
              <policy context="default">
                <allow user="*"/>
                <deny own="*"/>
                <deny send_type="method_call"/>
                <allow send_type="signal"/>
                <allow send_requested_reply="true" send_type="method_return"/>
                <allow send_requested_reply="true" send_type="error"/>
                <allow receive_type="method_call"/>
                <allow receive_type="method_return"/>
                <allow receive_type="error"/>
                <allow receive_type="signal"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
              </policy>
              <includedir>/etc/dbus-1/system.d</includedir>
              <includedir>/usr/share/dbus-1/system.d</includedir>
            \(extra ?? "")
            \(daemon == .modemManager ? Self.polkitMockPolicy : "")
            """
            // The watched tool runs as nobody: let it reach the socket.
            chmod(folder.path, 0o755)
        }
        let config = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>\(busAddress)</listen>
          <auth>EXTERNAL</auth>
        \(rules)
        </busconfig>
        """
        let configFile = folder.appendingPathComponent("bus.conf")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        bus = try launch("dbus-daemon", "/usr/bin/dbus-daemon", ["--config-file=\(configFile.path)", "--nofork", "--nopidfile"])
        try await poll("the private bus to listen") {
            FileManager.default.fileExists(atPath: self.folder.path + "/system_bus_socket")
        }
    }

    // MARK: Fake modem

    private func startModem() async throws {
        switch daemon {
        case .ofono:
            modemProcess = try launch("fake-modem", Self.python, [Self.fakeModem, "--tcp"], collect: true)
        case .modemManager:
            modemProcess = try launch("fake-modem", Self.python, [Self.fakeModem, "--pty", folder.path + "/ttyFAKE"], collect: true)
        }
        let lines = try await modemProcess!.output!.waitFor("\"ctl\"", "the fake modem's ports")
        let info = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any] ?? [:]
        controlPort = info["ctl"] as? Int ?? 0
        atPort = info["at"] as? Int ?? 0
        if let pty = info["pty"] as? String { ptyNumber = String(pty.dropFirst("/dev/pts/".count)) }
        guard controlPort > 0, daemon == .ofono ? atPort > 0 : !ptyNumber.isEmpty else {
            throw LabError("the fake modem did not report its ports: \(lines)")
        }
    }

    /// Plays the network: `ring NUMBER`, `answer`, `hangup [ID]`, `list`.
    @discardableResult
    func network(_ command: String) async throws -> String {
        let result = try await run(Self.python, ["-c", """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
            s.sendall((sys.argv[2] + "\\n").encode())
            print(s.makefile().readline().strip())
            """, String(controlPort), command])
        let reply = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        if command != "list" && reply != "ok" { throw LabError("fake modem: \(command) -> \(reply)") }
        return reply
    }

    // MARK: Daemons

    private func startDaemon() async throws {
        switch daemon {
        case .ofono: try await startOfono()
        case .modemManager:
            _ = try launch("polkit-mock", Self.python, ["-m", "dbusmock", "--system", "--template", "polkitd"])
            try await poll("the polkit mock") {
                (try? await self.run("/usr/bin/gdbus", ["call", "--system", "-d", "org.freedesktop.PolicyKit1", "-o", "/org/freedesktop/PolicyKit1/Authority", "-m", "org.freedesktop.DBus.Mock.AllowUnknown", "true"]))?.status == 0
            }
            try makeFakeSysfs()
            try await startModemManager()
            try await bringModemManagerModemUp()
        }
    }

    private func startOfono() async throws {
        try await startOfonoDaemon()
        try await powerOfonoModem()
    }

    private func startOfonoDaemon() async throws {
        let config = folder.appendingPathComponent("phonesim.conf")
        try "[phonesim]\nAddress=127.0.0.1\nPort=\(atPort)\n".write(to: config, atomically: true, encoding: .utf8)
        var environment = self.environment
        environment["OFONO_PHONESIM_CONFIG"] = config.path
        telephonyDaemon = try launch("ofonod", "/usr/sbin/ofonod", ["-n", "-d", "-P", "udevng,bluez5,hfp_bluez5,dun_gw_bluez5,hfp_ag_bluez5,sap"], environment: environment)
        try await poll("oFono to list the phonesim modem") {
            try await self.gdbus("org.ofono", "/", "org.ofono.Manager.GetModems").contains("/phonesim")
        }
    }

    /// Powers the phonesim modem, waits for its voice call manager, then puts it online, without
    /// which oFono refuses to dial.
    func powerOfonoModem() async throws {
        _ = try await gdbus("org.ofono", "/phonesim", "org.ofono.Modem.SetProperty", "Powered", "<true>")
        try await poll("oFono's voice call manager") {
            try await self.gdbus("org.ofono", "/", "org.ofono.Manager.GetModems").contains("org.ofono.VoiceCallManager")
        }
        _ = try await gdbus("org.ofono", "/phonesim", "org.ofono.Modem.SetProperty", "Online", "<true>")
        try await poll("oFono to put the modem online") {
            try await self.gdbus("org.ofono", "/phonesim", "org.ofono.Modem.GetProperties").contains("'Online': <true>")
        }
    }

    /// A sysfs tree in which the pty looks like a USB modem's serial port, mounted over
    /// /sys/class/tty in ModemManager's own mount namespace only.
    private func makeFakeSysfs() throws {
        let sys = folder.appendingPathComponent("sys").path
        let device = "\(sys)/devices/usb1/1-1"
        let interface = "\(device)/1-1:1.0"
        let files = FileManager.default
        for directory in ["\(sys)/bus/usb/drivers/option", "\(sys)/class/tty", "\(interface)/tty/pts/\(ptyNumber)"] {
            try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try "1234\n".write(toFile: "\(device)/idVendor", atomically: true, encoding: .utf8)
        try "5678\n".write(toFile: "\(device)/idProduct", atomically: true, encoding: .utf8)
        for attribute in ["bInterfaceClass", "bInterfaceSubClass", "bInterfaceProtocol"] {
            try "ff\n".write(toFile: "\(interface)/\(attribute)", atomically: true, encoding: .utf8)
        }
        try "00\n".write(toFile: "\(interface)/bInterfaceNumber", atomically: true, encoding: .utf8)
        try files.createSymbolicLink(atPath: "\(device)/subsystem", withDestinationPath: "\(sys)/bus/usb")
        try files.createSymbolicLink(atPath: "\(interface)/subsystem", withDestinationPath: "\(sys)/bus/usb")
        try files.createSymbolicLink(atPath: "\(interface)/driver", withDestinationPath: "\(sys)/bus/usb/drivers/option")
        try files.createSymbolicLink(atPath: "\(interface)/tty/pts/\(ptyNumber)/subsystem", withDestinationPath: "\(sys)/class/tty")
    }

    private func startModemManager() async throws {
        let port = "\(folder.path)/sys/devices/usb1/1-1/1-1:1.0/tty/pts/\(ptyNumber)"
        let script = "mount -t tmpfs fake /sys/class/tty && mkdir /sys/class/tty/pts && ln -s '\(port)' /sys/class/tty/pts/\(ptyNumber) && exec /usr/sbin/ModemManager --test-no-udev --test-no-suspend-resume --test-no-qrtr --debug"
        telephonyDaemon = try launch("ModemManager", "/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c", script])
        try await poll("ModemManager on the bus") {
            (try? await self.run("/usr/bin/mmcli", ["-L"]))?.status == 0
        }
    }

    /// Plugs the modem in, waits for ModemManager to initialise it, and enables it.
    private func bringModemManagerModemUp() async throws {
        try await plugModem()
        try await poll("ModemManager to initialise the modem") {
            let modem = try? await self.run("/usr/bin/mmcli", ["-m", "any"])
            return modem?.output.contains("state: disabled") == true || modem?.output.contains("state: enabled") == true
        }
        let enabled = try await run("/usr/bin/mmcli", ["-m", "any", "-e"])
        guard enabled.status == 0 else { throw LabError("mmcli -e failed: \(enabled.output)") }
        // Until it is registered, ModemManager allows emergency calls only.
        try await poll("the modem to register with the network") {
            (try? await self.run("/usr/bin/mmcli", ["-m", "any"]))?.output.contains("state: registered") == true
        }
    }

    /// Announces the pty to ModemManager as a newly plugged modem port.
    func plugModem() async throws {
        let reported = try await run("/usr/bin/mmcli", ["--report-kernel-event=action=add,name=pts/\(ptyNumber),subsystem=tty,uid=fakemodem0"])
        guard reported.status == 0 else { throw LabError("kernel event not accepted: \(reported.output)") }
    }

    /// Tells ModemManager that the modem's port is gone (the modem was unplugged).
    func unplugModem() async throws {
        let reported = try await run("/usr/bin/mmcli", ["--report-kernel-event=action=remove,name=pts/\(ptyNumber),subsystem=tty"])
        guard reported.status == 0 else { throw LabError("kernel event not accepted: \(reported.output)") }
    }

    /// Kills the daemon as a crash would (SIGKILL).
    func crashDaemon() async {
        await telephonyDaemon?.stop(SIGKILL)
    }

    /// Starts the daemon again, as its service manager would after a crash, and waits until it is
    /// on the bus. The modem is not back yet: see ``bringModemBack()``.
    func restartDaemon() async throws {
        switch daemon {
        case .ofono: try await startOfonoDaemon()
        case .modemManager: try await startModemManager()
        }
    }

    /// Brings the modem back under the restarted daemon: oFono powers it again (it does not on
    /// its own), ModemManager needs the kernel's hot-plug event and enables it.
    func bringModemBack() async throws {
        switch daemon {
        case .ofono: try await powerOfonoModem()
        case .modemManager: try await bringModemManagerModemUp()
        }
    }

    /// The fake modem dies: its connection to oFono drops.
    func killModem() async {
        await modemProcess?.stop(SIGKILL)
    }

    // MARK: The phone's user, through the daemon

    /// The object path of the first call in `state` (in the daemon's words).
    func callPath(_ state: String) async throws -> String {
        let calls = try await calls()
        guard let call = calls.first(where: { $0.state == state }) else { throw LabError("no \(state) call in \(calls)") }
        return call.path
    }

    /// Every call the daemon lists, with its state in the daemon's words (ModemManager keeps
    /// terminated calls in its list until they are deleted).
    func calls() async throws -> [(path: String, state: String)] {
        switch daemon {
        case .ofono:
            // ([(objectpath '/phonesim/voicecall01', {'State': <'active'>, …}), ('/phonesim/voicecall02', …)],)
            // gdbus writes the type only before the first element.
            let calls = try await gdbus("org.ofono", "/phonesim", "org.ofono.VoiceCallManager.GetCalls")
            return calls.components(separatedBy: "'/phonesim/voicecall").dropFirst().map { chunk in
                let path = "/phonesim/voicecall" + String(chunk.prefix { $0 != "'" })
                let state = chunk.components(separatedBy: "'State': <'").dropFirst().first.map { String($0.prefix { $0 != "'" }) } ?? ""
                return (path, state)
            }
        case .modemManager:
            let list = try await run("/usr/bin/mmcli", ["-m", "any", "--voice-list-calls"]).output
            return list.split(separator: "\n").compactMap { line in
                guard let path = line.split(separator: " ").first(where: { $0.hasPrefix("/org/freedesktop/ModemManager1/Call/") }),
                      let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else { return nil }
                return (String(path), String(line[line.index(after: open)..<close]))
            }
        }
    }

    /// The user answers the ringing incoming call.
    func answer() async throws {
        switch daemon {
        case .ofono:
            _ = try await gdbus("org.ofono", try await callPath("incoming"), "org.ofono.VoiceCall.Answer")
        case .modemManager:
            try await mmcli(["-o", try await callPath("ringing-in"), "--accept"])
        }
    }

    /// The user dials `number`.
    func dial(_ number: String) async throws {
        switch daemon {
        case .ofono:
            _ = try await gdbus("org.ofono", "/phonesim", "org.ofono.VoiceCallManager.Dial", number, "")
        case .modemManager:
            let created = try await mmcli(["-m", "any", "--voice-create-call=number=\(number)"])
            guard let path = created.split(separator: " ").last(where: { $0.hasPrefix("/org/freedesktop/ModemManager1/Call/") }) else {
                throw LabError("no call path in \(created)")
            }
            try await mmcli(["-o", String(path.trimmingCharacters(in: .whitespacesAndNewlines)), "--start"])
        }
    }

    /// Puts the active call on hold and takes the other one (the waiting or held call), if any.
    func swap() async throws {
        switch daemon {
        case .ofono: _ = try await gdbus("org.ofono", "/phonesim", "org.ofono.VoiceCallManager.SwapCalls")
        case .modemManager: try await mmcli(["-m", "any", "--voice-hold-and-accept"])
        }
    }

    /// Answers the waiting call, putting the active one on hold.
    func holdAndAnswer() async throws {
        switch daemon {
        case .ofono: _ = try await gdbus("org.ofono", "/phonesim", "org.ofono.VoiceCallManager.HoldAndAnswer")
        case .modemManager: try await mmcli(["-m", "any", "--voice-hold-and-accept"])
        }
    }

    /// The user hangs up every call.
    func hangUpAll() async throws {
        switch daemon {
        case .ofono: _ = try await gdbus("org.ofono", "/phonesim", "org.ofono.VoiceCallManager.HangupAll")
        case .modemManager: try await mmcli(["-m", "any", "--voice-hangup-all"])
        }
    }

    // MARK: callmonitor watch

    /// Starts `callmonitor watch` against this lab's bus, collecting its standard output; with
    /// `asNobody`, as the unprivileged user `nobody` (setpriv execs it, so the pid stays).
    func watch(_ arguments: [String], input: Pipe? = nil, asNobody: Bool = false) throws -> LabProcess {
        // Every session records itself (issue 29), a file per session in the lab's folder, for
        // `withLab` to replay once the test is done with it; the folder is open to `nobody` too.
        let recordings = folder.appendingPathComponent("recordings")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        chmod(recordings.path, 0o777)
        let recording = recordings.appendingPathComponent("session-\(sessions.count + 1).scenario")
        let arguments = arguments + ["--record", recording.path]
        // CALLMONITOR_RECORD_DBUS_DIR=DIR keeps the D-Bus traffic watch saw, as DIR/LABEL-DAEMON.jsonl
        // (how Tests/hnbTests/Recordings were made).
        var environment = self.environment
        if let directory = ProcessInfo.processInfo.environment["CALLMONITOR_RECORD_DBUS_DIR"], !label.isEmpty {
            environment["CALLMONITOR_DBUS_RECORD"] = "\(directory)/\(label)-\(daemon).jsonl"
        }
        if asNobody {
            chmod(folder.path + "/system_bus_socket", 0o777)
            let watch = try launch("callmonitor-watch", "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", toolURL.path, "watch"] + arguments, environment: environment, collect: true, input: input)
            sessions.append((watch, recording))
            return watch
        }
        let watch = try launch("callmonitor-watch", toolURL.path, ["watch"] + arguments, environment: environment, collect: true, input: input)
        sessions.append((watch, recording))
        return watch
    }

    /// Each `watch` session this lab started, with the file it recorded itself to.
    private(set) var sessions: [(watch: LabProcess, recording: URL)] = []

    // MARK: Plumbing

    private func launch(_ name: String, _ executable: String, _ arguments: [String], environment: [String: String]? = nil, collect: Bool = false, input: Pipe? = nil) throws -> LabProcess {
        let log = folder.appendingPathComponent("\(name)-\(processes.count).log")
        let process = try LabProcess(name, executable, arguments, environment: environment ?? self.environment, log: log, collect: collect, input: input)
        processes.append(process)
        return process
    }

    struct Result {
        let status: Int32
        let output: String
    }

    /// Runs a helper to completion (on a Dispatch thread, so the test's threads stay free).
    func run(_ executable: String, _ arguments: [String]) async throws -> Result {
        let environment = self.environment
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                process.environment = environment
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = pipe
                process.standardInput = FileHandle.nullDevice
                do {
                    try process.run()
                } catch {
                    return continuation.resume(throwing: error)
                }
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                // Foundation on Linux never frees a started Process, so its pipe closes only here.
                try? pipe.fileHandleForReading.close()
                process.waitUntilExit()
                continuation.resume(returning: Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self)))
            }
        }
    }

    /// Calls a method with gdbus on the lab's bus; a failed call throws.
    @discardableResult
    func gdbus(_ destination: String, _ path: String, _ method: String, _ arguments: String...) async throws -> String {
        let result = try await run("/usr/bin/gdbus", ["call", "--system", "-d", destination, "-o", path, "-m", method] + arguments)
        guard result.status == 0 else { throw LabError("gdbus \(method) on \(path): \(result.output)") }
        return result.output
    }

    @discardableResult
    func mmcli(_ arguments: [String]) async throws -> String {
        let result = try await run("/usr/bin/mmcli", arguments)
        guard result.status == 0 else { throw LabError("mmcli \(arguments.joined(separator: " ")): \(result.output)") }
        return result.output
    }

    /// Polls `condition` every 100 ms for up to ``Patience/seconds``; a timeout is an error,
    /// never a silent fall-through.
    func poll(_ what: String, _ condition: () async throws -> Bool) async throws {
        if await Patience.wait(every: 0.1, until: { (try? await condition()) == true }) { return }
        throw LabError("timed out after \(Int(Patience.seconds)) s waiting for \(what)")
    }

    /// Stops every process in the reverse order of their start (SIGTERM, then SIGKILL after 3 s)
    /// and removes the folder, unless `keepLogs`. With `CALLMONITOR_WATCH_TRANSCRIPTS=DIR` set, the
    /// watch transcripts are kept in DIR as `LABEL.jsonl` (how the README's were captured).
    func shutdown(keepLogs: Bool = false, label: String = "") async {
        for process in processes.reversed() {
            await process.stop()
        }
        if let directory = ProcessInfo.processInfo.environment["CALLMONITOR_WATCH_TRANSCRIPTS"], !label.isEmpty {
            let lines = processes.filter { $0.name == "callmonitor-watch" }.flatMap { $0.output?.snapshot ?? [] }
            let file = URL(fileURLWithPath: directory).appendingPathComponent("\(label)-\(daemon).jsonl")
            try? (lines.map { $0 + "\n" }.joined()).write(to: file, atomically: true, encoding: .utf8)
        }
        processes = []
        if !keepLogs { try? FileManager.default.removeItem(at: folder) }
    }
}
#endif
#endif

// The header of a recording: what the file holds and where it was made (library version, OS and
// version, device class), as comment lines. Pure, apart from reading the running system's names.

import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

enum RecordingHeader {
    /// The library's version, as the CHANGELOG names it.
    static let libraryVersion = "0.1.0"

    /// The header's lines, each a comment, ending in a line end.
    static func text(library: String, os: String, osVersion: String, device: String, maxBytes: Int) -> String {
        """
        # hnb session recording: every input the monitor received, as `callmonitor simulate` lines
        # (TIME COMMAND, TIME in seconds from the start of the recording on the monotonic clock), and
        # everything it did, as `#>` lines in the transcript's JSON form (`callmonitor replay FILE --check`
        # compares them). Calls are C1, C2, ... and protections P1, P2, ... in order of appearance; no
        # phone number or call identifier of the device is in this file.
        # library: hnb \(library)
        # os: \(os) \(osVersion)
        # device: \(device)
        # maxBytes: \(maxBytes)
        0 recording

        """
    }

    /// The device's class from its machine name (`iPhone15,2`, `iPad13,1`, `arm64`): the model
    /// class only, never the model, which with the OS version would narrow the user down.
    static func deviceClass(machine: String, isMac: Bool = RecordingHeader.isMac) -> String {
        if isMac { return "Mac" }
        if machine.hasPrefix("iPhone") { return "iPhone" }
        if machine.hasPrefix("iPad") { return "iPad" }
        if machine.hasPrefix("RealityDevice") { return "Vision" }
        #if os(iOS) || os(visionOS)
        // The iOS Simulator's machine is its host's CPU.
        return "Simulator"
        #else
        return osName
        #endif
    }

    static var isMac: Bool {
        #if os(macOS) || targetEnvironment(macCatalyst)
        return true
        #elseif os(iOS)
        // An iPhone or iPad app running on a Mac with Apple silicon.
        #if HNB_APPLE_LINT
        // The Linux Foundation that scripts/lint-apple compiles against has no isiOSAppOnMac;
        // the real-SDK check compiles the line below.
        return false
        #else
        if #available(iOS 14.0, *) { return ProcessInfo.processInfo.isiOSAppOnMac }
        return false
        #endif
        #else
        return false
        #endif
    }

    static var osName: String {
        #if os(visionOS)
        "visionOS"
        #elseif targetEnvironment(macCatalyst)
        "Mac Catalyst"
        #elseif os(iOS)
        "iOS"
        #elseif os(macOS)
        "macOS"
        #elseif os(Linux)
        "Linux"
        #else
        "unknown"
        #endif
    }

    static var osVersion: String {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
    }

    /// uname(3)'s machine name.
    static var machine: String {
        var name = utsname()
        uname(&name)
        return withUnsafeBytes(of: &name.machine) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

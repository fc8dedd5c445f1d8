// The live ports of each platform, and the simple ones for systems without telephony or an app
// lifecycle.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension LivePorts {
    #if canImport(UIKit) && canImport(CallKit) && !os(macOS)
    /// CallKit for calls, the UIKit lifecycle, the UIKit dialog, `exit(0)`.
    @available(iOSApplicationExtension, unavailable)
    static func make() -> LivePorts {
        LivePorts(
            callSource: CallKitCallSource(),
            appState: UIKitAppStateSource(),
            scheduler: LiveScheduler(),
            alertRenderer: UIKitAlertRenderer(),
            terminator: ProcessExitTerminator(),
            strings: .localized(),
            screenCapture: platformScreenCapture()
        )
    }

    /// UIKit's capture state where UIKit has `UIScreen`; none on visionOS.
    @available(iOSApplicationExtension, unavailable)
    private static func platformScreenCapture() -> any ScreenCaptureSource {
        #if os(visionOS)
        NoScreenCapture()
        #else
        UIKitScreenCaptureSource()
        #endif
    }
    #else
    /// No lifecycle, the dialog as plain text on standard error; on Linux with the `Telephony` trait, the calls of
    /// ModemManager if it is on the system bus, else oFono, else none. The source picks the daemon
    /// and connects only when monitoring starts, so with call detection off nothing is created.
    static func make() -> LivePorts {
        #if Telephony && os(Linux)
        let callSource: any CallSource = TelephonyCallSource(backend: .auto, onStatus: TelephonyCallSource.sharedInstanceStatus)
        #else
        let callSource: any CallSource = NoTelephonyCallSource()
        #endif
        return LivePorts(
            callSource: callSource,
            appState: ProcessAppState(),
            scheduler: LiveScheduler(),
            alertRenderer: StandardErrorAlertRenderer(),
            terminator: ProcessExitTerminator(),
            strings: .localized(),
            screenCapture: NoScreenCapture()
        )
    }
    #endif
}

/// The call source of a system with no telephony service the library can read (a Linux desktop or
/// server, macOS): it reports no calls, ever, and says so in its name.
public final class NoTelephonyCallSource: CallSource {
    /// A source that will report no calls.
    public nonisolated init() {}
    /// Delivers the one complete list this source will ever have: no calls.
    public func start(_ deliver: @escaping @Sendable (CallBatch) -> Void) { deliver(.complete([])) }
    /// Nothing to stop: this source never delivers again after ``start(_:)``.
    public func stop() {}
}

/// The app state of a process without an app lifecycle: always in the foreground.
public final class ProcessAppState: AppStateSource {
    /// A source that is always in the foreground.
    public nonisolated init() {}
    /// Always `true`: a process without an app lifecycle is never in the background.
    public var isForeground: Bool { true }
    /// Delivers nothing: the state never changes.
    public func start(_ deliver: @escaping @Sendable (Bool) -> Void) {}
    /// Nothing to stop.
    public func stop() {}
}

/// Ends the process with `exit(code)`, as the reference specifies.
///
/// `exit` skips the usual shutdown path of an app; use ``CallMonitor/setBeforeForceExit(budget:_:)``
/// to wipe session data or write a last log line first.
public final class ProcessExitTerminator: AppTerminator {
    /// A terminator.
    public nonisolated init() {}

    /// Ends the process with `exit(code)`; it does not return.
    public func terminate(code: Int32) {
        exit(code)
    }

    /// Ends the process with `exit(code)` from any thread; it does not return.
    public nonisolated func terminateFromAnyThread(code: Int32) {
        exit(code)
    }
}

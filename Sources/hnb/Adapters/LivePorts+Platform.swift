// Which live ports the shared instance (and `CallMonitor.Ports.live`) uses on each platform, as
// one `CallMonitor.Ports` value.

extension LivePorts {
    #if canImport(UIKit) && canImport(CallKit) && !os(macOS)
    /// CallKit for calls, the UIKit lifecycle, the UIKit dialog, `exit(0)`.
    @available(iOSApplicationExtension, unavailable)
    static func make() -> CallMonitor.Ports {
        CallMonitor.Ports(
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
    static func make() -> CallMonitor.Ports {
        #if Telephony && os(Linux)
        let callSource: any CallSource = TelephonyCallSource(backend: .auto, onStatus: TelephonyCallSource.sharedInstanceStatus)
        #else
        let callSource: any CallSource = NoTelephonyCallSource()
        #endif
        return CallMonitor.Ports(
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

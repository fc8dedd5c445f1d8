// The set of ports the shared instance uses; `LivePorts+Platform.swift` says which they are on each
// platform.

/// The set of live ports for ``CallMonitor/sharedInstance()``.
struct LivePorts {
    let callSource: any CallSource
    let appState: any AppStateSource
    let scheduler: any MonitorScheduler
    let alertRenderer: any SecurityAlertRenderer
    let terminator: any AppTerminator
    let strings: CallMonitorStrings
    let screenCapture: any ScreenCaptureSource
}

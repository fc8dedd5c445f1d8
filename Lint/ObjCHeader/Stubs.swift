// Compiled only by scripts/objc-header, never shipped. Linux has no Objective-C runtime, so the
// header is generated from the public API files with these stand-ins for what they lean on:
// an `@objc` root class named like Foundation's, and the platform ports (whose files use C
// pointers that the Objective-C-interop front end on Linux cannot type-check).

@objc open class NSObject {
    @objc public init() {}
}

struct LivePorts {
    let callSource: any CallSource
    let appState: any AppStateSource
    let scheduler: any MonitorScheduler
    let alertRenderer: any SecurityAlertRenderer
    let terminator: any AppTerminator
    let strings: CallMonitorStrings
    static func make() -> LivePorts { preconditionFailure("header generation only") }
}

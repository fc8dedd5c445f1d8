// Compiled only by scripts/objc-header, never shipped. Linux has no Objective-C runtime, so the
// header is generated from the public API files with these stand-ins for what they lean on:
// an `@objc` root class named like Foundation's, and `LivePorts.make()` (PlatformPorts.swift and
// the other files left out use C pointers, which the Objective-C-interop front end on Linux cannot
// type-check).

@objc open class NSObject {
    @objc public init() {}
}

extension LivePorts {
    static func make() -> LivePorts { preconditionFailure("header generation only") }
}

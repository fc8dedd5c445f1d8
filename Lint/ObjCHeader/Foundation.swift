// A stand-in for Apple's Foundation module, compiled by scripts/objc-header only, never shipped.
//
// On Apple platforms `@objc` is accepted only in a file that imports Foundation itself, and the
// Objective-C root class `NSObject` comes from there. Linux has neither an Objective-C runtime nor
// such a Foundation, so the header build puts this module, named `Foundation`, first on the import
// path: a library file that uses `@objc` without `import Foundation` then fails here exactly as it
// fails in Xcode ("@objc attribute used without importing module 'Foundation'").
//
// It re-exports the Linux toolchain's FoundationEssentials (UUID, Data, Date, ...), which the
// public API files use, re-exports the stand-in ObjectiveC module (ObjectiveC/: the root class, from a header), and declares the
// few Objective-C-only classes the API files need. Each declaration
// names the Apple SDK header it mirrors.

@_exported import Dispatch
@_exported import FoundationEssentials
@_exported import ObjectiveC

/// Foundation/NSLock.h: `NSLock` (a lock object; this stand-in never runs).
open class NSLock: @unchecked Sendable {
    public init() {}
    open func lock() {}
    open func unlock() {}
    open func `try`() -> Bool { true }
    public func withLock<R>(_ body: () throws -> R) rethrows -> R { try body() }
}

/// Foundation/NSLock.h: `NSRecursiveLock`.
open class NSRecursiveLock: @unchecked Sendable {
    public init() {}
    open func lock() {}
    open func unlock() {}
    public func withLock<R>(_ body: () throws -> R) rethrows -> R { try body() }
}

/// Foundation/NSUUID.h: `NSUUID`, the Objective-C face of `UUID` (`-exemptCallWithUUID:`).
@objc(NSUUID)
open class NSUUID: NSObject {
    open var uuidString: String { "" }
}

/// Foundation/NSString.h: `NSString`, which Swift's `String` bridges to in Objective-C signatures
/// (`-protectNamed:withTerminateIn:contextKind:detail:`, a policy
/// result's reason).
@objc(NSString)
open class NSString: NSObject {}

/// Foundation's bridging of `String` to `NSString`, which makes a `String` parameter or property
/// representable in Objective-C, as it is on Apple platforms. Never runs.
extension String: @retroactive _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSString { NSString() }
    public static func _forceBridgeFromObjectiveC(_ source: NSString, result: inout String?) { result = "" }
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSString, result: inout String?) -> Bool {
        result = ""
        return true
    }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSString?) -> String { "" }
}

/// Foundation/NSData.h: `NSData` (`-applyPolicyDocument:`).
@objc(NSData)
open class NSData: NSObject {}

/// Foundation/NSDate.h: `NSDate` (a Trust Insights evidence's `serverTimestamp`).
@objc(NSDate)
open class NSDate: NSObject {}

/// Foundation/NSDictionary.h: `NSDictionary` (`-setPolicyAttributes:`).
@objc(NSDictionary)
open class NSDictionary: NSObject {}

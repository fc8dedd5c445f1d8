// Objective-C's face of the signed remote policy (issue 28): the same calls as
// CallMonitor+Policy.swift, spelled with Foundation's object types, which Objective-C passes.
// Each only converts and forwards. The conversions differ for header generation on Linux, whose
// stand-in Foundation has the types but not the bridging (Lint/ObjCHeader/Foundation.swift).

import Foundation
import hnb

#if canImport(ObjectiveC) || HNB_OBJC_HEADER
extension CallMonitor {
    #if !HNB_OBJC_HEADER
    // Left out of the Linux header: its front end crashes printing a throwing method without
    // Apple's NSError bridging. The iOS SDK golden (Tests/ObjCHeader/hnb-Swift.ios-sdk.golden.h)
    // has it.
    /// `-setPolicyKeysJWKS:issuer:allowsRelaxation:error:` for Objective-C, with the default
    /// directory; Swift code uses ``setPolicyKeys(jwks:issuer:allowsRelaxation:storeDirectory:)``.
    ///
    /// - Parameters:
    ///   - jwks: The JWK Set.
    ///   - issuer: The `iss` every document must carry.
    ///   - allowsRelaxation: Whether a document may weaken the code's policy.
    @available(swift, obsoleted: 1, message: "use setPolicyKeys(jwks:issuer:allowsRelaxation:storeDirectory:)")
    @objc(setPolicyKeysJWKS:issuer:allowsRelaxation:error:)
    public func objcSetPolicyKeys(jwks: NSData, issuer: NSString, allowsRelaxation: Bool) throws {
        try setPolicyKeys(jwks: ObjCBridge.data(jwks), issuer: ObjCBridge.string(issuer), allowsRelaxation: allowsRelaxation)
    }
    #endif

    /// `-setPolicyAttributes:` for Objective-C; Swift code uses ``setPolicyAttributes(_:)``.
    ///
    /// - Parameter attributes: Names and values, strings both; other entries are ignored.
    @available(swift, obsoleted: 1, message: "use setPolicyAttributes(_:)")
    @objc(setPolicyAttributes:)
    public func objcSetPolicyAttributes(_ attributes: NSDictionary) {
        setPolicyAttributes(ObjCBridge.strings(attributes))
    }

    /// `-applyPolicyDocument:` for Objective-C; Swift code uses ``applyPolicy(document:)``.
    ///
    /// - Parameter document: The JWS compact serialization.
    /// - Returns: What was done, as an object.
    @available(swift, obsoleted: 1, message: "use applyPolicy(document:)")
    @objc(applyPolicyDocument:)
    public func objcApplyPolicy(document: NSData) -> _CallMonitorPolicyResult {
        _CallMonitorPolicyResult(applyPolicy(document: ObjCBridge.data(document)))
    }
}

extension _CallMonitorPolicyResult {
    /// Why the document was refused (a ``CallMonitor/PolicyRejection`` raw value), `nil` when it
    /// was applied or unchanged.
    @available(swift, obsoleted: 1, message: "use reason")
    @objc(reason)
    public var objcReason: NSString? { reason.map(ObjCBridge.nsString) }

    /// What the refusal points at (the header member, claim or JSON path and what was
    /// expected), for a log; `nil` when the document was applied or unchanged.
    @available(swift, obsoleted: 1, message: "use detail")
    @objc(detail)
    public var objcDetail: NSString? { detail.map(ObjCBridge.nsString) }
}

/// Conversions between Foundation's object types and Swift's.
private enum ObjCBridge {
    #if HNB_OBJC_HEADER
    // The stand-in Foundation has no bridging; header generation never runs this code.
    static func data(_ data: NSData) -> Data { preconditionFailure("header generation only") }
    static func string(_ string: NSString) -> String { preconditionFailure("header generation only") }
    static func nsString(_ string: String) -> NSString { preconditionFailure("header generation only") }
    static func strings(_ dictionary: NSDictionary) -> [String: String] { preconditionFailure("header generation only") }
    #else
    static func data(_ data: NSData) -> Data { data as Data }
    static func string(_ string: NSString) -> String { string as String }
    static func nsString(_ string: String) -> NSString { string as NSString }
    static func strings(_ dictionary: NSDictionary) -> [String: String] {
        var out: [String: String] = [:]
        for (key, value) in dictionary {
            if let key = key as? String, let value = value as? String { out[key] = value }
        }
        return out
    }
    #endif
}
#endif

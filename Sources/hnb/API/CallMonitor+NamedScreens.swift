// Named screens (issue 28): a protection a signed document's `screens` can address by name.
// The guard itself, so part of hnb: a named protection works as any other without the policy
// product, and the engine applies a document's setting for the name (rule 26) when the product
// hands one over (issue 39). The Objective-C spellings are at the end.

import Foundation

extension CallMonitor {
    /// Guards the screen `name` with the terminate flow until the returned protection is ended,
    /// as ``protect(withTerminateIn:)`` does; a document's `screens` can address it by name.
    ///
    /// - Parameters:
    ///   - name: The screen's name in the documents (`"transfer"`).
    ///   - seconds: The countdown's length; values below 1 are clamped to 1.
    /// - Returns: The protection; ``CallMonitorProtection/end()`` ends it.
    public func protect(named name: String, withTerminateIn seconds: CInt) -> CallMonitorProtection {
        protect(named: name, MonitorPolicy(flow: .terminate, requestedSeconds: seconds))
    }

    /// Guards the screen `name` with the acknowledge flow until the returned protection is
    /// ended, as ``protect(withAcknowledgeIn:)`` does; a document's `screens` can address it.
    ///
    /// - Parameters:
    ///   - name: The screen's name in the documents.
    ///   - seconds: The delay before the Acknowledge button appears; negative values give 0.
    /// - Returns: The protection; ``CallMonitorProtection/end()`` ends it.
    public func protect(named name: String, withAcknowledgeIn seconds: CInt) -> CallMonitorProtection {
        protect(named: name, MonitorPolicy(flow: .acknowledge, requestedSeconds: seconds))
    }

    /// Guards the screen `name` with the terminate flow and says in the warning what the screen
    /// is about: ``protect(named:withTerminateIn:)`` with the context of
    /// ``protect(withTerminateIn:context:)``.
    ///
    /// - Parameters:
    ///   - name: The screen's name in the documents.
    ///   - seconds: The countdown's length; values below 1 are clamped to 1.
    ///   - context: What the screen is about, or `nil`.
    /// - Returns: The protection; ``CallMonitorProtection/end()`` ends it.
    public func protect(named name: String, withTerminateIn seconds: CInt, context: CallMonitorContext?) -> CallMonitorProtection {
        protect(named: name, MonitorPolicy(flow: .terminate, requestedSeconds: seconds), context: context)
    }

    /// Guards the screen `name` with the acknowledge flow and says in the warning what the
    /// screen is about: ``protect(named:withAcknowledgeIn:)`` with the context of
    /// ``protect(withAcknowledgeIn:context:)``.
    ///
    /// - Parameters:
    ///   - name: The screen's name in the documents.
    ///   - seconds: The delay before the Acknowledge button appears; negative values give 0.
    ///   - context: What the screen is about, or `nil`.
    /// - Returns: The protection; ``CallMonitorProtection/end()`` ends it.
    public func protect(named name: String, withAcknowledgeIn seconds: CInt, context: CallMonitorContext?) -> CallMonitorProtection {
        protect(named: name, MonitorPolicy(flow: .acknowledge, requestedSeconds: seconds), context: context)
    }

    private func protect(named name: String, _ policy: MonitorPolicy, context: CallMonitorContext? = nil) -> CallMonitorProtection {
        let id = core.protectionIDs.next()
        // Posted before the object exists, so its end can never overtake its begin.
        send(.beginProtection(id: id, policy, name: name, context: context, owner: owner))
        return CallMonitorProtection(monitor: self, id: id)
    }
}

#if canImport(ObjectiveC) || HNB_OBJC_HEADER
extension CallMonitor {
    /// `-protectNamed:withTerminateIn:` for Objective-C; Swift code uses
    /// ``protect(named:withTerminateIn:)``.
    ///
    /// - Parameters:
    ///   - name: The screen's name in the documents.
    ///   - seconds: The countdown's length; values below 1 are clamped to 1.
    /// - Returns: The protection; ``CallMonitorProtection/end()`` ends it.
    @available(swift, obsoleted: 1, message: "use protect(named:withTerminateIn:)")
    @objc(protectNamed:withTerminateIn:)
    public func objcProtect(named name: NSString, withTerminateIn seconds: CInt) -> CallMonitorProtection {
        protect(named: NamedScreenBridge.string(name), withTerminateIn: seconds)
    }

    /// `-protectNamed:withAcknowledgeIn:` for Objective-C; Swift code uses
    /// ``protect(named:withAcknowledgeIn:)``.
    ///
    /// - Parameters:
    ///   - name: The screen's name in the documents.
    ///   - seconds: The delay before the Acknowledge button appears; negative values give 0.
    /// - Returns: The protection; ``CallMonitorProtection/end()`` ends it.
    @available(swift, obsoleted: 1, message: "use protect(named:withAcknowledgeIn:)")
    @objc(protectNamed:withAcknowledgeIn:)
    public func objcProtect(named name: NSString, withAcknowledgeIn seconds: CInt) -> CallMonitorProtection {
        protect(named: NamedScreenBridge.string(name), withAcknowledgeIn: seconds)
    }
}

/// Conversions between Foundation's object types and Swift's, for the spellings above.
private enum NamedScreenBridge {
    #if HNB_OBJC_HEADER
    // The stand-in Foundation has no bridging; header generation never runs this code.
    static func string(_ string: NSString) -> String { preconditionFailure("header generation only") }
    #else
    static func string(_ string: NSString) -> String { string as String }
    #endif
}
#endif

// One screen's guard: the handle `protect(withTerminateIn:)` and `protect(withAcknowledgeIn:)`
// return (rule 18). Ending it is all it does; the engine decides what the end changes.

// Apple's compilers accept @objc only in a file that imports Foundation itself.
import Foundation

/// A protection of one screen, begun with ``CallMonitor/protect(named:withTerminateIn:context:)`` or
/// ``CallMonitor/protect(named:withAcknowledgeIn:context:)``; ``end()`` ends it.
///
/// While it is open, the policy in force is at least as strict as the one it was begun with.
///
/// > Important: Call ``end()`` when the screen goes away. A protection released without it keeps
/// > guarding until the process ends (fail closed), and a debug build says so once on the
/// > console.
#if canImport(ObjectiveC) || HNB_OBJC_HEADER
@objc(CallMonitorProtection)
#endif
public final class CallMonitorProtection: NSObject {
    private let monitor: CallMonitor
    private let id: UInt64
    private let ended = OnceFlag()

    init(monitor: CallMonitor, id: UInt64) {
        self.monitor = monitor
        self.id = id
        super.init()
    }

    /// Ends the protection. May be called from any thread, any number of times: only the first
    /// call does anything, and it is applied after everything the app asked of the monitor
    /// before it.
    #if canImport(ObjectiveC) || HNB_OBJC_HEADER
    @objc(end)
    #endif
    public func end() {
        guard ended.set() else { return }
        monitor.send(.endProtection(id: id))
    }

    deinit {
        #if DEBUG
        if !ended.isSet, Self.warnedAboutRelease.set() {
            print("hnb: a CallMonitorProtection was released without end(); it keeps guarding until the app ends. Keep it and call end() when its screen goes away.")
        }
        #endif
    }

    /// Set once a release without `end()` was reported, so the console hears of it only once.
    private static let warnedAboutRelease = OnceFlag()
}

#if HNB_OBJC_HEADER
// Header generation compiles against a stand-in NSObject, which the compiler does not accept as a
// Sendable superclass; the checked conformance below is the one every real build uses.
extension CallMonitorProtection: @unchecked Sendable {}
#else
// Checked: every stored property is a `let` of a Sendable type.
extension CallMonitorProtection: Sendable {}
#endif

/// A flag that is set once, from any thread.
struct OnceFlag: Sendable {
    private let value = Locked(false)

    /// Sets the flag; returns whether this call set it (`false` if it was set already).
    func set() -> Bool {
        value.withLock { isSet in
            guard !isSet else { return false }
            isSet = true
            return true
        }
    }

    var isSet: Bool { value.value }
}

/// Hands out protection identifiers, unique for the monitor's life, from any thread.
struct ProtectionIDs: Sendable {
    private let last = Locked<UInt64>(0)

    func next() -> UInt64 {
        last.withLock { last in
            last &+= 1
            return last
        }
    }
}

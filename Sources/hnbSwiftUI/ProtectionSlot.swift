// The part of the SwiftUI modifiers that needs no SwiftUI: which protection a screen asks for, and
// the slot that holds the one it has open, so appearing twice begins one protection and
// disappearing ends it. Plain Swift, compiled and tested on Linux; View+CallMonitorProtection.swift
// only calls it from onAppear and onDisappear.

import hnb

/// The protection a screen asks for: a flow, its seconds and the screen's context.
package struct ProtectionRequest: Sendable {
    package let flow: CallMonitorFlow
    package let seconds: CInt
    package let context: CallMonitorContext?

    package init(flow: CallMonitorFlow, seconds: CInt, context: CallMonitorContext?) {
        self.flow = flow
        self.seconds = seconds
        self.context = context
    }

    /// Begins it on `monitor`.
    package func begin(on monitor: CallMonitor) -> CallMonitorProtection {
        switch flow {
        case .terminate: monitor.protect(withTerminateIn: seconds, context: context)
        case .acknowledge: monitor.protect(withAcknowledgeIn: seconds, context: context)
        }
    }
}

/// Holds the protection a screen has open, at most one.
///
/// Tab and navigation containers call `onAppear` again without an `onDisappear` in between, so
/// ``appear(_:on:)`` begins a protection only when none is open; ``disappear()`` ends it. A slot
/// released with a protection open (a view that went away with no `onDisappear`) leaves it
/// guarding, as any protection released without `end()` does: failing closed.
package final class ProtectionSlot {
    /// The protection open now, if any.
    package private(set) var protection: CallMonitorProtection?

    package init() {}

    /// The screen appeared: begins `request` on `monitor` unless a protection is open already.
    package func appear(_ request: ProtectionRequest, on monitor: CallMonitor) {
        guard protection == nil else { return }
        protection = request.begin(on: monitor)
    }

    /// The screen disappeared: ends the open protection, if any.
    package func disappear() {
        protection?.end()
        protection = nil
    }
}

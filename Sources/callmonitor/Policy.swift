// The policy applied to a monitor as the tool's users write it (the words themselves are the
// scenario language's, Sources/ScenarioLanguage/PolicyWords.swift).

import ScenarioLanguage
import hnb

extension CallMonitor {
    /// `startMonitoring(withTerminateIn:)` or `startMonitoring(withAcknowledgeIn:)`, by `flow`.
    func startMonitoring(_ flow: CallMonitorFlow, seconds: Int32) {
        switch flow {
        case .terminate: startMonitoring(withTerminateIn: seconds)
        case .acknowledge: startMonitoring(withAcknowledgeIn: seconds)
        }
    }

    /// `protect(withTerminateIn:)` or `protect(withAcknowledgeIn:)`, by `flow`.
    func protect(_ flow: CallMonitorFlow, seconds: Int32, context: CallMonitorContext? = nil) -> CallMonitorProtection {
        switch flow {
        case .terminate: protect(withTerminateIn: seconds, context: context)
        case .acknowledge: protect(withAcknowledgeIn: seconds, context: context)
        }
    }

    /// `protect(named:withTerminateIn:)` or `protect(named:withAcknowledgeIn:)`, by `flow`: a
    /// scenario's protections have names, which a signed policy's `screens` address (issue 28).
    func protect(named name: String, _ flow: CallMonitorFlow, seconds: Int32, context: CallMonitorContext? = nil) -> CallMonitorProtection {
        switch flow {
        case .terminate: protect(named: name, withTerminateIn: seconds, context: context)
        case .acknowledge: protect(named: name, withAcknowledgeIn: seconds, context: context)
        }
    }

    /// `protectWhileScreenCaptured(withTerminateIn:)` or `…(withAcknowledgeIn:)`, by `flow`.
    func protectWhileScreenCaptured(_ flow: CallMonitorFlow, seconds: Int32) {
        switch flow {
        case .terminate: protectWhileScreenCaptured(withTerminateIn: seconds)
        case .acknowledge: protectWhileScreenCaptured(withAcknowledgeIn: seconds)
        }
    }
}

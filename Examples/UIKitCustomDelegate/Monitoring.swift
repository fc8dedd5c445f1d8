// The app's one source of truth for call monitoring: the shared monitor in normal use, and, in
// DEBUG builds only, a second monitor of the app's own whose calls are scripted, so that the
// security screen can be seen on the iOS Simulator, which has no phone calls. Both monitors
// draw through the same delegate, the app's own SecurityPresenter.

import UIKit
import hnb
#if DEBUG
import hnbTesting   // SimulatedCallSource, for the debug switch only
#endif

@MainActor
final class Monitoring {
    static let shared = Monitoring()

    /// The policy both monitors enforce.
    enum Policy: Int, CaseIterable {
        case terminate, acknowledge

        var title: String {
            switch self {
            case .terminate: "Close app in 10 s"
            case .acknowledge: "Warn, acknowledge in 5 s"
            }
        }
    }

    private(set) var policy: Policy = .terminate
    /// Posted with every call event either monitor reports, for every window's account screen;
    /// the event is the notification's object.
    static let callEventNotification = Notification.Name("MonitoringCallEvent")

    /// The delegate. Monitors hold it weakly, so it lives here, as long as the app.
    private let presenter = SecurityPresenter()

    #if DEBUG
    // Compiled in DEBUG builds only: in a release build a switch that stops the shared monitor
    // would be a way around the policy.
    /// The scripted calls behind the debug switch.
    private let simulatedCalls: SimulatedCallSource
    /// The debug monitor: real app lifecycle, clock and exit; only the calls are simulated. Its
    /// built-in dialog is never seen while the delegate is alive.
    private let simulated: CallMonitor
    private var simulatedCall: String?
    private var callCount = 0
    #endif

    /// The monitor in charge: never both, or a real call on a phone would be enforced twice.
    private var active: CallMonitor {
        #if DEBUG
        if simulatedCall != nil { return simulated }
        #endif
        return CallMonitor.sharedInstance()
    }

    private init() {
        #if DEBUG
        let calls = SimulatedCallSource()
        simulatedCalls = calls
        simulated = CallMonitor(ports: .live.withCalls(from: calls))
        #endif
    }

    /// Starts the shared monitor with the current policy.
    func start() {
        var monitors = [CallMonitor.sharedInstance()]
        #if DEBUG
        monitors.append(simulated)
        #endif
        for monitor in monitors {
            monitor.setDelegate(presenter)
            monitor.setCallback { event in
                NotificationCenter.default.post(name: Self.callEventNotification, object: event)
            }
        }
        apply(policy, to: active)
    }

    /// Changes the policy of the monitor in charge.
    func setPolicy(_ policy: Policy) {
        self.policy = policy
        apply(policy, to: active)
    }

    #if DEBUG
    /// The debug switch: on, the shared monitor stops and the debug monitor starts with a
    /// connected call; off, the call ends and the shared monitor takes over again.
    func setSimulatingCall(_ on: Bool) {
        do {
            if on, simulatedCall == nil {
                CallMonitor.sharedInstance().stopMonitoring()
                callCount += 1
                let id = "debug-call-\(callCount)"
                simulatedCall = id
                apply(policy, to: simulated)
                try simulatedCalls.outgoing(id)
                try simulatedCalls.connect(id)
            } else if !on, let id = simulatedCall {
                try simulatedCalls.end(id)
                simulated.stopMonitoring()
                simulatedCall = nil
                apply(policy, to: CallMonitor.sharedInstance())
            }
        } catch {
            // The switch only ever scripts a new call or ends the one it started.
            assertionFailure("simulated call script: \(error)")
        }
    }
    #endif

    private func apply(_ policy: Policy, to monitor: CallMonitor) {
        switch policy {
        case .terminate: monitor.startMonitoring(withTerminateIn: 10)
        case .acknowledge: monitor.startMonitoring(withAcknowledgeIn: 5)
        }
    }
}

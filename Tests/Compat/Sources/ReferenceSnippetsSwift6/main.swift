// Every Swift snippet of ios_callmonitor_api_reference.txt, in the order it appears, as written.
// Where a snippet uses `self`, it stands inside a class as it would in an app.

import hnb

// Terminate flow — force-exit after 10 seconds
CallMonitor.sharedInstance().startMonitoring(withTerminateIn: 10)

// Acknowledge flow — show Acknowledge button after 30 seconds
CallMonitor.sharedInstance().startMonitoring(withAcknowledgeIn: 30)

// Acknowledge flow — Acknowledge button immediately visible
CallMonitor.sharedInstance().startMonitoring(withAcknowledgeIn: 0)

CallMonitor.sharedInstance().stopMonitoring()

final class SettingsScreen: CallMonitorDelegate {
    func install() {
        CallMonitor.sharedInstance().setDelegate(self)
    }

    func uninstall() {
        // "Pass nil to revert to the default UIAlertController behavior."
        CallMonitor.sharedInstance().setDelegate(nil)
    }

    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: Int32, onUserAction: @escaping () -> Void) {}
    func callMonitorCountdownTick(_ remaining: Int32) {}
    func callMonitorDidEndCall() {}
}

class MySecurityHandler: CallMonitorDelegate {

    func callMonitorDidDetectCall(
        flow: CallMonitorFlow,
        initialRemaining: Int32,
        onUserAction: @escaping () -> Void
    ) {
        // Show your custom security UI, store onUserAction to call on button tap
    }

    func callMonitorCountdownTick(_ remaining: Int32) {
        // Update countdown label
    }

    func callMonitorDidEndCall() {
        // Dismiss security UI
    }
}

// Store in a long-lived property — CallMonitor holds a weak reference
let securityHandler = MySecurityHandler()
CallMonitor.sharedInstance().setDelegate(securityHandler)
CallMonitor.sharedInstance().startMonitoring(withAcknowledgeIn: 30)

CallMonitor.sharedInstance().setCallback { event in
    switch event {
    case .ringing: print("Call ringing")
    case .started: print("Call started")
    case .ended:   print("Call ended")
    }
}

// "Pass nil to remove the callback."
CallMonitor.sharedInstance().setCallback(nil)

// The enum of the reference, used as a value.
let flows: [CallMonitorFlow] = [.terminate, .acknowledge]

let screen = SettingsScreen()
screen.install()
screen.uninstall()
CallMonitor.sharedInstance().stopMonitoring()
_ = flows


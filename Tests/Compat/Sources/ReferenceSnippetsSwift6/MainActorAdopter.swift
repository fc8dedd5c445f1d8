// Swift 6 mode only: a main-actor class (a view controller, say) adopts the protocol too.
import hnb

@MainActor
final class SecurityViewController: CallMonitorDelegate {
    private var onUserAction: (() -> Void)?
    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: Int32, onUserAction: @escaping () -> Void) {
        self.onUserAction = onUserAction
    }
    func callMonitorCountdownTick(_ remaining: Int32) {}
    func callMonitorDidEndCall() { onUserAction = nil }
}

@MainActor
func installSecurityViewController() -> SecurityViewController {
    let controller = SecurityViewController()
    CallMonitor.sharedInstance().setDelegate(controller)
    return controller
}

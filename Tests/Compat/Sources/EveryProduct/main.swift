// An app that adds every optional product beside hnb (issue 39): the signed policy (hnbPolicy), the
// recorder (hnbRecording) and the SwiftUI modifier (hnbSwiftUI: empty where SwiftUI is missing), with
// one protect entry point per flow whose name and context are optional. It proves the products'
// extensions on `CallMonitor` live side by side without clashing spellings. Compiled by CI with the
// reference snippets; nothing here runs. (An app with hnb alone is ReferenceSnippetsSwift6.)
import Foundation
import hnb
import hnbPolicy
import hnbRecording
import hnbSwiftUI

@MainActor
final class BankApp {
    private let monitor = CallMonitor.sharedInstance()
    private var transfer: CallMonitorProtection?

    func launch(keys: Data, sessionFile: URL) {
        try? monitor.setPolicyKeys(jwks: keys, issuer: "com.bank.app", allowsRelaxation: false)
        try? monitor.startRecording(to: sessionFile)
        monitor.startMonitoring(withAcknowledgeIn: 5)
    }

    func openTransfer(amount: String) {
        transfer = monitor.protect(named: "transfer", withTerminateIn: 10, context: CallMonitorContext(kind: .payment, detail: amount))
    }

    func openSettings() -> CallMonitorProtection {
        monitor.protect(withAcknowledgeIn: 3)
    }

    func received(policy document: Data) -> Bool {
        if case .applied = monitor.applyPolicy(document: document) { return true }
        return false
    }

    func leave() {
        transfer?.end()
        monitor.stopRecording()
    }
}

if CommandLine.arguments.count > 99 {
    let app = BankApp()
    app.launch(keys: Data(), sessionFile: URL(fileURLWithPath: "/tmp/session.scenario"))
    app.openTransfer(amount: "100 EUR")
    app.openSettings().end()
    print(app.received(policy: Data()))
    app.leave()
}

// An app that adds every optional product beside hnb (issue 39): the signed policy (hnbPolicy), the
// recorder (hnbRecording), the SwiftUI modifier (hnbSwiftUI: empty where SwiftUI is missing) and
// Apple's coaching insight (hnbTrustInsights, issue 40: its adapter only where TrustInsights is), with
// one protect entry point per flow whose name and context are optional. It proves the products'
// extensions on `CallMonitor` live side by side without clashing spellings. Compiled by CI with the
// reference snippets; nothing here runs. (An app with hnb alone is ReferenceSnippetsSwift6.)
import Foundation
import hnb
import hnbPolicy
import hnbRecording
import hnbSwiftUI
import hnbTrustInsights

@MainActor
final class BankApp {
    private let monitor = CallMonitor.sharedInstance()
    private var transfer: CallMonitorProtection?

    func launch(keys: Data, sessionFile: URL) {
        try? monitor.setPolicyKeys(jwks: keys, issuer: "com.bank.app", allowsRelaxation: false)
        try? monitor.startRecording(to: sessionFile)
        #if canImport(TrustInsights) && !targetEnvironment(macCatalyst)
        if #available(iOS 27.0, *) {
            monitor.useTrustInsights { evidence in Self.keep(evidence) }
        }
        #endif
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

    /// Where the bank's app would send Apple's signed evaluation to its server.
    nonisolated static func keep(_ evidence: TrustInsightsEvidence) {
        _ = (evidence.insightID, evidence.operationID, evidence.consumption, evidence.signedPayload)
    }

    func leave() {
        transfer?.end()
        monitor.stopRecording()
    }
}

if ProcessInfo.processInfo.arguments.count > 99 {
    let app = BankApp()
    app.launch(keys: Data(), sessionFile: URL(fileURLWithPath: "/tmp/session.scenario"))
    app.openTransfer(amount: "100 EUR")
    app.openSettings().end()
    print(app.received(policy: Data()))
    app.leave()
}

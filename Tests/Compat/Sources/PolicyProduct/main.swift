// An app that takes its guard's policy from its server as ChangingThePolicyRemotely.md shows it:
// `setPolicyKeys`, `setPolicyAttributes`, `applyPolicy(document:)` and `policyManifest(appVersion:)`
// come from the hnbPolicy product, beside hnb, not from hnb alone (issue 39); the named screen is
// hnb's own. Compiled by CI with the reference snippets; nothing here runs.
import Foundation
import hnb
import hnbPolicy

@MainActor
final class PolicyClient {
    private let monitor = CallMonitor.sharedInstance()

    func start(keys: Data) {
        do {
            try monitor.setPolicyKeys(jwks: keys, issuer: "com.bank.app", allowsRelaxation: false)
        } catch let error as CallMonitor.PolicyKeyError {
            print(error.description)
        } catch {
            print(error)
        }
        monitor.setPolicyAttributes(["region": "DE"])
    }

    func received(_ document: Data) {
        switch monitor.applyPolicy(document: document) {
        case .applied(let version): print("policy \(version) in force")
        case .unchanged: break
        case .rejected(let reason, let detail): print("policy refused: \(reason.rawValue): \(detail)")
        }
    }

    func manifest() -> Data {
        let transfer = monitor.protect(named: "transfer", withTerminateIn: 5)
        defer { transfer.end() }
        return monitor.policyManifest(appVersion: "4.2")
    }
}

if ProcessInfo.processInfo.arguments.count > 99 {
    let client = PolicyClient()
    client.start(keys: Data())
    client.received(Data())
    print(client.manifest().count)
}

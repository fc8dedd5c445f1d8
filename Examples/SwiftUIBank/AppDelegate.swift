// Entry point of the SwiftUI example: monitoring starts at launch, and SwiftUI draws the screens
// through a hosting controller per scene, so the app runs from the package's deployment target
// (iOS 13) on, where SwiftUI's `App` does not exist yet.

import UIKit
import hnb

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        // The app-wide policy: a warning during every call. The transfer screen guards itself
        // more strictly while it is on screen (TransferView).
        CallMonitor.sharedInstance().startMonitoring(withAcknowledgeIn: 3)
        return true
    }

    func application(
        _ application: UIApplication,
        configurationForConnecting connectingSceneSession: UISceneSession,
        options: UIScene.ConnectionOptions
    ) -> UISceneConfiguration {
        let configuration = UISceneConfiguration(name: nil, sessionRole: connectingSceneSession.role)
        configuration.delegateClass = SceneDelegate.self
        return configuration
    }
}

// Entry point of the custom delegate example: the app's own security screen is installed and
// monitoring starts at launch, before any screen exists, so a call already in progress is caught
// as soon as the app is in the foreground.

import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        Monitoring.shared.start()
        return true
    }

    // Scenes are configured in code, so the app needs no storyboard; Info.plist only has to
    // declare a scene manifest (see README.md).
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

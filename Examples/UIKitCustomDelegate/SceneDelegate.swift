// One window per scene. The security screen (SecurityScreen.swift) puts itself above the key
// scene's window; with a custom delegate, covering other windows is the app's choice.

import UIKit

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        guard let windowScene = scene as? UIWindowScene else { return }
        let window = UIWindow(windowScene: windowScene)
        window.rootViewController = UINavigationController(rootViewController: AccountViewController())
        window.makeKeyAndVisible()
        self.window = window
    }
}

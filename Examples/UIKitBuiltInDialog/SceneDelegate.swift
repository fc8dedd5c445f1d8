// One window per scene. With "Enable Multiple Windows" on, an iPad can open several: the
// library's dialog then covers every one of them (an alert on the key window, covers elsewhere).

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

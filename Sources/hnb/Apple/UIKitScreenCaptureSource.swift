// Whether the app's screen is recorded, mirrored, AirPlayed or shared, on UIKit platforms. The
// decision (what a capture means for the policy) is the engine's; this file only reads UIKit.

#if canImport(UIKit) && !os(visionOS)
import Foundation
import UIKit

/// Reports screen capture from UIKit: captured when any connected window scene is.
///
/// A scene counts as captured when its trait collection's `sceneCaptureState` is `.active`
/// (iOS 17 and later, when built with an SDK that declares it), or else when its screen's
/// `isCaptured` is true. Changes are followed through `UIScreen.capturedDidChangeNotification`
/// and the scene lifecycle notifications (a scene connecting, activating, entering the foreground
/// or disconnecting), each re-reading every scene; a delivery is made only when the answer
/// changes.
///
/// The shared ``CallMonitor`` uses it on iOS, iPadOS and Mac Catalyst. Not available on visionOS,
/// which has no `UIScreen`: the shared instance there uses ``NoScreenCapture``.
@available(iOSApplicationExtension, unavailable)
final class UIKitScreenCaptureSource: ScreenCaptureSource {
    private var observers: [any NSObjectProtocol] = []
    private var lastDelivered: Bool?

    /// A source that starts observing when the monitor starts.
    nonisolated init() {}

    /// Whether any connected window scene is captured now.
    var isCaptured: Bool {
        UIApplication.shared.connectedScenes.contains { scene in
            guard let windowScene = scene as? UIWindowScene else { return false }
            return Self.isCaptured(windowScene)
        }
    }

    /// Follows the capture and scene notifications; `deliver` runs on the main thread, only when
    /// the answer changes.
    func start(_ deliver: @escaping @Sendable (Bool) -> Void) {
        stop()
        lastDelivered = isCaptured
        let names: [Notification.Name] = [
            UIScreen.capturedDidChangeNotification,
            UIScene.willConnectNotification, UIScene.didActivateNotification,
            UIScene.willEnterForegroundNotification, UIScene.didDisconnectNotification,
        ]
        let center = NotificationCenter.default
        for name in names {
            observers.append(center.addObserver(forName: name, object: nil, queue: .main) { [weak self] _ in
                MainActor.assumeIsolated { self?.recheck(deliver) }
            })
        }
    }

    /// Stops following the notifications.
    func stop() {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        observers = []
        lastDelivered = nil
    }

    private func recheck(_ deliver: @Sendable (Bool) -> Void) {
        let captured = isCaptured
        guard captured != lastDelivered else { return }
        lastDelivered = captured
        deliver(captured)
    }

    private static func isCaptured(_ scene: UIWindowScene) -> Bool {
        // `sceneCaptureState` came with iOS 17 but is missing from early iOS 17 beta SDKs
        // (UIKit 7058.3.110, the one the real-SDK check here uses), hence the version test.
        #if canImport(UIKit, _version: 7059)
        if #available(iOS 17.0, macCatalyst 17.0, *) {
            return scene.traitCollection.sceneCaptureState == .active
        }
        #endif
        return scene.screen.isCaptured
    }
}
#endif

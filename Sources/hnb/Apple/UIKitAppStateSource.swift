// The app's foreground state on UIKit platforms. Inactive (an incoming-call screen over the app)
// counts as foreground; only `.background` does not.

#if canImport(UIKit)
import Foundation
import UIKit

/// Follows `willEnterForeground` / `didEnterBackground` and reads `applicationState` at start.
@available(iOSApplicationExtension, unavailable)
final class UIKitAppStateSource: AppStateSource {
    private var observers: [any NSObjectProtocol] = []

    /// A source that starts observing when the monitor starts.
    nonisolated init() {}

    var isForeground: Bool { UIApplication.shared.applicationState != .background }

    func start(_ deliver: @escaping @Sendable (Bool) -> Void) {
        stop()
        let center = NotificationCenter.default
        observers = [
            center.addObserver(forName: UIApplication.willEnterForegroundNotification, object: nil, queue: .main) { _ in deliver(true) },
            center.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) { _ in deliver(false) },
        ]
    }

    func stop() {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        observers = []
    }
}
#endif

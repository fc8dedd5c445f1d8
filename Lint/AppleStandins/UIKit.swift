// A stand-in for the few UIKit declarations the adapters use, transcribed from Apple's
// documentation (including `@MainActor` where UIKit has it), so `scripts/lint-apple` can
// type-check the adapters on Linux. Not shipped.

import Foundation

@MainActor
open class UIApplication {
    public enum State: Int, Sendable {
        case active, inactive, background
    }

    public static var shared: UIApplication { fatalError("stand-in") }
    open var applicationState: State { .active }

    public nonisolated static let willEnterForegroundNotification = Notification.Name("UIApplicationWillEnterForegroundNotification")
    public nonisolated static let didEnterBackgroundNotification = Notification.Name("UIApplicationDidEnterBackgroundNotification")
}

extension UIApplication {
    public nonisolated static let didBecomeActiveNotification = Notification.Name("UIApplicationDidBecomeActiveNotification")
    public var connectedScenes: Set<UIScene> { [] }
}

@MainActor
open class UIResponder: NSObject {}

@MainActor
open class UIScene: UIResponder {
    public enum ActivationState: Int, Sendable {
        case unattached = -1, foregroundActive = 0, foregroundInactive = 1, background = 2
    }
    open var activationState: ActivationState { .unattached }
}

@MainActor
open class UIWindowScene: UIScene {}

@MainActor
open class UIView: UIResponder {
    open var isHidden: Bool = false
}

@MainActor
open class UIWindow: UIView {
    public struct Level: RawRepresentable, Hashable, Sendable {
        public var rawValue: Double
        public init(rawValue: Double) { self.rawValue = rawValue }
        public static let normal = Level(rawValue: 0)
        public static let alert = Level(rawValue: 2000)
    }

    public init(windowScene: UIWindowScene) {}
    open var windowLevel: Level = .normal
    open var rootViewController: UIViewController?
    open func makeKeyAndVisible() {}
}

public func + (lhs: UIWindow.Level, rhs: Double) -> UIWindow.Level { UIWindow.Level(rawValue: lhs.rawValue + rhs) }

@MainActor
open class UIViewController: UIResponder {
    public override init() {}
    open var title: String?
    open var presentedViewController: UIViewController? { nil }
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (@MainActor @Sendable () -> Void)? = nil) {}
    open func dismiss(animated flag: Bool, completion: (@MainActor @Sendable () -> Void)? = nil) {}
}

@MainActor
open class UIAlertAction: NSObject {
    public enum Style: Int, Sendable {
        case `default` = 0, cancel = 1, destructive = 2
    }
    public convenience init(title: String?, style: Style, handler: (@MainActor @Sendable (UIAlertAction) -> Void)? = nil) {
        self.init()
    }
    open var title: String? { nil }
}

@MainActor
open class UIAlertController: UIViewController {
    public enum Style: Int, Sendable {
        case actionSheet = 0, alert = 1
    }
    public convenience init(title: String?, message: String?, preferredStyle: Style) {
        self.init()
    }
    open var message: String?
    open var actions: [UIAlertAction] { [] }
    open func addAction(_ action: UIAlertAction) {}
}


public enum UIAccessibility {
    public struct Notification: RawRepresentable, Hashable, Sendable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let announcement = Notification(rawValue: 1008)
    }
    @MainActor
    public static func post(notification: Notification, argument: Any?) {}
}

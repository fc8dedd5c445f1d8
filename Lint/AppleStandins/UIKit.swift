// A stand-in for the UIKit declarations the adapters use, so `scripts/lint-apple` can type-check
// them on Linux. Not shipped. Each declaration names the SDK header it mirrors and carries its
// isolation (`@MainActor` where UIKit has it) and availability: lint-apple turns
// `@available(<platform>, unavailable)` into a hard error on the platform it checks (for example
// `UIApplication.shared` in an app extension), as Apple's compilers do. UIKit does not exist on
// macOS, so lint-apple leaves this module out of the macOS check.

import Foundation

/// UIKit/UIApplication.h
@MainActor
open class UIApplication: UIResponder {
    /// UIKit/UIApplication.h: UIApplicationState
    public enum State: Int, Sendable {
        case active, inactive, background
    }

    /// UIKit/UIApplication.h: sharedApplication, NS_EXTENSION_UNAVAILABLE_IOS
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    public class var shared: UIApplication { fatalError("stand-in") }
    /// UIKit/UIApplication.h: applicationState, API_AVAILABLE(ios(4.0))
    open var applicationState: State { .active }
    /// UIKit/UIApplication.h: connectedScenes, API_AVAILABLE(ios(13.0))
    @available(iOS 13.0, *)
    open var connectedScenes: Set<UIScene> { [] }

    /// UIKit/UIApplication.h: UIApplicationWillEnterForegroundNotification, API_AVAILABLE(ios(4.0))
    public nonisolated static let willEnterForegroundNotification = Notification.Name("UIApplicationWillEnterForegroundNotification")
    /// UIKit/UIApplication.h: UIApplicationDidEnterBackgroundNotification, API_AVAILABLE(ios(4.0))
    public nonisolated static let didEnterBackgroundNotification = Notification.Name("UIApplicationDidEnterBackgroundNotification")
    /// UIKit/UIApplication.h: UIApplicationDidBecomeActiveNotification
    public nonisolated static let didBecomeActiveNotification = Notification.Name("UIApplicationDidBecomeActiveNotification")
}

/// UIKit/UIResponder.h
@MainActor
open class UIResponder: NSObject {}

/// UIKit/UIScene.h: API_AVAILABLE(ios(13.0))
@available(iOS 13.0, *)
@MainActor
open class UIScene: UIResponder {
    /// UIKit/UISceneDefinitions.h: UISceneActivationState
    public enum ActivationState: Int, Sendable {
        case unattached = -1, foregroundActive = 0, foregroundInactive = 1, background = 2
    }
    open var activationState: ActivationState { .unattached }
}

/// UIKit/UIWindowScene.h: API_AVAILABLE(ios(13.0))
@available(iOS 13.0, *)
@MainActor
open class UIWindowScene: UIScene {}

/// UIKit/UIView.h
@MainActor
open class UIView: UIResponder {
    open var isHidden: Bool = false
}

/// UIKit/UIWindow.h
@MainActor
open class UIWindow: UIView {
    /// UIKit/UIWindow.h: UIWindowLevel
    public struct Level: RawRepresentable, Hashable, Sendable {
        public var rawValue: Double
        public init(rawValue: Double) { self.rawValue = rawValue }
        public static let normal = Level(rawValue: 0)
        /// UIKit/UIWindow.h: UIWindowLevelAlert
        public static let alert = Level(rawValue: 2000)
    }

    /// UIKit/UIWindow.h: initWithWindowScene:, API_AVAILABLE(ios(13.0))
    @available(iOS 13.0, *)
    public init(windowScene: UIWindowScene) {}
    open var windowLevel: Level = .normal
    open var rootViewController: UIViewController?
    open func makeKeyAndVisible() {}
}

/// UIKit's Swift overlay: adding to a window level.
public func + (lhs: UIWindow.Level, rhs: Double) -> UIWindow.Level { UIWindow.Level(rawValue: lhs.rawValue + rhs) }

/// UIKit/UIViewController.h
@MainActor
open class UIViewController: UIResponder {
    public override init() {}
    open var title: String?
    open var presentedViewController: UIViewController? { nil }
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (@MainActor @Sendable () -> Void)? = nil) {}
    open func dismiss(animated flag: Bool, completion: (@MainActor @Sendable () -> Void)? = nil) {}
}

/// UIKit/UIAlertController.h: UIAlertAction
@MainActor
open class UIAlertAction: NSObject {
    /// UIKit/UIAlertController.h: UIAlertActionStyle
    public enum Style: Int, Sendable {
        case `default` = 0, cancel = 1, destructive = 2
    }
    public convenience init(title: String?, style: Style, handler: (@MainActor @Sendable (UIAlertAction) -> Void)? = nil) {
        self.init()
    }
    open var title: String? { nil }
}

/// UIKit/UIAlertController.h
@MainActor
open class UIAlertController: UIViewController {
    /// UIKit/UIAlertController.h: UIAlertControllerStyle
    public enum Style: Int, Sendable {
        case actionSheet = 0, alert = 1
    }
    public convenience init(title: String?, message: String?, preferredStyle: Style) {
        self.init()
    }
    open var message: String?
    open var actions: [UIAlertAction] { [] }
    open func addAction(_ action: UIAlertAction) {}
    /// UIKit/UIAlertController.h: preferredAction, API_AVAILABLE(ios(9.0))
    open var preferredAction: UIAlertAction?
}

/// UIKit/UIAccessibility.h and UIAccessibilityConstants.h, as UIKit's Swift overlay spells them.
public enum UIAccessibility {
    /// UIKit/UIAccessibilityConstants.h: UIAccessibilityNotifications
    public struct Notification: RawRepresentable, Hashable, Sendable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// UIKit/UIAccessibilityConstants.h: UIAccessibilityAnnouncementNotification, API_AVAILABLE(ios(4.0))
        public static let announcement = Notification(rawValue: 1008)
    }
    /// UIKit/UIAccessibility.h: UIAccessibilityIsVoiceOverRunning, API_AVAILABLE(ios(4.0))
    @MainActor
    public static var isVoiceOverRunning: Bool { false }
    /// UIKit/UIAccessibility.h: UIAccessibilityPostNotification
    @MainActor
    public static func post(notification: Notification, argument: Any?) {}
}

// --- Multi-window dialog (UIKitAlertRenderer's scene plan and cover windows) ---------------------
// Each declaration names the SDK header it mirrors (iOS 17.0 SDK) and carries its availability.

// UIKit/UISceneSession.h, UIKit/UISceneDefinitions.h, UIKit/UIWindowScene.h (the role constants)
@available(iOS 13.0, *)
@MainActor
open class UISceneSession: NSObject {
    public struct Role: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        // UIKit/UIWindowScene.h
        @available(iOS 13.0, *)
        public static let windowApplication = Role(rawValue: "UIWindowSceneSessionRoleApplication")
        // UIKit/UIWindowScene.h
        @available(iOS 16.0, *)
        public static let windowExternalDisplayNonInteractive = Role(rawValue: "UIWindowSceneSessionRoleExternalDisplayNonInteractive")
    }
    open var role: Role { .windowApplication }
    open var persistentIdentifier: String { "" }
}

// UIKit/UIScene.h
@available(iOS 13.0, *)
extension UIScene {
    public var session: UISceneSession { fatalError("stand-in") }
    public nonisolated static let willConnectNotification = Notification.Name("UISceneWillConnectNotification")
    public nonisolated static let didDisconnectNotification = Notification.Name("UISceneDidDisconnectNotification")
    public nonisolated static let didActivateNotification = Notification.Name("UISceneDidActivateNotification")
    public nonisolated static let willDeactivateNotification = Notification.Name("UISceneWillDeactivateNotification")
    public nonisolated static let willEnterForegroundNotification = Notification.Name("UISceneWillEnterForegroundNotification")
    public nonisolated static let didEnterBackgroundNotification = Notification.Name("UISceneDidEnterBackgroundNotification")
}

// UIKit/UIWindowScene.h
@available(iOS 13.0, *)
extension UIWindowScene {
    public var windows: [UIWindow] { [] }
}

// UIKit/UIWindow.h
extension UIWindow {
    public var isKeyWindow: Bool { false }
    public func makeKey() {}
    public nonisolated static let didBecomeKeyNotification = Notification.Name("UIWindowDidBecomeKeyNotification")
}

// UIKit/UIViewController.h
extension UIViewController {
    public var view: UIView! {
        get { fatalError("stand-in") }
        set {}
    }
}

// UIKit/UIAccessibility.h (a category on NSObject, without an actor)
extension NSObject {
    public var accessibilityViewIsModal: Bool {
        get { false }
        set {}
    }
    public var isAccessibilityElement: Bool {
        get { false }
        set {}
    }
    public var accessibilityLabel: String? {
        get { nil }
        set {}
    }
    public var accessibilityHint: String? {
        get { nil }
        set {}
    }
}

// UIKit/UIColor.h, UIKit/UIInterface.h (the system colors)
@available(iOS 2.0, *)
open class UIColor: NSObject, @unchecked Sendable {
    @available(iOS 13.0, *)
    open class var systemBackground: UIColor { UIColor() }
    @available(iOS 13.0, *)
    open class var label: UIColor { UIColor() }
}

// UIKit/UIFont.h, UIKit/UIFontDescriptor.h (the text styles)
@available(iOS 2.0, *)
open class UIFont: NSObject, @unchecked Sendable {
    public struct TextStyle: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        @available(iOS 9.0, *)
        public static let title2 = TextStyle(rawValue: "UICTFontTextStyleTitle2")
    }
    @available(iOS 7.0, *)
    open class func preferredFont(forTextStyle style: TextStyle) -> UIFont { UIFont() }
}

// UIKit/NSText.h (iOS values)
public enum NSTextAlignment: Int, Sendable {
    case left = 0, center = 1, right = 2, justified = 3, natural = 4
}

// UIKit/NSLayoutConstraint.h
@available(iOS 6.0, *)
@MainActor
open class NSLayoutConstraint: NSObject {
    @available(iOS 8.0, *)
    open class func activate(_ constraints: [NSLayoutConstraint]) {}
}

// UIKit/NSLayoutAnchor.h
@available(iOS 9.0, *)
@MainActor
open class NSLayoutAnchor<AnchorType: AnyObject>: NSObject {
    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint { NSLayoutConstraint() }
}

// UIKit/NSLayoutAnchor.h
@available(iOS 9.0, *)
@MainActor
open class NSLayoutXAxisAnchor: NSLayoutAnchor<NSLayoutXAxisAnchor> {}

// UIKit/NSLayoutAnchor.h
@available(iOS 9.0, *)
@MainActor
open class NSLayoutYAxisAnchor: NSLayoutAnchor<NSLayoutYAxisAnchor> {}

// UIKit/UILayoutGuide.h
@available(iOS 9.0, *)
@MainActor
open class UILayoutGuide: NSObject {
    open var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor() }
    open var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor() }
}

// UIKit/UIView.h
extension UIView {
    public var backgroundColor: UIColor? {
        get { nil }
        set {}
    }
    public var subviews: [UIView] { [] }
    public func addSubview(_ view: UIView) {}
    @available(iOS 6.0, *)
    public var translatesAutoresizingMaskIntoConstraints: Bool {
        get { true }
        set {}
    }
    @available(iOS 9.0, *)
    public var layoutMarginsGuide: UILayoutGuide { UILayoutGuide() }
    @available(iOS 9.0, *)
    public var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor() }
    @available(iOS 9.0, *)
    public var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor() }
    @available(iOS 9.0, *)
    public var centerYAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor() }
}

// UIKit/UILabel.h, UIKit/UIContentSizeCategoryAdjusting.h
@available(iOS 2.0, *)
@MainActor
open class UILabel: UIView {
    open var text: String?
    open var font: UIFont!
    open var textColor: UIColor!
    open var textAlignment: NSTextAlignment = .natural
    open var numberOfLines: Int = 1
    @available(iOS 10.0, *)
    open var adjustsFontForContentSizeCategory: Bool = false
}

// --- Screen capture (UIKitScreenCaptureSource) -----------------------------------------------------
// The iOS 17 declarations below (UISceneCaptureState, sceneCaptureState) are not in the mirrored
// iOS 17.0 beta SDK; they follow Apple's documentation of the released iOS 17 SDK, and lint-apple
// builds this module with a user-module-version above that beta's, so the adapter's
// `canImport(UIKit, _version:)` branch that uses them is type-checked here.

/// UIKit/UIScreen.h: API_AVAILABLE(ios(2.0)) API_UNAVAILABLE(xros)
@available(iOS 2.0, *)
@available(visionOS, unavailable)
@MainActor
open class UIScreen: NSObject {
    /// UIKit/UIScreen.h: captured (getter isCaptured), API_AVAILABLE(ios(11.0))
    @available(iOS 11.0, *)
    open var isCaptured: Bool { false }
    /// UIKit/UIScreen.h: UIScreenCapturedDidChangeNotification, API_AVAILABLE(ios(11.0)) API_UNAVAILABLE(xros)
    @available(iOS 11.0, *)
    public nonisolated static let capturedDidChangeNotification = Notification.Name("UIScreenCapturedDidChangeNotification")
}

/// UIKit/UITraitCollection.h: API_AVAILABLE(ios(8.0))
@available(iOS 8.0, *)
@MainActor
open class UITraitCollection: NSObject {
    /// UIKit/UITraitCollection.h: sceneCaptureState, API_AVAILABLE(ios(17.0))
    @available(iOS 17.0, *)
    open var sceneCaptureState: UISceneCaptureState { .unspecified }
}

/// UIKit/UITraitCollection.h: UISceneCaptureState, API_AVAILABLE(ios(17.0))
@available(iOS 17.0, *)
public enum UISceneCaptureState: Int, Sendable {
    case unspecified = -1, inactive = 0, active = 1
}

// UIKit/UIWindowScene.h: screen (API_UNAVAILABLE(xros)); traitCollection from UITraitEnvironment
@available(iOS 13.0, *)
extension UIWindowScene {
    @available(visionOS, unavailable)
    public var screen: UIScreen { fatalError("stand-in") }
    public var traitCollection: UITraitCollection { fatalError("stand-in") }
}

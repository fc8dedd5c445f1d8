// A behavioural stand-in for what Sources/hnb/Apple's UIKitAppStateSource.swift,
// UIKitScreenCaptureSource.swift and CallKitCallSource.swift use of UIKit, so those files run in
// `swift test` on Linux (issue 52). Test-only: no product names this module, so no app builds it,
// and it is not called UIKit (hnbAppleTests reaches it through `-module-alias UIKit=UIKitStandIn`),
// so `canImport(UIKit)` stays false in hnb's own build. Built with `-user-module-version 7100`, a
// released iOS 17 SDK's UIKit, so `canImport(UIKit, _version: 7059)` holds as on the phones.
//
// The UIKit part mirrors the SDK's declarations (each names its header; iOS 17 SDK), with the
// state they report. `StandInSystem` is not UIKit: it is the system's side (the app's life cycle,
// scenes connecting, a screen recording starting), which a test drives; it changes that state and
// posts the notifications UIKit posts, on the main thread, in UIKit's order.

import Foundation

/// UIKit/UIResponder.h: `@interface UIResponder : NSObject`, UIKIT_EXTERN API_UNAVAILABLE(watchos) NS_SWIFT_UI_ACTOR.
@MainActor
open class UIResponder: NSObject {}

/// UIKit/UIApplication.h: `@interface UIApplication : UIResponder`, NS_SWIFT_UI_ACTOR.
@MainActor
open class UIApplication: UIResponder {
    /// UIKit/UIApplication.h: `typedef NS_ENUM(NSInteger, UIApplicationState)`.
    public enum State: Int, Sendable {
        case active, inactive, background
    }

    private static let theApplication = UIApplication(standIn: ())

    /// UIKit/UIApplication.h: `- (instancetype)init` is not for apps: `sharedApplication` is the one.
    init(standIn: Void) {}

    /// UIKit/UIApplication.h: `@property(class, nonatomic, readonly) UIApplication *sharedApplication
    /// NS_EXTENSION_UNAVAILABLE_IOS(...)`.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    open class var shared: UIApplication { theApplication }

    /// UIKit/UIApplication.h: `@property(nonatomic, readonly) UIApplicationState applicationState API_AVAILABLE(ios(4.0));`
    open internal(set) var applicationState: State = .active

    /// UIKit/UIApplication.h: `@property(nonatomic, readonly) NSSet<UIScene *> *connectedScenes API_AVAILABLE(ios(13.0));`
    @available(iOS 13.0, *)
    open var connectedScenes: Set<UIScene> { Set(scenes) }

    /// The connected scenes in the order they connected, so the stand-in posts in a fixed order.
    var scenes: [UIScene] = []

    /// UIKit/UIApplication.h: `UIKIT_EXTERN NSNotificationName const UIApplicationDidEnterBackgroundNotification API_AVAILABLE(ios(4.0));`
    public nonisolated static let didEnterBackgroundNotification = Notification.Name("UIApplicationDidEnterBackgroundNotification")
    /// UIKit/UIApplication.h: `UIKIT_EXTERN NSNotificationName const UIApplicationWillEnterForegroundNotification API_AVAILABLE(ios(4.0));`
    public nonisolated static let willEnterForegroundNotification = Notification.Name("UIApplicationWillEnterForegroundNotification")
    /// UIKit/UIApplication.h: `UIKIT_EXTERN NSNotificationName const UIApplicationDidBecomeActiveNotification;`
    public nonisolated static let didBecomeActiveNotification = Notification.Name("UIApplicationDidBecomeActiveNotification")
    /// UIKit/UIApplication.h: `UIKIT_EXTERN NSNotificationName const UIApplicationWillResignActiveNotification;`
    public nonisolated static let willResignActiveNotification = Notification.Name("UIApplicationWillResignActiveNotification")
}

/// UIKit/UIScene.h: `@interface UIScene : UIResponder`, API_AVAILABLE(ios(13.0)) NS_SWIFT_UI_ACTOR.
@available(iOS 13.0, *)
@MainActor
open class UIScene: UIResponder {
    /// UIKit/UISceneDefinitions.h: `typedef NS_ENUM(NSInteger, UISceneActivationState)`.
    public enum ActivationState: Int, Sendable {
        case unattached = -1, foregroundActive = 0, foregroundInactive = 1, background = 2
    }

    /// UIKit/UIScene.h: `@property (nonatomic, readonly) UISceneActivationState activationState;`
    open internal(set) var activationState: ActivationState = .unattached

    /// UIKit/UIScene.h: `UIKIT_EXTERN NSNotificationName const UISceneWillConnectNotification`.
    public nonisolated static let willConnectNotification = Notification.Name("UISceneWillConnectNotification")
    /// UIKit/UIScene.h: `UIKIT_EXTERN NSNotificationName const UISceneDidDisconnectNotification`.
    public nonisolated static let didDisconnectNotification = Notification.Name("UISceneDidDisconnectNotification")
    /// UIKit/UIScene.h: `UIKIT_EXTERN NSNotificationName const UISceneDidActivateNotification`.
    public nonisolated static let didActivateNotification = Notification.Name("UISceneDidActivateNotification")
    /// UIKit/UIScene.h: `UIKIT_EXTERN NSNotificationName const UISceneWillDeactivateNotification`.
    public nonisolated static let willDeactivateNotification = Notification.Name("UISceneWillDeactivateNotification")
    /// UIKit/UIScene.h: `UIKIT_EXTERN NSNotificationName const UISceneWillEnterForegroundNotification`.
    public nonisolated static let willEnterForegroundNotification = Notification.Name("UISceneWillEnterForegroundNotification")
    /// UIKit/UIScene.h: `UIKIT_EXTERN NSNotificationName const UISceneDidEnterBackgroundNotification`.
    public nonisolated static let didEnterBackgroundNotification = Notification.Name("UISceneDidEnterBackgroundNotification")
}

/// UIKit/UIWindowScene.h: `@interface UIWindowScene : UIScene`, API_AVAILABLE(ios(13.0)) NS_SWIFT_UI_ACTOR.
@available(iOS 13.0, *)
@MainActor
open class UIWindowScene: UIScene {
    /// UIKit/UIWindowScene.h: `@property (nonatomic, readonly) UIScreen *screen API_UNAVAILABLE(xros);`
    @available(visionOS, unavailable)
    open var screen: UIScreen { onScreen }
    let onScreen: UIScreen
    /// UIKit/UIWindowScene.h: `@property (nonatomic, readonly) UITraitCollection *traitCollection;`
    /// (UITraitEnvironment).
    open internal(set) var traitCollection = UITraitCollection()

    init(screen: UIScreen) { onScreen = screen }
}

/// UIKit/UIScreen.h: `@interface UIScreen : NSObject <UITraitEnvironment>`, API_UNAVAILABLE(xros) NS_SWIFT_UI_ACTOR.
@available(iOS 2.0, *)
@available(visionOS, unavailable)
@MainActor
open class UIScreen: NSObject {
    /// UIKit/UIScreen.h: `@property(nonatomic, readonly, getter=isCaptured) BOOL captured API_AVAILABLE(ios(11.0));`
    @available(iOS 11.0, *)
    open internal(set) var isCaptured = false
    /// UIKit/UIScreen.h: `UIKIT_EXTERN NSNotificationName const UIScreenCapturedDidChangeNotification API_AVAILABLE(ios(11.0));`
    /// "The object of the notification is the UIScreen object whose isCaptured property changed."
    @available(iOS 11.0, *)
    public nonisolated static let capturedDidChangeNotification = Notification.Name("UIScreenCapturedDidChangeNotification")

    init(standIn: Void) {}
}

/// UIKit/UITraitCollection.h: `@interface UITraitCollection : NSObject <NSCopying, NSSecureCoding>`,
/// NS_SWIFT_SENDABLE in the SDK; immutable here too (a change makes a new collection).
@available(iOS 8.0, *)
open class UITraitCollection: NSObject, @unchecked Sendable {
    /// UIKit/UITraitCollection.h: `@property (nonatomic, readonly) UISceneCaptureState sceneCaptureState API_AVAILABLE(ios(17.0));`
    @available(iOS 17.0, *)
    public let sceneCaptureState: UISceneCaptureState

    init(sceneCaptureState: UISceneCaptureState = .unspecified) { self.sceneCaptureState = sceneCaptureState }
}

/// UIKit/UITraitCollection.h: `typedef NS_ENUM(NSInteger, UISceneCaptureState) API_AVAILABLE(ios(17.0))`.
@available(iOS 17.0, *)
public enum UISceneCaptureState: Int, Sendable {
    case unspecified = -1, inactive = 0, active = 1
}

// MARK: - The system's side (not UIKit)

/// The system's side of the app's life: what iOS does to the app and the notifications UIKit posts
/// as it does, on the main thread and in UIKit's order (Apple's "Managing your app's life cycle"
/// and "Preparing your UI to run in the background"; in a scene-based app each scene's
/// notification comes before the application's one that it causes). `UIApplication.shared`'s state
/// is what these leave it in; a test drives only through these.
@MainActor
public enum StandInSystem {
    /// The device's own screen (`UIScreen.main`).
    public private(set) static var mainScreen = UIScreen(standIn: ())
    /// Whether the app's process is suspended (it gets no notification while it is).
    public private(set) static var isSuspended = false
    /// Every notification posted, in order, since the last ``reset()``.
    public private(set) static var posted: [Notification.Name] = []

    private static var app: UIApplication { UIApplication.shared }

    /// An app that is launched and active, with one connected, active window scene on the main
    /// screen, and nothing captured.
    @discardableResult
    public static func reset() -> UIWindowScene {
        mainScreen = UIScreen(standIn: ())
        isSuspended = false
        app.applicationState = .active
        let scene = UIWindowScene(screen: mainScreen)
        scene.activationState = .foregroundActive
        scene.traitCollection = UITraitCollection(sceneCaptureState: .inactive)
        app.scenes = [scene]
        posted = []
        return scene
    }

    // MARK: The app's life cycle

    /// Something covers the app (an incoming call's screen, Control Center): the app and its
    /// scenes become inactive.
    public static func resignActive() async {
        for scene in foregroundScenes(.foregroundActive) {
            await post(UIScene.willDeactivateNotification, scene)
            scene.activationState = .foregroundInactive
        }
        await post(UIApplication.willResignActiveNotification, app)
        app.applicationState = .inactive
    }

    /// Back from an interruption: the app and its scenes are active again.
    public static func becomeActive() async {
        for scene in foregroundScenes(.foregroundInactive) {
            scene.activationState = .foregroundActive
            await post(UIScene.didActivateNotification, scene)
        }
        app.applicationState = .active
        await post(UIApplication.didBecomeActiveNotification, app)
    }

    /// The app leaves the screen: inactive first if it was active, then in the background.
    public static func enterBackground() async {
        if app.applicationState == .active { await resignActive() }
        for scene in foregroundScenes(.foregroundInactive) {
            scene.activationState = .background
            await post(UIScene.didEnterBackgroundNotification, scene)
        }
        app.applicationState = .background
        await post(UIApplication.didEnterBackgroundNotification, app)
    }

    /// The system freezes the app in the background: no notification says so, and none reaches
    /// it until it runs again (CallKit's changes are lost too; ``StandInSystem/resume()``).
    public static func suspend() {
        precondition(app.applicationState == .background, "only a background app is suspended")
        isSuspended = true
        onSuspension(true)
    }

    /// The process runs again, still in the background (no notification says so either).
    public static func resume() {
        isSuspended = false
        onSuspension(false)
    }

    /// The app comes back on screen: inactive, then active unless something covers it as it
    /// returns (an incoming call's screen: `thenActive: false`); resumed first if it was suspended.
    public static func enterForeground(thenActive: Bool = true) async {
        if isSuspended { resume() }
        for scene in app.scenes.compactMap({ $0 as? UIWindowScene }) where scene.activationState == .background {
            await post(UIScene.willEnterForegroundNotification, scene)
            scene.activationState = .foregroundInactive
        }
        await post(UIApplication.willEnterForegroundNotification, app)
        app.applicationState = .inactive
        if thenActive { await becomeActive() }
    }

    /// What the CallKit stand-in is told of a suspension (set by the tests' world; no UIKit
    /// module knows CallKit's).
    public static var onSuspension: @MainActor (Bool) -> Void = { _ in }

    // MARK: Scenes

    /// A new window scene connects (a second window on iPad, or an external display) and becomes
    /// active, as the app is.
    @discardableResult
    public static func connectScene(on screen: UIScreen? = nil) async -> UIWindowScene {
        let scene = UIWindowScene(screen: screen ?? mainScreen)
        scene.traitCollection = UITraitCollection(sceneCaptureState: scene.screen.isCaptured ? .active : .inactive)
        app.scenes.append(scene)
        await post(UIScene.willConnectNotification, scene)
        guard app.applicationState != .background else {
            scene.activationState = .background
            return scene
        }
        await post(UIScene.willEnterForegroundNotification, scene)
        scene.activationState = .foregroundActive
        await post(UIScene.didActivateNotification, scene)
        return scene
    }

    /// A window scene disconnects (its window closed, or its display unplugged).
    public static func disconnect(_ scene: UIWindowScene) async {
        app.scenes.removeAll { $0 === scene }
        scene.activationState = .unattached
        await post(UIScene.didDisconnectNotification, scene)
    }

    /// A screen that is not the device's own (an external display).
    public static func externalScreen() -> UIScreen { UIScreen(standIn: ()) }

    // MARK: Capture

    /// Recording, mirroring or AirPlay of `screen` starts or stops: its `isCaptured` and the capture
    /// trait of every scene on it change, then `UIScreen.capturedDidChangeNotification` is posted
    /// with the screen as its object (to a running app; a suspended one sees only the new state).
    public static func setCaptured(_ captured: Bool, screen: UIScreen? = nil) async {
        let screen = screen ?? mainScreen
        guard screen.isCaptured != captured else { return }
        screen.isCaptured = captured
        for scene in app.scenes.compactMap({ $0 as? UIWindowScene }) where scene.screen === screen {
            scene.traitCollection = UITraitCollection(sceneCaptureState: captured ? .active : .inactive)
        }
        await post(UIScreen.capturedDidChangeNotification, screen)
    }

    /// Only the scene's capture trait changes (iOS 17: one scene shared with SharePlay or captured
    /// by itself, while its screen's `isCaptured` says nothing); UIKit posts no notification for a
    /// trait change, it updates the scene's trait environment.
    public static func setSceneCaptureState(_ state: UISceneCaptureState, of scene: UIWindowScene) {
        scene.traitCollection = UITraitCollection(sceneCaptureState: state)
    }

    // MARK: -

    private static func foregroundScenes(_ state: UIScene.ActivationState) -> [UIWindowScene] {
        app.scenes.compactMap { $0 as? UIWindowScene }.filter { $0.activationState == state }
    }

    /// Posts as UIKit does, on the main queue, with every main-queue observer run before it returns.
    /// Not a plain `post` from here: swift-corelibs-foundation runs an observer registered with
    /// `queue: .main` inline only when the poster is itself an operation of `OperationQueue.main`
    /// (`OperationQueue.current`); a post from other main-queue work queues the block there and
    /// waits for it, which deadlocks. So the post runs inside such an operation, and the caller
    /// awaits it.
    private static func post(_ name: Notification.Name, _ object: AnyObject) async {
        guard !isSuspended else { return }
        posted.append(name)
        let carried = Carried(object: object)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            OperationQueue.main.addOperation {
                NotificationCenter.default.post(name: name, object: carried.object)
                done.resume()
            }
        }
    }
}

/// A notification's object on its way into NotificationCenter. `@unchecked Sendable`: it is only
/// handed to the observers, which UIKit (and this stand-in) runs on the main queue.
private struct Carried: @unchecked Sendable {
    let object: AnyObject
}

// The built-in dialog on UIKit platforms. Every decision (which scene gets the alert, which get
// covers, what to create, remove or make key) is ScenePlan's; this file describes UIKit's scenes
// to it and carries out the plan.

#if canImport(UIKit)
import Foundation
import UIKit

/// Presents the built-in security dialog on every window of the app: a `UIAlertController` in a
/// window of its own on the key scene, and a cover that blocks touches and shows the dialog's
/// title on every other foreground-active window scene (Split View, Stage Manager, several
/// windows). Nothing is drawn on an external display's non-interactive scene.
///
/// The countdown line is updated in place every tick and announced to VoiceOver at milestones
/// (``Announcements``: every 10 s above 10, then 5, 3, 2, 1), with a verdict line as it appears;
/// VoiceOver lands on the Close App or Acknowledge button when the alert with it appears, and each
/// cover is one element that says what it is. The alert and the covers follow the text size. UIKit cannot add a button to an alert on screen, so when the Acknowledge button
/// appears the alert is replaced by one that has it. The dialog follows scenes as they connect,
/// activate, go to the background and disconnect. On dismissal the monitor's windows are hidden
/// and released at once, without waiting for any UIKit completion handler, and the window that
/// was key before the dialog is made key again.
@available(iOSApplicationExtension, unavailable)
final class UIKitAlertRenderer: SecurityAlertRenderer {
    /// What the engine wants on screen, or `nil`.
    private var wanted: SecurityAlert?
    private var onButton: (@MainActor () -> Void)?
    /// What the last plan left on screen.
    private var drawn = ScenePlan.Drawn.nothing
    /// The monitor's window in each scene that has one.
    private var windows: [ScenePlan.SceneID: UIWindow] = [:]
    /// The alert on screen, to update in place and to tell its button's tap from a stale one.
    private var alert: UIAlertController?
    private var observers: [any NSObjectProtocol] = []
    private var updating = false
    private var updateAgain = false

    /// A renderer with nothing on screen.
    nonisolated init() {}

    func render(_ alert: SecurityAlert, onButton: @escaping @MainActor () -> Void) {
        wanted = alert
        self.onButton = onButton
        observeScenes()
        update()
    }

    func dismiss() {
        wanted = nil
        onButton = nil
        update()
        stopObservingScenes()
    }

    // MARK: Planning

    /// A scene change UIKit announces before the scene's state shows it.
    private enum PendingChange {
        case deactivating(ScenePlan.SceneID)
        case disconnecting(ScenePlan.SceneID)
    }

    /// Plans from UIKit's current state and carries the plan out. A step that makes UIKit post a
    /// notification (making a window key) can call back in here; that call is folded into one
    /// more round instead of interleaving with the steps in progress.
    private func update(_ pending: PendingChange? = nil) {
        guard !updating else {
            updateAgain = true
            return
        }
        updating = true
        defer { updating = false }
        var pending = pending
        repeat {
            updateAgain = false
            let plan = ScenePlan.make(scenes: describeScenes(pending), wanted: wanted, drawn: drawn)
            pending = nil
            drawn = plan.drawn
            for step in plan.steps { perform(step) }
            if let text = plan.announcement {
                UIAccessibility.post(notification: .announcement, argument: text)
            }
        } while updateAgain
    }

    /// The connected scenes as plain values, ordered by persistent identifier so that "first"
    /// means the same thing from one plan to the next (UIKit hands them over as a set).
    private func describeScenes(_ pending: PendingChange?) -> [ScenePlan.Scene] {
        var result: [ScenePlan.Scene] = []
        for scene in UIApplication.shared.connectedScenes {
            let id = scene.session.persistentIdentifier
            var activation = Self.activation(of: scene)
            switch pending {
            case .disconnecting(id)?: continue
            case .deactivating(id)? where activation == .foregroundActive: activation = .foregroundInactive
            default: break
            }
            var keyWindow: ScenePlan.Scene.KeyWindow?
            if let key = (scene as? UIWindowScene)?.windows.first(where: { $0.isKeyWindow }) {
                keyWindow = windows.values.contains { $0 === key } ? .monitor : .app(Self.identifier(of: key))
            }
            result.append(ScenePlan.Scene(id: id, role: Self.role(of: scene.session), activation: activation, keyWindow: keyWindow))
        }
        // Sorted through the identifiers with the plain `[String]` sort the library already
        // has (a sort by a closure is a second copy of the whole sort in the binary, about 4 KiB);
        // a scene is looked up again by its identifier, which is unique, and there are few.
        return result.map(\.id).sorted().compactMap { id in result.first { $0.id == id } }
    }

    private static func role(of session: UISceneSession) -> ScenePlan.Scene.Role {
        if session.role == .windowApplication { return .windowApplication }
        if #available(iOS 16.0, *), session.role == .windowExternalDisplayNonInteractive {
            return .externalDisplayNonInteractive
        }
        return .other
    }

    private static func activation(of scene: UIScene) -> ScenePlan.Scene.Activation {
        switch scene.activationState {
        case .foregroundActive: .foregroundActive
        case .foregroundInactive: .foregroundInactive
        case .background: .background
        case .unattached: .unattached
        @unknown default: .background
        }
    }

    private static func identifier(of window: UIWindow) -> ScenePlan.WindowID {
        ScenePlan.WindowID(raw: UInt(bitPattern: ObjectIdentifier(window)))
    }

    // MARK: Drawing

    private func perform(_ step: ScenePlan.Step) {
        switch step {
        case .removeWindow(let id):
            guard let window = windows.removeValue(forKey: id) else { return }
            // No completion handler is waited for: UIKit may not call one for a window that is
            // going away, and the window must be hidden and released either way.
            if let presented = window.rootViewController?.presentedViewController {
                if presented === alert { alert = nil }
                presented.dismiss(animated: false)
            }
            window.isHidden = true
        case .makeKey(let id):
            appWindow(id)?.makeKey()
        case .showCover(let id):
            guard let wanted, let window = newWindow(in: id) else { return }
            window.rootViewController = Self.cover(for: wanted)
            window.isHidden = false
        case .updateCover(let id):
            guard let wanted else { return }
            coverLabel(in: windows[id])?.text = wanted.title
            Self.label(cover: windows[id]?.rootViewController?.view, for: wanted)
        case .showAlert(let id, let animated):
            guard let wanted, let window = newWindow(in: id) else { return }
            let host = UIViewController()
            window.rootViewController = host
            window.makeKeyAndVisible()
            let controller = makeAlert(wanted)
            alert = controller
            let button = wanted.button
            host.present(controller, animated: animated) { [weak controller] in
                MainActor.assumeIsolated {
                    guard let controller, let button else { return }
                    Self.moveVoiceOver(to: button, in: controller)
                }
            }
        case .updateAlert:
            guard let wanted, let alert else { return }
            alert.title = wanted.title
            alert.message = Self.body(of: wanted)
        }
    }

    /// A window above everything the app shows, in scene `id`; not yet visible.
    private func newWindow(in id: ScenePlan.SceneID) -> UIWindow? {
        let scene = UIApplication.shared.connectedScenes
            .first { $0.session.persistentIdentifier == id } as? UIWindowScene
        guard let scene else { return nil }
        let window = UIWindow(windowScene: scene)
        window.windowLevel = .alert + 1
        windows[id] = window
        return window
    }

    /// One of the app's own windows that is still there.
    private func appWindow(_ id: ScenePlan.WindowID) -> UIWindow? {
        for case let scene as UIWindowScene in UIApplication.shared.connectedScenes {
            for window in scene.windows where Self.identifier(of: window) == id && !windows.values.contains(where: { $0 === window }) {
                return window
            }
        }
        return nil
    }

    private func makeAlert(_ content: SecurityAlert) -> UIAlertController {
        let controller = UIAlertController(title: content.title, message: Self.body(of: content), preferredStyle: .alert)
        if let button = content.button {
            // Weak: the alert owns its action, so a strong capture would keep the alert alive.
            let action = UIAlertAction(title: button, style: content.flow == .terminate ? .destructive : .default) { [weak self, weak controller] _ in
                MainActor.assumeIsolated {
                    guard let self, let controller, controller === self.alert else { return }
                    self.buttonTapped()
                }
            }
            controller.addAction(action)
            // The one action is the one a hardware keyboard's Return performs too.
            controller.preferredAction = action
        }
        return controller
    }

    /// UIKit has removed the alert whose button was tapped. The engine decides whether the event
    /// is over; if it is not (an action it refused), the next plan brings the alert back.
    private func buttonTapped() {
        alert = nil
        drawn.alertDroppedByUIKit()
        onButton?()
        update()
    }

    /// Issue 30: VoiceOver moves to the alert's button, the one thing the person can do, rather
    /// than to its title: the element UIKit made for the action, found by its label (the
    /// action's title), since UIAlertController does not hand out its views. Nothing when
    /// VoiceOver is off or the element is not found (VoiceOver then reads the alert from its title).
    private static func moveVoiceOver(to button: String, in controller: UIAlertController) {
        guard UIAccessibility.isVoiceOverRunning, let element = accessibleView(labelled: button, in: controller.view) else { return }
        UIAccessibility.post(notification: screenChanged, argument: element)
    }

    /// `UIAccessibilityScreenChangedNotification`, by its value: the iOS 17 SDK declares the
    /// constant as a mutable C global (`UIKIT_EXTERN`, not `const`), which Swift 6 refuses to read
    /// from any isolation; the value itself has been 1000 since iOS 3.
    private static let screenChanged = UIAccessibility.Notification(rawValue: 1000)

    private static func accessibleView(labelled label: String, in view: UIView) -> UIView? {
        if view.isAccessibilityElement, view.accessibilityLabel == label { return view }
        for subview in view.subviews {
            if let found = accessibleView(labelled: label, in: subview) { return found }
        }
        return nil
    }

    /// Issue 30: the cover is one accessibility element that says what it is: the dialog's title,
    /// and as its hint the dialog's message, so a VoiceOver user on another window knows why
    /// nothing there responds.
    private static func label(cover view: UIView?, for alert: SecurityAlert) {
        guard let view else { return }
        view.isAccessibilityElement = true
        view.accessibilityLabel = alert.title
        view.accessibilityHint = alert.message
    }

    /// The cover: opaque, so another window of the app shows none of its content during a call,
    /// with the dialog's title in the middle, in the text style's size for the person's text size
    /// setting (Dynamic Type). Its view takes every touch.
    private static func cover(for alert: SecurityAlert) -> UIViewController {
        let title = alert.title
        let controller = UIViewController()
        let view: UIView = controller.view
        view.backgroundColor = .systemBackground
        view.accessibilityViewIsModal = true
        label(cover: view, for: alert)
        let label = UILabel()
        label.text = title
        label.font = .preferredFont(forTextStyle: .title2)
        label.adjustsFontForContentSizeCategory = true
        label.textColor = .label
        label.textAlignment = .center
        label.numberOfLines = 0
        label.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(label)
        NSLayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: view.layoutMarginsGuide.leadingAnchor),
            label.trailingAnchor.constraint(equalTo: view.layoutMarginsGuide.trailingAnchor),
            label.centerYAnchor.constraint(equalTo: view.centerYAnchor),
        ])
        return controller
    }

    private func coverLabel(in window: UIWindow?) -> UILabel? {
        window?.rootViewController?.view?.subviews.first { $0 is UILabel } as? UILabel
    }

    /// Message, the context's kind line and detail (rule 29), coaching line (rule 34), verdict
    /// line (rule 24) and countdown (``SecurityAlert/paragraphs``), each its own paragraph;
    /// UIAlertController has one message field. A paragraph is
    /// a unit of its own for the bidirectional algorithm, so a right-to-left name in the detail
    /// cannot reorder the message around it (and the detail holds no bidirectional controls:
    /// ``CallMonitorContext`` removed them). A verdict or context that changes while the alert is
    /// shown changes only this text, which ScenePlan updates in place.
    private static func body(of alert: SecurityAlert) -> String {
        alert.paragraphs.joined(separator: "\n\n")
    }

    // MARK: Following scenes

    /// Plans again whenever a scene connects, activates, deactivates, goes to the background or
    /// disconnects, or a window becomes key, so the dialog follows the app's windows and shows
    /// as soon as a scene activates if none could show it before.
    private func observeScenes() {
        guard observers.isEmpty else { return }
        let center = NotificationCenter.default
        let sceneNotifications: [Notification.Name] = [
            UIScene.willConnectNotification, UIScene.didActivateNotification,
            UIScene.willEnterForegroundNotification, UIScene.didEnterBackgroundNotification,
            UIWindow.didBecomeKeyNotification,
        ]
        for name in sceneNotifications {
            observers.append(center.addObserver(forName: name, object: nil, queue: .main) { [weak self] _ in
                MainActor.assumeIsolated { self?.update() }
            })
        }
        // These two are posted while the scene still reports its old state. The `Notification`
        // is not Sendable, so it may not cross into the main-actor closure (Swift 6 refuses to
        // send it there); only its sender does, in a box, and is unwrapped on the main queue.
        observers.append(center.addObserver(forName: UIScene.willDeactivateNotification, object: nil, queue: .main) { [weak self] note in
            let sender = NotificationSender(note)
            MainActor.assumeIsolated {
                guard let self, let scene = sender.object as? UIScene else { return }
                self.update(.deactivating(scene.session.persistentIdentifier))
            }
        })
        observers.append(center.addObserver(forName: UIScene.didDisconnectNotification, object: nil, queue: .main) { [weak self] note in
            let sender = NotificationSender(note)
            MainActor.assumeIsolated {
                guard let self, let scene = sender.object as? UIScene else { return }
                self.update(.disconnecting(scene.session.persistentIdentifier))
            }
        })
    }

    private func stopObservingScenes() {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        observers = []
    }
}

/// The object that posted a notification, carried into a main-actor closure.
///
/// `@unchecked Sendable`: it is made and read only inside a block that NotificationCenter runs on
/// the main queue (`queue: .main`), so the object never changes threads.
private struct NotificationSender: @unchecked Sendable {
    let object: Any?
    init(_ notification: Notification) { object = notification.object }
}
#endif

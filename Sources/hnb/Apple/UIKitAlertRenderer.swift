// The built-in dialog on UIKit platforms: a UIAlertController drawn from the engine's
// SecurityAlert, in its own window above everything the app shows.

#if canImport(UIKit)
import Foundation
import UIKit

/// Presents the built-in security dialog as a `UIAlertController` from a window of its own at
/// alert level, on the foreground scene, so it sits above whatever the app is presenting.
///
/// The countdown line is updated in place every tick. UIKit cannot add a button to an alert on
/// screen, so when the Acknowledge button appears the alert is replaced by one that has it,
/// without animation. VoiceOver reads the alert when it appears; the countdown is announced every
/// five seconds, not every tick.
@available(iOSApplicationExtension, unavailable)
public final class UIKitAlertRenderer: SecurityAlertRenderer {
    private var window: UIWindow?
    private var controller: UIAlertController?
    /// What the engine wants on screen, kept so it can be shown again if UIKit loses it.
    private var current: SecurityAlert?
    private var onButton: (@MainActor () -> Void)?
    private var activationObserver: (any NSObjectProtocol)?

    /// A renderer with nothing on screen.
    public nonisolated init() {}

    public func render(_ alert: SecurityAlert, onButton: @escaping @MainActor () -> Void) {
        let previous = current
        current = alert
        self.onButton = onButton
        watchActivation()
        if let controller, previous?.button == alert.button {
            controller.title = alert.title
            controller.message = Self.body(of: alert)
            announceIfDue(alert)
            return
        }
        present(alert)
    }

    public func dismiss() {
        current = nil
        onButton = nil
        let window = self.window
        self.window = nil
        let controller = self.controller
        self.controller = nil
        guard let controller else {
            window?.isHidden = true
            return
        }
        // Completion handlers are wrapped in assumeIsolated so this compiles whether or not the SDK
        // in use marks them @MainActor; UIKit calls them on the main thread either way.
        controller.dismiss(animated: true) {
            MainActor.assumeIsolated { window?.isHidden = true }
        }
    }

    /// Shows `alert` as a new controller, replacing one already on screen.
    private func present(_ alert: SecurityAlert) {
        let next = UIAlertController(title: alert.title, message: Self.body(of: alert), preferredStyle: .alert)
        if let button = alert.button {
            // Weak: the alert owns its action, so a strong capture would keep the alert alive.
            next.addAction(UIAlertAction(title: button, style: alert.flow == .terminate ? .destructive : .default) { [weak self, weak next] _ in
                MainActor.assumeIsolated {
                    guard let next else { return }
                    self?.buttonTapped(on: next)
                }
            })
        }
        guard let host = hostViewController() else {
            // No scene in the foreground: shown as soon as one becomes active (watchActivation).
            controller = nil
            return
        }
        if let old = controller {
            controller = next
            old.dismiss(animated: false) {
                MainActor.assumeIsolated { host.present(next, animated: false) }
            }
        } else {
            controller = next
            host.present(next, animated: true)
        }
    }

    /// UIKit removes an alert whose button was tapped. The engine decides whether the event is
    /// over; if it is not (an action it refused), the dialog comes back at once.
    private func buttonTapped(on tapped: UIAlertController) {
        onButton?()
        if let current, controller === tapped {
            controller = nil
            present(current)
        }
    }

    private func hostViewController() -> UIViewController? {
        if let root = window?.rootViewController { return root }
        let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
        guard let scene = scenes.first(where: { $0.activationState == .foregroundActive })
            ?? scenes.first(where: { $0.activationState == .foregroundInactive }) else { return nil }
        let window = UIWindow(windowScene: scene)
        window.windowLevel = .alert + 1
        let root = UIViewController()
        window.rootViewController = root
        window.makeKeyAndVisible()
        self.window = window
        return root
    }

    /// Re-shows the dialog when a scene becomes active, in case it could not be shown before.
    private func watchActivation() {
        guard activationObserver == nil else { return }
        activationObserver = NotificationCenter.default.addObserver(
            forName: UIApplication.didBecomeActiveNotification, object: nil, queue: .main
        ) { [weak self] _ in
            MainActor.assumeIsolated {
                guard let self, let current = self.current, self.controller == nil else { return }
                self.present(current)
            }
        }
    }

    /// Every fifth second of the countdown; a new alert (first show, button appearing) is read
    /// by VoiceOver on its own.
    private func announceIfDue(_ alert: SecurityAlert) {
        guard let text = alert.countdown, alert.remaining > 0, alert.remaining % 5 == 0 else { return }
        UIAccessibility.post(notification: .announcement, argument: text)
    }

    /// Message and countdown, each its own paragraph; UIAlertController has one message field.
    private static func body(of alert: SecurityAlert) -> String {
        [alert.message, alert.countdown].compactMap { $0 }.joined(separator: "\n\n")
    }
}
#endif

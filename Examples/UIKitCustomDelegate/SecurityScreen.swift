// The app's own security UI, drawn through CallMonitorDelegate: a full-screen view controller in
// a window above everything the app shows, with the flow's message, a live countdown and the
// button. CallMonitor still owns the timing, the countdown and the force exit.

import UIKit
import hnb

/// Receives the monitor's calls and shows or updates ``SecurityViewController``.
@MainActor
final class SecurityPresenter: NSObject, CallMonitorDelegate {
    private var window: UIWindow?
    private var screen: SecurityViewController?
    /// The app's window that was key before the screen took over, made key again afterwards.
    private weak var previousKeyWindow: UIWindow?

    override init() {
        super.init()
        // A call detected while no scene is active (the app is launching, or the call screen
        // covers it) is shown as soon as one activates. UIKit posts scene notifications on the
        // main thread.
        NotificationCenter.default.addObserver(self, selector: #selector(sceneDidActivate), name: UIScene.didActivateNotification, object: nil)
    }

    @objc private func sceneDidActivate() {
        showIfPending()
    }

    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: Int32, onUserAction: @escaping () -> Void) {
        removeWindow()
        screen = SecurityViewController(flow: flow, remaining: initialRemaining, onUserAction: onUserAction)
        showIfPending()
    }

    func callMonitorCountdownTick(_ remaining: Int32) {
        screen?.update(remaining: remaining)
    }

    func callMonitorDidEndCall() {
        screen = nil
        removeWindow()
    }

    private func showIfPending() {
        guard let screen, window == nil, let scene = foregroundScene() else { return }
        previousKeyWindow = scene.windows.first { $0.isKeyWindow }
        let window = UIWindow(windowScene: scene)
        // Above the app's own alerts and sheets, so nothing the app presents can hide it.
        window.windowLevel = .alert + 1
        window.rootViewController = screen
        window.makeKeyAndVisible()
        self.window = window
    }

    /// Hidden and released at once: nothing waits for an animation's completion.
    private func removeWindow() {
        guard let window else { return }
        window.isHidden = true
        self.window = nil
        previousKeyWindow?.makeKey()
        previousKeyWindow = nil
    }

    private func foregroundScene() -> UIWindowScene? {
        let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
            .filter { $0.session.role == .windowApplication }
        return scenes.first { $0.activationState == .foregroundActive }
    }
}

/// The security screen: what happens, how long is left, and the button once it may be used.
final class SecurityViewController: UIViewController {
    private let flow: CallMonitorFlow
    private let onUserAction: () -> Void
    private let countdownLabel = UILabel()
    private let button = UIButton(type: .system)
    private var remaining: Int32

    init(flow: CallMonitorFlow, remaining: Int32, onUserAction: @escaping () -> Void) {
        self.flow = flow
        self.remaining = remaining
        self.onUserAction = onUserAction
        super.init(nibName: nil, bundle: nil)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        fatalError("SecurityViewController is created in code")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        view.accessibilityViewIsModal = true

        let icon = UIImageView(image: UIImage(systemName: "phone.badge.waveform.fill") ?? UIImage(systemName: "phone.fill"))
        icon.tintColor = flow == .terminate ? .systemRed : .systemOrange
        icon.contentMode = .scaleAspectFit
        icon.heightAnchor.constraint(equalToConstant: 56).isActive = true

        let title = makeLabel(flow == .terminate ? "You are on a call" : "Careful: you are on a call", style: .title1)
        let message = makeLabel(
            flow == .terminate
                ? "For your protection, the app closes while a call is active. Banks never ask you to open the app during a call."
                : "Someone on the phone may be trying to see your banking details. Never share codes or send money because a caller asks you to.",
            style: .body
        )
        countdownLabel.font = .monospacedDigitSystemFont(ofSize: UIFont.preferredFont(forTextStyle: .title2).pointSize, weight: .semibold)
        countdownLabel.textAlignment = .center

        button.setTitle(flow == .terminate ? "Close app now" : "I understand", for: .normal)
        button.titleLabel?.font = .preferredFont(forTextStyle: .headline)
        button.addTarget(self, action: #selector(buttonTapped), for: .touchUpInside)

        let stack = UIStackView(arrangedSubviews: [icon, title, message, countdownLabel, button])
        stack.axis = .vertical
        stack.spacing = 20
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.leadingAnchor.constraint(equalTo: view.layoutMarginsGuide.leadingAnchor),
            stack.trailingAnchor.constraint(equalTo: view.layoutMarginsGuide.trailingAnchor),
            stack.centerYAnchor.constraint(equalTo: view.centerYAnchor),
        ])
        update(remaining: remaining)
    }

    /// Shows `remaining`; in the acknowledge flow, 0 reveals the button.
    func update(remaining: Int32) {
        self.remaining = remaining
        guard isViewLoaded else { return }
        switch flow {
        case .terminate:
            countdownLabel.text = "Closing in \(remaining) s"
            button.isHidden = false
        case .acknowledge:
            countdownLabel.text = remaining > 0 ? "You can continue in \(remaining) s" : nil
            countdownLabel.isHidden = remaining == 0
            button.isHidden = remaining > 0
        }
        // Every fifth second, so VoiceOver users hear the countdown without being flooded.
        if remaining > 0, remaining % 5 == 0, let text = countdownLabel.text {
            UIAccessibility.post(notification: .announcement, argument: text)
        }
    }

    @objc private func buttonTapped() {
        // The monitor decides: in the terminate flow the app exits if the call is still live; in
        // the acknowledge flow the screen goes away through callMonitorDidEndCall().
        onUserAction()
    }

    private func makeLabel(_ text: String, style: UIFont.TextStyle) -> UILabel {
        let label = UILabel()
        label.text = text
        label.font = .preferredFont(forTextStyle: style)
        label.adjustsFontForContentSizeCategory = true
        label.numberOfLines = 0
        label.textAlignment = .center
        return label
    }
}

// Where the built-in dialog goes when an app has several windows (Split View, Stage Manager, an
// external display), worked out from plain values so that every rule runs and is tested on Linux.
// The UIKit renderer only describes the scenes and carries out the plan.

/// What the built-in dialog must change on screen so that every window of the app is covered.
///
/// The rules, given the app's scenes and the dialog the engine wants:
/// 1. **Eligible scenes.** Only a scene whose session role is a window application is ever drawn
///    on: never an external display's non-interactive scene, a CarPlay or immersive scene. It
///    must be foreground-active to get a window. A scene that already has one keeps it while it
///    is foreground-inactive (Control Center, an incoming-call banner, a transition): it is still
///    on screen, and taking the window away would show the app's content for a moment and replay
///    the alert. It loses it in the background or when it disconnects.
/// 2. **One alert.** Exactly one eligible scene gets the alert, in a window of its own that is
///    made key: the scene that has it now, as long as that scene is eligible and holds a key
///    window (so it does not jump between scenes that each have a key window, as on iOS 15 and
///    later); else the first eligible scene that holds a key window; else the scene that has it
///    now; else the first foreground-active one; else the first eligible one. "First" is the
///    order of the list the renderer gives.
/// 3. **Covers.** Every other eligible scene gets a cover: a window at the same level that
///    swallows touches and shows the dialog's title. It is never made key.
/// 4. **No scene, no drawing.** With no eligible scene nothing is drawn; the next plan, made when
///    a scene activates, shows the dialog.
/// 5. **Replacing the alert.** UIKit cannot add a button to an alert on screen or change a
///    button's title, so a change of button or flow, and an alert UIKit removed after a tap
///    that the engine refused, is drawn as a new alert in a new window, without animation. A
///    fresh window means the new alert never waits for the old one's dismissal to finish.
///    Only the very first appearance is animated.
/// 6. **Window hygiene.** A window that is no longer needed is removed (hidden and released) at
///    once, with no completion handler involved. When the alert's window goes and no new alert
///    window takes its place in the same scene, the app's window that was key there before is
///    made key again.
/// 7. **VoiceOver.** A new alert is read by VoiceOver by itself; an alert updated in place
///    announces its countdown at milestones and a new verdict line (``Announcements``).
///
/// Bad input is clamped: a scene listed twice counts once (its first entry).
struct ScenePlan: Sendable {
    /// A scene's `UISceneSession.persistentIdentifier`: unique and stable while it is connected.
    typealias SceneID = String

    /// One of the app's own windows, as the renderer identifies it.
    struct WindowID: Hashable, Sendable {
        var raw: UInt
    }

    /// One connected scene, as UIKit reports it.
    struct Scene: Sendable {
        /// The scene session's role.
        enum Role: Equatable, Sendable {
            /// `UISceneSession.Role.windowApplication`: the app's interactive windows.
            case windowApplication
            /// `windowExternalDisplayNonInteractive`: mirrored or extended output, no touches.
            case externalDisplayNonInteractive
            /// Any other role (CarPlay, immersive and volumetric spaces, ...).
            case other
        }

        /// `UIScene.ActivationState`.
        enum Activation: Equatable, Sendable {
            case unattached, foregroundActive, foregroundInactive, background
        }

        /// The scene's key window.
        enum KeyWindow: Equatable, Sendable {
            /// One of the app's windows.
            case app(WindowID)
            /// A window of the monitor's.
            case monitor
        }

        var id: SceneID
        var role: Role
        var activation: Activation
        /// The scene's key window, or `nil` when it has none.
        var keyWindow: KeyWindow?

        init(id: SceneID, role: Role = .windowApplication, activation: Activation, keyWindow: KeyWindow? = nil) {
            self.id = id
            self.role = role
            self.activation = activation
            self.keyWindow = keyWindow
        }
    }

    /// What one of the monitor's windows holds.
    enum WindowKind: Equatable, Sendable {
        /// The alert, presented from the window's root; the window is key.
        case alert
        /// The blocking cover with the dialog's title.
        case cover
    }

    /// What the monitor has on screen: the result of the previous plan, changed only by what
    /// UIKit does on its own (``alertDroppedByUIKit()``).
    struct Drawn: Sendable {
        /// The monitor's window in each scene that has one.
        var windows: [SceneID: WindowKind] = [:]
        /// The dialog the windows were drawn for; `nil` when there is no window.
        var alert: SecurityAlert?
        /// Whether the alert controller is still presented (UIKit removes it when its button is
        /// tapped).
        var alertOnScreen = false
        /// The app's window that was key in the alert's scene before the alert window took over.
        var restoreKey: WindowID?

        /// Nothing on screen.
        static let nothing = Drawn()

        /// The scene that holds the alert window, if any.
        var alertScene: SceneID? {
            windows.first { $0.value == .alert }?.key
        }

        /// UIKit dismissed the alert by itself (its button was tapped); the window is still there.
        mutating func alertDroppedByUIKit() {
            alertOnScreen = false
        }
    }

    /// One change on screen, carried out in order.
    enum Step: Sendable {
        /// Hide the monitor's window in the scene and let it go, with whatever it presents.
        case removeWindow(SceneID)
        /// Make this app window key again.
        case makeKey(WindowID)
        /// Create a cover window in the scene and make it visible without making it key.
        case showCover(SceneID)
        /// Retitle the scene's cover in place.
        case updateCover(SceneID)
        /// Create an alert window in the scene, make it key and visible, and present the alert.
        case showAlert(SceneID, animated: Bool)
        /// Change the texts of the alert on screen in place.
        case updateAlert(SceneID)
    }

    /// The changes, in the order to make them.
    var steps: [Step]
    /// What is on screen once the steps are done.
    var drawn: Drawn
    /// A countdown line for VoiceOver to announce, if one is due.
    var announcement: String?

    init(steps: [Step], drawn: Drawn, announcement: String? = nil) {
        self.steps = steps
        self.drawn = drawn
        self.announcement = announcement
    }

    /// The plan that takes the screen from `drawn` to `wanted` on `scenes`.
    ///
    /// - Parameters:
    ///   - scenes: The connected scenes, in the renderer's order of preference.
    ///   - wanted: The dialog to show, or `nil` to show none.
    ///   - drawn: What is on screen now.
    static func make(scenes: [Scene], wanted: SecurityAlert?, drawn: Drawn) -> ScenePlan {
        var seen = Set<SceneID>()
        let scenes = scenes.filter { seen.insert($0.id).inserted }
        let eligible = wanted == nil ? [] : scenes.filter { isEligible($0, drawn: drawn) }
        let target = wanted.flatMap { _ in alertScene(among: eligible, drawn: drawn) }

        var steps: [Step] = []
        var next = Drawn()
        var announcement: String?

        // Whether the alert scene's current window can stay and be updated in place.
        let oldAlertScene = drawn.alertScene
        let keepsAlertWindow: Bool = {
            guard let target, let wanted, target == oldAlertScene, drawn.alertOnScreen,
                  let shown = drawn.alert else { return false }
            return shown.button == wanted.button && shown.flow == wanted.flow
        }()

        // 1. Windows that go: their scene left, is no longer eligible, changes kind, or holds an
        //    alert that must be replaced.
        let listed = Set(scenes.map(\.id))
        let orderedDrawn = scenes.map(\.id).filter { drawn.windows[$0] != nil }
            + drawn.windows.keys.filter { !listed.contains($0) }.sorted()
        for id in orderedDrawn {
            let kind = drawn.windows[id]!
            let wantedKind: WindowKind? = id == target ? .alert : (eligible.contains { $0.id == id } ? .cover : nil)
            let stays = wantedKind == kind && (kind == .cover || keepsAlertWindow)
            guard !stays else { continue }
            steps.append(.removeWindow(id))
            // The app's key window comes back unless a new alert window takes over right away in
            // the same scene, or the scene is gone (its windows went with it).
            if kind == .alert, listed.contains(id), id != target, let key = drawn.restoreKey {
                steps.append(.makeKey(key))
            }
        }

        // 2. Covers, in list order.
        if let wanted {
            for scene in eligible where scene.id != target {
                if drawn.windows[scene.id] == .cover {
                    if drawn.alert?.title != wanted.title { steps.append(.updateCover(scene.id)) }
                } else {
                    steps.append(.showCover(scene.id))
                }
                next.windows[scene.id] = .cover
            }
        }

        // 3. The alert.
        if let wanted, let target {
            let scene = eligible.first { $0.id == target }!
            var appKey: WindowID?
            if case .app(let key)? = scene.keyWindow { appKey = key }
            if keepsAlertWindow {
                if drawn.alert != wanted {
                    steps.append(.updateAlert(target))
                    announcement = Announcements.announcement(from: drawn.alert, to: wanted)
                }
                next.restoreKey = appKey ?? drawn.restoreKey
            } else {
                steps.append(.showAlert(target, animated: drawn.windows.isEmpty))
                // A replacement in the same scene inherits the key window to give back; the
                // monitor's own window is key there now.
                next.restoreKey = appKey ?? (target == oldAlertScene ? drawn.restoreKey : nil)
            }
            next.windows[target] = .alert
            next.alert = wanted
            next.alertOnScreen = true
        }
        return ScenePlan(steps: steps, drawn: next, announcement: announcement)
    }

    /// Rule 1.
    private static func isEligible(_ scene: Scene, drawn: Drawn) -> Bool {
        guard scene.role == .windowApplication else { return false }
        switch scene.activation {
        case .foregroundActive: return true
        case .foregroundInactive: return drawn.windows[scene.id] != nil
        case .background, .unattached: return false
        }
    }

    /// Rule 2.
    private static func alertScene(among eligible: [Scene], drawn: Drawn) -> SceneID? {
        let current = eligible.first { $0.id == drawn.alertScene }
        if let current, current.keyWindow != nil { return current.id }
        if let keyed = eligible.first(where: { $0.keyWindow != nil }) { return keyed.id }
        if let current { return current.id }
        return (eligible.first { $0.activation == .foregroundActive } ?? eligible.first)?.id
    }

    /// Rule 7: every fifth second of a running countdown.
}

#if DEBUG
// Whole plans, scenes and steps are compared only by the tests (the planner compares their
// parts), so release builds leave out the equality and its code (about 2 KiB of the iOS slice).
extension ScenePlan: Equatable {}
extension ScenePlan.Scene: Equatable {}
extension ScenePlan.Drawn: Equatable {}
extension ScenePlan.Step: Equatable {}
#endif

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

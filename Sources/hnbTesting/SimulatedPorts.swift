// The doubles put into a monitor: hnb's ports value (`CallMonitor.Ports`) filled with them, and the
// scripted verifier set on a monitor. The ports are package API of hnb, so an app's tests reach
// them only through these.

import Foundation
import hnb

extension CallMonitor.Ports {
    /// Every part simulated: scripted calls, app state and screen capture, virtual time, the
    /// dialog kept as a value and the exit recorded. Nothing of the platform is used, so a test
    /// can never end its own process or see a real call.
    ///
    /// ```swift
    /// let clock = ManualScheduler()
    /// let calls = SimulatedCallSource()
    /// let exits = SimulatedTerminator()
    /// let monitor = CallMonitor(ports: .simulated(calls: calls, scheduler: clock, terminator: exits))
    /// ```
    ///
    /// - Parameters:
    ///   - calls: The calls the test scripts.
    ///   - appState: Foreground or background; in the foreground by default.
    ///   - scheduler: The virtual clock the test advances.
    ///   - alertRenderer: The built-in dialog as a value, with a button to tap.
    ///   - terminator: Records the exit instead of ending the process.
    ///   - screenCapture: Whether the screen is captured; never by default.
    ///   - language: The built-in dialog's language (`de`, `pt-PT`); English by default.
    public static func simulated(
        calls: SimulatedCallSource,
        appState: SimulatedAppState = SimulatedAppState(),
        scheduler: ManualScheduler,
        alertRenderer: SimulatedAlertRenderer = SimulatedAlertRenderer(),
        terminator: SimulatedTerminator = SimulatedTerminator(),
        screenCapture: SimulatedScreenCapture = SimulatedScreenCapture(),
        language: String? = nil
    ) -> Self {
        Self(
            callSource: calls,
            appState: appState,
            scheduler: scheduler,
            alertRenderer: alertRenderer,
            terminator: terminator,
            strings: language.map { .localized(language: $0) } ?? .english,
            screenCapture: screenCapture
        )
    }

    /// These parts with scripted calls instead of the platform's detection: the DEBUG-only switch
    /// of an app that shows the real dialog, lifecycle and exit on the iOS Simulator, which has no
    /// calls (`CallMonitor(ports: .live.withCalls(from: calls))`).
    ///
    /// - Parameter source: The calls your code scripts.
    public func withCalls(from source: SimulatedCallSource) -> Self {
        var ports = self
        ports.callSource = source
        return ports
    }
}

extension CallMonitor {
    /// Sets a scripted verifier: the bank's verdict on a virtual clock, under the rules of
    /// ``hnb/CallMonitor/setCallVerifier(_:)``. `setCallVerifier(nil)` removes it.
    ///
    /// - Parameter verifier: Answers as its script says, on its scheduler's clock.
    public func setCallVerifier(using verifier: ScriptedCallVerifier) {
        setCallVerifier(using: Optional.some(verifier))
    }
}

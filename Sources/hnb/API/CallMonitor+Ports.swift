// What a monitor of your own is wired to, as one value: the platform's live parts, with the call
// detection replaced by a feed of the app's own. The ports themselves (call source, app state,
// clock, dialog renderer, terminator, screen capture) are package API: an app never implements
// one, and the test doubles of the hnbTesting product set them through the same value.

import Foundation

extension CallMonitor {
    /// The parts a monitor is wired to: how it learns of calls, of the app's state and of screen
    /// capture, its clock, its built-in dialog and its force exit.
    ///
    /// Start from ``live`` (what ``CallMonitor/sharedInstance()`` uses) and replace what you
    /// must: a VoIP stack of your own feeds the monitor through an ``ExternalCallSource``.
    ///
    /// ```swift
    /// let voipCalls = ExternalCallSource()
    /// let monitor = CallMonitor(ports: .live.withCalls(from: voipCalls))
    /// monitor.startMonitoring(withTerminateIn: 10)
    /// voipCalls.send([CallSnapshot(id: CallID("sip-1"), hasConnected: true)])
    /// ```
    ///
    /// Tests and DEBUG-only code get the doubles (virtual time, scripted calls, a recorded exit)
    /// from the `hnbTesting` product, which adds them to this value:
    /// `CallMonitor(ports: .simulated(calls: calls, scheduler: clock, terminator: exits))`.
    public struct Ports: Sendable {
        // Only the call source is ever replaced (withCalls(from:)); the rest are constants, which
        // under library evolution spares a setter for each.
        package var callSource: any CallSource
        package let appState: any AppStateSource
        package let scheduler: any MonitorScheduler
        package let alertRenderer: any SecurityAlertRenderer
        package let terminator: any AppTerminator
        package let strings: CallMonitorStrings
        package let screenCapture: any ScreenCaptureSource
        package let wallClock: @Sendable () -> Date

        /// Every part given; the screen is never captured and outcomes carry `Date()` unless said.
        ///
        /// - Parameters:
        ///   - callSource: Reports the device's calls.
        ///   - appState: Tells whether the app is in the foreground.
        ///   - scheduler: The clock and timers.
        ///   - alertRenderer: Draws the built-in dialog when no delegate is set.
        ///   - terminator: Ends the app when the terminate flow says so.
        ///   - strings: The built-in dialog's texts.
        ///   - screenCapture: Tells whether the screen is recorded, mirrored or shared; by default
        ///     never (rules 16 and 17 then see no capture).
        ///   - wallClock: The wall-clock time stamped on outcomes for logs; `Date()` by default.
        ///     All timing uses `scheduler`, never this.
        package init(
            callSource: any CallSource,
            appState: any AppStateSource,
            scheduler: any MonitorScheduler,
            alertRenderer: any SecurityAlertRenderer,
            terminator: any AppTerminator,
            strings: CallMonitorStrings = .english,
            screenCapture: any ScreenCaptureSource = NoScreenCapture(),
            wallClock: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.callSource = callSource
            self.appState = appState
            self.scheduler = scheduler
            self.alertRenderer = alertRenderer
            self.terminator = terminator
            self.strings = strings
            self.screenCapture = screenCapture
            self.wallClock = wallClock
        }

        /// The platform's parts, as the shared instance has them: on iOS, iPadOS and Mac Catalyst
        /// CallKit's calls, the UIKit lifecycle, screen capture and dialog, the monotonic clock
        /// and `exit(0)`; on Linux the dialog on standard error and, with the `Telephony` trait,
        /// ModemManager's or oFono's calls.
        ///
        /// Making the value starts nothing: each part begins to observe only when the monitor
        /// built from it starts monitoring.
        #if canImport(UIKit)
        @available(iOSApplicationExtension, unavailable)
        #endif
        public static var live: Ports { LivePorts.make() }

        /// These parts, with the calls reported by `source` instead of the platform's call
        /// detection: for a VoIP stack of your own or a bridge to another telephony.
        ///
        /// - Parameter source: The feed your code sends calls to, from any thread.
        public func withCalls(from source: ExternalCallSource) -> Ports {
            var ports = self
            ports.callSource = source
            return ports
        }
    }

    /// A monitor wired to the ports given one by one: the package's own tests and tools build
    /// monitors this way; apps use ``init(ports:)``, whose value carries the same parts (its
    /// initializer documents each).
    package convenience init(
        callSource: any CallSource,
        appState: any AppStateSource,
        scheduler: any MonitorScheduler,
        alertRenderer: any SecurityAlertRenderer,
        terminator: any AppTerminator,
        strings: CallMonitorStrings = .english,
        screenCapture: any ScreenCaptureSource = NoScreenCapture(),
        wallClock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(ports: Ports(
            callSource: callSource, appState: appState, scheduler: scheduler,
            alertRenderer: alertRenderer, terminator: terminator, strings: strings,
            screenCapture: screenCapture, wallClock: wallClock
        ))
    }
}

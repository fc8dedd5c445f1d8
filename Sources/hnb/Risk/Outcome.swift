// The record every security event leaves behind (rule 16): how it ended, when, how far the
// countdown got, where it was shown, and whether the screen was captured meanwhile.

import Foundation

/// How a security event ended, and what happened during it.
///
/// Every event that began ends with exactly one outcome, delivered on the main thread to the
/// handler set with ``CallMonitor/setOutcomeHandler(_:)`` and to every ``CallMonitor/outcomes``
/// subscriber. A hand-over to another delegate (or to the built-in dialog) does not end the event;
/// it shows in ``presentations``.
///
/// ```swift
/// monitor.setOutcomeHandler { outcome in
///     audit.write("\(outcome.ending) after \(outcome.duration) s, lowest \(outcome.lowestRemaining)")
/// }
/// ```
public struct CallMonitorOutcome: Sendable, Equatable, CustomStringConvertible {
    /// Why the event ended.
    public enum Ending: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Every call ended (rule 7), including a call whose end was learnt from a complete list.
        case callEnded
        /// The user acknowledged the warning (acknowledge flow, rule 6).
        case acknowledged
        /// The terminate flow force-exited the app (countdown at 0, or Close App). The outcome is
        /// delivered before the before-exit hook and the exit.
        case forceExit
        /// ``CallMonitor/stopMonitoring()`` was called (rule 10).
        case monitoringStopped
        /// `startMonitoring` with another policy replaced the one in force (rule 11). The new
        /// policy's event, if any, is a new event with an outcome of its own.
        case policyChanged

        /// The case name, as transcripts spell it.
        public var description: String { rawValue }
    }

    /// Where the event was drawn.
    public enum Surface: String, Sendable, CaseIterable, CustomStringConvertible {
        /// A ``CallMonitorDelegate``.
        case delegate
        /// The library's built-in dialog.
        case builtInDialog

        /// The case name, as transcripts spell it.
        public var description: String { rawValue }
    }

    /// One presentation of the event: the first when it began, then one per hand-over.
    public struct Presentation: Sendable, Equatable {
        /// The surface that was told to show the event.
        public var surface: Surface
        /// When, in nanoseconds of the monitor's monotonic clock.
        public var at: Int64
        /// The countdown value it was shown with.
        public var remaining: Int32

        /// A presentation with every field given.
        public init(surface: Surface, at: Int64, remaining: Int32) {
            self.surface = surface
            self.at = at
            self.remaining = remaining
        }
    }

    /// Why the event ended.
    public var ending: Ending
    /// The flow of the event.
    public var flow: CallMonitorFlow
    /// The countdown's length under the policy, in seconds (after clamping).
    public var seconds: Int32
    /// When the event began, in nanoseconds of the monitor's monotonic clock
    /// (``MonitorScheduler/now``); immune to changes of the device's time.
    public var startedAt: Int64
    /// When the event ended, on the same clock.
    public var endedAt: Int64
    /// The wall-clock time the event began, for logs (it moves when the device's time is changed;
    /// compute durations from ``startedAt`` and ``endedAt``).
    public var startedDate: Date
    /// The wall-clock time the event ended, for logs.
    public var endedDate: Date
    /// The lowest countdown value shown: 0 when the countdown ran out, higher when the event ended
    /// earlier (a Close App tap, the call ending, a stop).
    public var lowestRemaining: Int32
    /// Every presentation in order; more than one means the event was handed over (a delegate set,
    /// cleared or released during it).
    public var presentations: [Presentation]
    /// Whether the screen was captured (recorded, mirrored, shared) at any moment of the event.
    public var wasScreenCaptured: Bool

    /// A record with every field given; the monitor makes these, tests may too.
    public init(
        ending: Ending, flow: CallMonitorFlow, seconds: Int32, startedAt: Int64, endedAt: Int64,
        startedDate: Date, endedDate: Date, lowestRemaining: Int32, presentations: [Presentation],
        wasScreenCaptured: Bool
    ) {
        self.ending = ending
        self.flow = flow
        self.seconds = seconds
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.startedDate = startedDate
        self.endedDate = endedDate
        self.lowestRemaining = lowestRemaining
        self.presentations = presentations
        self.wasScreenCaptured = wasScreenCaptured
    }

    /// The surfaces that showed the event, each once, in the order they first did: `[.delegate]`,
    /// `[.builtInDialog]`, or both when it was handed over between them.
    public var surfaces: [Surface] {
        var seen: [Surface] = []
        for presentation in presentations where !seen.contains(presentation.surface) { seen.append(presentation.surface) }
        return seen
    }

    /// How long the event lasted in seconds, on the monotonic clock.
    public var duration: Double { Double(endedAt &- startedAt) / 1e9 }

    /// One line for logs.
    public var description: String {
        "\(ending) \(flow) lowest=\(lowestRemaining)/\(seconds) shownOn=\(surfaces.map(\.description).joined(separator: "+")) captured=\(wasScreenCaptured)"
    }
}

extension CallMonitorOutcome.Ending {
    init(_ ending: MonitorEngine.Ending) {
        switch ending {
        case .callEnded: self = .callEnded
        case .acknowledged: self = .acknowledged
        case .forceExit: self = .forceExit
        case .monitoringStopped: self = .monitoringStopped
        case .policyChanged: self = .policyChanged
        }
    }
}

// hnb's one seam for the recorder product (issue 39): the core tells a step observer each input
// the engine handled, with what it read and the actions it returned, before carrying them out; it
// tells it before the force exit, and of a tap that reached no monitor code. Checked here with an
// observer of the test's own, so that the seam holds whatever the recorder (hnbRecording) does.

import Testing
@testable import hnb
import hnbTesting

@Suite("Step observer")
@MainActor
struct StepObserverTests {
    /// What the observer was told of one step, in words the test compares exactly.
    struct Step: Equatable {
        let input: String
        let now: Int64
        let sensed: MonitorEngine.Sensors?
        let shownToken: UInt64?
        let events: [CallEvent]
        let exits: Bool
    }

    struct Tap: Equatable {
        let now: Int64
        let presentationShown: Bool
    }

    @MainActor
    final class StepLog: MonitorStepObserver {
        private let terminator: SimulatedTerminator
        var steps: [Step] = []
        var taps: [Tap] = []
        /// The terminator's exits each time the observer was told an exit comes next.
        var exitsWhenToldOfExit: [[Int32]] = []

        init(terminator: SimulatedTerminator) { self.terminator = terminator }

        func step(
            _ input: MonitorEngine.Input, now: Int64, sensed: MonitorEngine.Sensors?, shownToken: UInt64?, actions: [MonitorEngine.Action]
        ) {
            let name: String = switch input {
            case .start: "start"
            case .stop: "stop"
            case .calls(let batch, _): "calls \(batch.calls.map { "\($0.id)" }.joined(separator: ","))"
            case .wake: "wake"
            default: "other"
            }
            let events = actions.compactMap { action -> CallEvent? in if case .emit(let event) = action { event } else { nil } }
            let exits = actions.contains { if case .exit = $0 { true } else { false } }
            steps.append(Step(input: name, now: now, sensed: sensed, shownToken: shownToken, events: events, exits: exits))
        }

        func beforeExit() { exitsWhenToldOfExit.append(terminator.exitCodes) }

        func tapWithNothingToPress(now: Int64, presentationShown: Bool) {
            taps.append(Tap(now: now, presentationShown: presentationShown))
        }
    }

    @Test("The observer sees each step with what the engine read and emitted, is told before the force exit, and nothing once removed")
    func seesEachStep() throws {
        let clock = ManualScheduler()
        let calls = SimulatedCallSource()
        let exits = SimulatedTerminator()
        let monitor = CallMonitor(ports: .simulated(calls: calls, scheduler: clock, terminator: exits))
        let log = StepLog(terminator: exits)
        #expect(monitor.replaceStepObserver(with: log) == nil)
        monitor.startMonitoring(withTerminateIn: 1)
        try calls.incoming("A")
        monitor.tapWithNothingToPress()
        clock.advance(bySeconds: 1)
        let s: Int64 = 1_000_000_000
        #expect(log.steps == [
            Step(input: "start", now: 0, sensed: MonitorEngine.Sensors(isForeground: true, isCaptured: false), shownToken: nil, events: [], exits: false),
            Step(input: "calls ", now: 0, sensed: nil, shownToken: nil, events: [], exits: false),
            Step(input: "calls A", now: 0, sensed: nil, shownToken: nil, events: [.ringing], exits: false),
            Step(input: "wake", now: s, sensed: nil, shownToken: 1, events: [], exits: true),
        ])
        #expect(log.taps == [Tap(now: 0, presentationShown: true)])
        // Told once, before the exit was carried out.
        #expect(log.exitsWhenToldOfExit == [[]])
        #expect(exits.exitCodes == [0])

        let removed = monitor.replaceStepObserver(with: nil)
        #expect(removed === log)
        #expect(monitor.stepObserver == nil)
        monitor.stopMonitoring()
        monitor.tapWithNothingToPress()
        #expect(log.steps.count == 4)
        #expect(log.taps.count == 1)
    }
}

// The simulation behind `callmonitor simulate` (SimulateCommand.swift reads the options): a
// scenario run through a real CallMonitor on a virtual clock, every observable output recorded
// as one JSON object a line, in its Transcript (Transcript.swift), partly by the delegates it
// gives the monitor (TranscriptDelegate.swift).

import Foundation
import ScenarioLanguage
import hnb
import hnbPolicy
import hnbTesting

/// One run of a scenario against a fresh monitor.
@MainActor
final class Simulation {
    /// The virtual clock; internal so that a test can see it is let go with the simulation.
    let scheduler = ManualScheduler()
    private let calls = SimulatedCallSource()
    private let app = SimulatedAppState(isForeground: true)
    private let transcript: Transcript
    private let renderer = SimulatedAlertRenderer()
    private let terminator = SimulatedTerminator()
    private let capture = SimulatedScreenCapture()
    let monitor: CallMonitor
    /// The scripted call verifier, set on the monitor by the first `verdict` line (rule 23).
    let verifier: ScriptedCallVerifier

    /// A recording's verifier (`verdict recorded`), which gives the file's `verdict answer` lines.
    let recordedVerifier: RecordedVerifier
    /// The coaching source (`coaching source app`), answered by `coaching answer` lines (issue 40);
    /// a recording's too, which writes the answers the device's source gave as those lines.
    let coaching: ScenarioCoachingSource

    /// The recording delegate the scenario set and still holds, if any.
    private var delegate: TranscriptDelegate?
    private var delegatesMade = 0
    /// The most recent `onUserAction` handed to any recording delegate.
    private var lastAction: (() -> Void)?
    /// The open protections, by the scenario's names.
    private var protections: [String: CallMonitorProtection] = [:]

    /// Whether each scenario line is written into the transcript (kind `input`) before it runs.
    private let echo: Bool
    /// Where the signed policy's files (`keys`, `policy`) are read from: the scenario's folder.
    private let baseDirectory: String?
    /// The wall clock: 2026-01-01T00:00:00Z plus virtual time, plus what `clock` lines added.
    nonisolated static let wallClockEpoch: Double = 1_767_225_600
    private let wallClockOffset = Locked<Double>(0)
    /// Issue 37: while the process is suspended, wake-ups wait and the call source's deliveries
    /// are held; whether a call changed since (the resume's `calls` then delivers the list).
    private var suspended = false
    private var callsChangedWhileSuspended = false
    /// The device's attributes the scenario set (`attribute`), beside the simulator's own.
    private var platformAttributes = ["os": "iOS", "osVersion": "26.0", "appVersion": "1.0"]

    /// - Parameter sink: Receives each transcript line as soon as it is final; without one,
    ///   ``run(_:)`` returns them all.
    init(strings: CallMonitorStrings, echo: Bool = false, baseDirectory: String? = nil, sink: ((String) -> Void)? = nil) {
        self.echo = echo
        self.baseDirectory = baseDirectory
        let transcript = Transcript(scheduler: scheduler, sink: sink)
        self.transcript = transcript
        renderer.onChange = { alert in
            guard let alert else { return transcript.record("dismiss") }
            transcript.record("alert") { $0.addAlert(alert) }
        }
        terminator.onTerminate = { code in transcript.record("exit") { $0.add("code", Int(code)) } }
        monitor = CallMonitor(
            callSource: calls,
            appState: app,
            scheduler: scheduler,
            alertRenderer: renderer,
            terminator: terminator,
            strings: strings,
            screenCapture: capture,
            wallClock: { [scheduler, wallClockOffset] in
                Date(timeIntervalSince1970: Simulation.wallClockEpoch + Double(scheduler.anyThreadNow) / 1e9 + wallClockOffset.value)
            }
        )
        verifier = ScriptedCallVerifier(scheduler: scheduler)
        recordedVerifier = RecordedVerifier()
        coaching = ScenarioCoachingSource(transcript: transcript)
        // Rule 23: one line each time the monitor records a verdict, whatever surface shows it.
        monitor.setVerdictObserver { verdict in
            transcript.record("verdict") { $0.add("verdict", verdict.description) }
        }
        setRecordingCallback()
        // Rule 16: one line per security event, when it ends (before the exit line of a force
        // exit). Issue 37: its `outcome` is the evidence record itself, as the library writes it
        // (`jsonData()`, Schemas/callmonitor-outcome.v2.schema.json), so the transcript and the
        // record a bank files are one form.
        monitor.setOutcomeHandler { outcome in
            transcript.record("outcome") { $0.add("outcome", Simulation.evidence(outcome)) }
        }
        // Issue 28: one line for each document event (applied, unchanged, rejected, expired).
        monitor.setPolicyObserver { event in
            transcript.record("policy") {
                $0.add("result", event.result.rawValue)
                if let version = event.version { $0.add("version", Int(version)) } else { $0.add("version", nil as String?) }
                $0.add("reason", event.reason?.rawValue)
                // Issue 38: what a refusal points at, as applyPolicy's answer carries it.
                $0.add("detail", event.detail)
            }
        }
        monitor.setPlatformPolicyAttributes(platformAttributes)
        // Rule 34: a delegate reads the coaching level from the event; the transcript says it
        // where the event is a delegate's, each time it changes (the built-in dialog's `alert`
        // lines carry the line itself).
        monitor.observeSecurityEvent { [weak self] event in
            self?.noteCoachingLevel(event)
        }
    }

    /// The coaching level the delegate's event had when the transcript last said it.
    private var delegateCoachingLevel = CallMonitor.CoachingLevel.unknown

    /// Rule 34: one `coachingLevel` line when the level of the event a delegate shows changes.
    private func noteCoachingLevel(_ event: CallMonitorSecurityEvent?) {
        guard let event else { return delegateCoachingLevel = .unknown }
        guard let delegate, event.coachingLevel != delegateCoachingLevel else { return }
        delegateCoachingLevel = event.coachingLevel
        transcript.record("coachingLevel") {
            $0.add("level", event.coachingLevel.description)
            $0.add("delegate", delegate.number)
        }
    }

    /// Runs the steps and returns the transcript lines (none when they went to the sink), or the
    /// first error.
    func run(_ steps: [ScenarioStep]) throws(ScenarioError) -> [String] {
        // A recording says where the work that fell due ran: each `wait` is one step of the
        // device's clock (a wake-up, a budget's end), so each runs the next piece of due work,
        // at its own instant, as the device did after a suspension too;
        // every other line comes before the work due at its instant, as it did on the device.
        let isRecording = steps.contains { $0.command == .recording }
        if isRecording { calls.deliversListAtStart = false }
        for step in steps {
            if isRecording {
                scheduler.move(to: step.time)
                if step.command == .wait { scheduler.runNextDue() }
            } else if suspended {
                // Nothing runs while suspended: the wake-ups that fall due wait for the resume.
                scheduler.move(to: step.time)
            } else {
                scheduler.advance(to: step.time)
            }
            if !terminator.exitCodes.isEmpty { break }
            if echo {
                transcript.record("input") {
                    $0.add("line", step.line)
                    $0.add("text", step.text)
                }
            }
            do {
                try perform(step.command)
            } catch let error as SimulatedCallSource.ScriptError {
                throw ScenarioError(line: step.line, message: error.description)
            } catch let error as SimulationError {
                throw ScenarioError(line: step.line, message: error.message)
            } catch {
                throw ScenarioError(line: step.line, message: "\(error)")
            }
            if !terminator.exitCodes.isEmpty { break }
        }
        return transcript.lines
    }

    /// Stops monitoring, without recording what that causes. A monitor keeps itself alive while
    /// it monitors (dropped mid-call, it goes on protecting), so a process that runs many
    /// simulations (the scenario fuzz target) stops each one it is done with.
    func stopMonitoring() {
        monitor.setOutcomeHandler(nil)
        monitor.setCallback(nil)
        // `stopMonitoring()` ends the app-wide policy only (rule 18): a protection the scenario
        // left open would keep the monitor monitoring, and so alive (the scenario fuzz target
        // found this as a leak).
        for protection in protections.values { protection.end() }
        protections.removeAll()
        // So does the capture escalation, which monitors while it is set (rule 25, issue 26).
        monitor.stopProtectingWhileScreenCaptured()
        monitor.stopMonitoring()
        // With a call still live the monitor would follow its session, and stay alive, until the
        // call ends (rule 10), which in a finished simulation it never does: detection off ends
        // the followed session at once (rule 22).
        monitor.setCallDetectionEnabled(false)
    }

    /// The error ``run(_:)`` meets unless an exit comes first, found without running the policy:
    /// the call commands replayed on a bare call source and the protection names on a bare table
    /// (the only commands that can fail once parsed). `nil` when the run cannot fail.
    static func firstScriptError(in steps: [ScenarioStep]) -> ScenarioError? {
        let calls = SimulatedCallSource()
        var protections: [String: Void] = [:]
        for step in steps {
            do {
                if try applyCallCommand(step.command, to: calls) { continue }
                _ = try applyProtectionCommand(step.command, to: &protections, begin: { _, _, _, _ in () }, end: { _ in })
            } catch let error as SimulationError {
                return ScenarioError(line: step.line, message: error.message)
            } catch {
                return ScenarioError(line: step.line, message: "\(error)")
            }
        }
        return nil
    }

    /// Plays a call command (incoming, outgoing, connect, hold, resume, end) on `calls`; `false`
    /// for any other command. The run and ``firstScriptError(in:)`` share it, so the check
    /// cannot drift from what the run does.
    static func applyCallCommand(_ command: ScenarioCommand, to calls: SimulatedCallSource) throws -> Bool {
        switch command {
        case .incoming(let id): try calls.incoming(id)
        case .outgoing(let id): try calls.outgoing(id)
        case .connect(let id): try calls.connect(id)
        case .hold(let id): try calls.hold(id)
        case .resume(let id): try calls.resume(id)
        case .end(let id): try calls.end(id)
        case .callList, .callChanges: return applyListCommand(command, to: calls)
        default: return false
        }
        return true
    }

    /// Plays a protect or unprotect line on the open protections, by name: `begin` makes the
    /// protection a new name opens, `end` ends the one a name closes; `false` for any other
    /// command. Shared with ``firstScriptError(in:)`` like ``applyCallCommand(_:to:)``: a name
    /// opened twice, or closed while not open, fails there too, so the run prints nothing but
    /// the error.
    static func applyProtectionCommand<Protection>(
        _ command: ScenarioCommand, to open: inout [String: Protection],
        begin: (String, CallMonitorFlow, Int32, CallMonitorContext?) -> Protection, end: (Protection) -> Void
    ) throws(SimulationError) -> Bool {
        switch command {
        case .protect(let name, let flow, let seconds, let context):
            guard open[name] == nil else { throw SimulationError("protection \(name) is already open") }
            open[name] = begin(name, flow, seconds, context)
        case .unprotect(let name):
            guard let protection = open.removeValue(forKey: name) else { throw SimulationError("no open protection named \(name)") }
            end(protection)
        default: return false
        }
        return true
    }

    private func perform(_ command: ScenarioCommand) throws {
        if suspended {
            // CallKit queues its change notifications for a suspended app: the calls change, the
            // monitor hears nothing until the resume releases them.
            var changed = false
            try calls.withoutNotifying { changed = try Self.applyCallCommand(command, to: calls) }
            if changed {
                callsChangedWhileSuspended = true
                return
            }
        }
        if try Self.applyCallCommand(command, to: calls) { return }
        let monitor = self.monitor
        if try Self.applyProtectionCommand(
            command, to: &protections, begin: { monitor.protect(named: $0, $1, seconds: $2, context: $3) }, end: { $0.end() }
        ) { return }
        switch command {
        case .start(let flow, let seconds): monitor.startMonitoring(flow, seconds: seconds)
        case .startObserving: monitor.startMonitoring()
        case .stop: monitor.stopMonitoring()
        case .protect, .unprotect: break   // applyProtectionCommand, above
        case .exempt(let id): monitor.exemptCall(CallID(id))
        case .unexempt(let id): monitor.removeExemption(CallID(id))
        case .detection(let on): monitor.setCallDetectionEnabled(on)
        case .incoming, .outgoing, .connect, .hold, .resume, .end, .callList, .callChanges: break   // applyCallCommand, above
        case .background: app.setForeground(false)
        case .foreground: app.setForeground(true)
        case .suspend: suspended = true
        case .resumeProcess(let order):
            suspended = false
            for release in order {
                switch release {
                // Every wake-up that fell due, at this instant, in deadline order.
                case .timers: scheduler.advance(to: scheduler.now)
                // The queued notifications read the observer's list as it is now: one list says it.
                case .calls:
                    if callsChangedWhileSuspended { calls.deliverCompleteList() }
                    callsChangedWhileSuspended = false
                case .foreground: app.setForeground(true)
                }
            }
        case .tap, .tapStale:
            // Accepted means the monitor acted on it: the event ended (end, dismiss) or the app
            // exited. Every other tap (no button, too early, a stale or repeated closure) leaves
            // no other trace, which is why the refusal is written out. A tap with nothing to
            // press reaches no monitor code, as on a device, but a recording still writes it,
            // so that its replay taps there too and writes the same refusal (issue 37).
            let before = transcript.count
            transcript.holdingLines {
                if command == .tapStale {
                    monitor.tapOnNoPresentation()
                } else if delegate != nil, let lastAction {
                    lastAction()
                } else if delegate != nil || !renderer.tapButton() {
                    monitor.tapWithNothingToPress()
                }
                let accepted = transcript.count > before
                transcript.record("tap", at: before) { $0.add("accepted", accepted) }
            }
        case .delegateCustom:
            delegatesMade += 1
            let made = TranscriptDelegate(number: delegatesMade, transcript: transcript) { [weak self] action in
                self?.lastAction = action
            }
            // Tell the monitor before letting go of the previous delegate, as an app replacing
            // its handler would, so the previous one still hears callMonitorDidEndCall.
            monitor.setDelegate(made)
            delegate = made
            // Rule 34: the new delegate reads the event's level at once (a hand-over publishes
            // nothing new when the event's signals stay the same).
            delegateCoachingLevel = .unknown
            noteCoachingLevel(monitor.currentSecurityEvent)
        case .delegateNone:
            monitor.setDelegate(nil)
            delegate = nil
        case .delegateRelease:
            // The monitor holds its delegate weakly; dropping our reference frees it unannounced.
            delegate = nil
        case .callbackOn: setRecordingCallback()
        case .callbackOff: monitor.setCallback(nil)
        case .capture(let on): capture.setCaptured(on)
        case .refusesAcknowledgementWhileScreenCaptured(let on): monitor.setRefusesAcknowledgementWhileScreenCaptured(on)
        case .verdict(let replies):
            verifier.script = replies.map { ScriptedCallVerifier.Answer($0.verdict, afterSeconds: Double($0.delay) / 1e9) }
            monitor.setCallVerifier(using: verifier)
        case .verdictBudget(let budget): monitor.setCallVerifierBudget(Double(budget) / 1e9)
        case .verdictOff: monitor.setCallVerifier(using: nil)
        case .verdictRecorded: monitor.setCallVerifier(using: recordedVerifier)
        case .verdictAnswer(let question, let verdict): recordedVerifier.answer(question: question, with: verdict)
        case .coachingSource(let kind): monitor.setCoachingSource(using: kind.map(coaching.reporting(as:)))
        case .coachingBudget(let budget): monitor.setCoachingBudget(Double(budget) / 1e9)
        case .coachingPolicy(let policy): monitor.setCoachingPolicy(policy)
        case .coachingAnswer(let question, let answer): coaching.answer(question: question, with: answer)
        case .delegateReleaseNoticed:
            delegate = nil
            monitor.noticeDelegateRelease()
        case .protectWhileScreenCaptured(let flow, let seconds): monitor.protectWhileScreenCaptured(flow, seconds: seconds)
        case .stopProtectingWhileScreenCaptured: monitor.stopProtectingWhileScreenCaptured()
        case .wait, .recording: break
        case .policyKeys(let file, let issuer, let relax):
            do {
                try monitor.setPolicyKeys(jwks: Data(try read(file)), issuer: issuer, allowsRelaxation: relax, store: nil, crypto: PolicyCrypto.platform)
            } catch let error as CallMonitor.PolicyKeyError {
                throw SimulationError("\(file): \(error.description)")
            }
        case .policyDocument(let file):
            // The answer is recorded by the policy observer, as every document event is.
            _ = monitor.applyPolicy(document: Data(try read(file)))
        case .attribute(let name, let value):
            platformAttributes[name] = value
            monitor.setPlatformPolicyAttributes(platformAttributes)
        case .clock(let instant):
            let now = Simulation.wallClockEpoch + Double(scheduler.now) / 1e9 + wallClockOffset.value
            wallClockOffset.withLock { $0 += Double(instant) - now }
            monitor.wallClockChanged()
        }
    }

    /// A file of the scenario's folder, at most 64 KiB and one more byte (so a larger one is
    /// refused as too large, not read whole).
    private func read(_ file: String) throws -> [UInt8] {
        let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : URL(fileURLWithPath: baseDirectory ?? ".", isDirectory: true).appendingPathComponent(file)
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw SimulationError("cannot read \(file)") }
        defer { try? handle.close() }
        return Array(handle.readData(ofLength: 64 * 1024 + 1))
    }

    /// The outcome's evidence record, as `CallMonitorOutcome.jsonData()` writes it; an outcome
    /// that cannot be encoded (none can: every field has a JSON form) says so instead of being lost.
    static func evidence(_ outcome: CallMonitorOutcome) -> JSONValue {
        guard let data = try? outcome.jsonData() else { return .string("unencodable outcome: \(outcome.ending)") }
        return .encoded(String(decoding: data, as: UTF8.self))
    }

    private func setRecordingCallback() {
        let transcript = self.transcript
        monitor.setCallback { event in
            transcript.record("event") { $0.add("event", event.description) }
        }
    }
}

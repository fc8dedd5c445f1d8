// Issue 29: what a recording holds, line for line: the scenario line of every input, the output
// lines of every step, the header, the bound and the write error; and that the file replays.

import Foundation
import Testing
@testable import hnb
@testable import ScenarioLanguage
import hnbTesting
@testable import hnbRecording
@testable import callmonitor

/// A monitor on the scripted ports that records to a file of its own.
@MainActor
struct RecordedMonitor {
    let scheduler = ManualScheduler()
    let calls = SimulatedCallSource()
    let app = SimulatedAppState(isForeground: true)
    let renderer = SimulatedAlertRenderer()
    let terminator = SimulatedTerminator()
    let capture = SimulatedScreenCapture()
    let monitor: CallMonitor
    let file: URL

    init(maxBytes: Int = 1 << 20) throws {
        monitor = CallMonitor(callSource: calls, appState: app, scheduler: scheduler, alertRenderer: renderer, terminator: terminator, screenCapture: capture)
        file = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-recording-\(UUID().uuidString).scenario")
        try monitor.startRecording(to: file, maxBytes: maxBytes)
    }

    /// Stops the recording and returns the file's text (and removes the file).
    func finish() throws -> String {
        monitor.finishRecording()
        defer { try? FileManager.default.removeItem(at: file) }
        return try String(contentsOf: file, encoding: .utf8)
    }

    /// Leaves nothing monitoring (the suite checks nothing is left scheduled).
    func stop() {
        monitor.stopMonitoring()
        monitor.setCallDetectionEnabled(false)
    }
}

/// The header this machine writes, for a file bounded at `maxBytes`.
func recordingHeader(maxBytes: Int = 1 << 20) -> String {
    RecordingHeader.text(
        library: RecordingHeader.libraryVersion, os: RecordingHeader.osName, osVersion: RecordingHeader.osVersion,
        device: RecordingHeader.deviceClass(machine: RecordingHeader.machine), maxBytes: maxBytes
    )
}

/// Replays `text` in the simulator, recording again, and returns the first differing output.
@MainActor
func replayDifference(_ text: String) throws -> RecordingCheck.Difference? {
    let steps = try ScenarioParser.parse(text)
    let simulation = Simulation(strings: .english)
    let again = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-replayed-\(UUID().uuidString).scenario")
    defer { try? FileManager.default.removeItem(at: again) }
    simulation.startRecording(toPath: again.path)
    _ = try simulation.run(steps)
    simulation.finishRecording()
    simulation.stopMonitoring()
    return RecordingCheck.firstDifference(recorded: text, replayed: try String(contentsOf: again, encoding: .utf8))
}

@MainActor
@Suite("Recording a session (issue 29)", .nothingLeftScheduled)
struct RecordingTests {
    @Test("A recorded terminate session is its scenario lines with each step's outputs, after the header")
    func terminateSessionFile() throws {
        let rig = try RecordedMonitor()
        rig.monitor.startMonitoring(withTerminateIn: 2)
        rig.scheduler.advance(bySeconds: 1)
        try rig.calls.incoming("+49 30 1234567")
        rig.scheduler.advance(bySeconds: 0.5)
        try rig.calls.connect("+49 30 1234567")
        rig.scheduler.advance(bySeconds: 3)
        let text = try rig.finish()
        #expect(text == recordingHeader() + """
            0 start terminate 2
            0 calls
            1 incoming C1
            #> {"t":1,"kind":"event","event":"ringing"}
            #> {"t":1,"kind":"present","flow":"terminate","remaining":2,"button":"available","verdict":"unknown","contextKind":null,"detail":null,"surface":"builtInDialog"}
            1.5 connect C1
            #> {"t":1.5,"kind":"event","event":"started"}
            2 wait
            #> {"t":2,"kind":"tick","remaining":1,"button":"available","surface":"builtInDialog"}
            3 wait
            #> {"t":3,"kind":"tick","remaining":0,"button":"available","surface":"builtInDialog"}
            #> {"t":3,"kind":"outcome","ending":"forceExit","flow":"terminate","startedAt":1,"lowestRemaining":0,"shownOn":"builtInDialog","captured":false,"verdict":"unknown","verdictAt":null,"coaching":""}
            #> {"t":3,"kind":"exit","code":0}
            # recording stopped by the app

            """)
        // Privacy: the device's call identifier never reaches the file.
        #expect(!text.contains("1234567"))
        #expect(try replayDifference(text) == nil)
    }

    @Test("Times count from the start of the recording; app and capture state read at a start are written before it")
    func originAndSensors() throws {
        let rig = try RecordedMonitor()
        rig.scheduler.advance(bySeconds: 100)
        let late = try RecordedMonitor()
        late.scheduler.advance(bySeconds: 7)
        late.app.setForeground(false)
        late.capture.setCaptured(true)
        late.scheduler.advance(bySeconds: 0.25)
        late.monitor.startMonitoring(withAcknowledgeIn: 3)
        try late.calls.incoming("A")
        late.app.setForeground(true)
        late.stop()
        _ = try rig.finish()
        let text = try late.finish()
        #expect(text == recordingHeader() + """
            7.25 background
            7.25 capture on
            7.25 start acknowledge 3
            7.25 calls
            7.25 incoming C1
            #> {"t":7.25,"kind":"event","event":"ringing"}
            7.25 foreground
            #> {"t":7.25,"kind":"present","flow":"acknowledge","remaining":3,"button":"hidden","verdict":"unknown","contextKind":null,"detail":null,"surface":"builtInDialog"}
            7.25 stop
            #> {"t":7.25,"kind":"dismiss","surface":"builtInDialog"}
            #> {"t":7.25,"kind":"outcome","ending":"monitoringStopped","flow":"acknowledge","startedAt":7.25,"lowestRemaining":3,"shownOn":"builtInDialog","captured":true,"verdict":"unknown","verdictAt":null,"coaching":""}
            7.25 detection off
            # recording stopped by the app

            """)
        #expect(try replayDifference(text) == nil)
    }

    @Test("Complete lists, batches of several calls and unchecked changes are written as one delivery each")
    func callDeliveries() throws {
        let rig = try RecordedMonitor()
        rig.monitor.startMonitoring()
        rig.calls.deliverChanges([CallSnapshot(id: CallID("x")), CallSnapshot(id: CallID("y"), isOutgoing: true)])
        rig.calls.deliverList([CallSnapshot(id: CallID("y"), isOutgoing: true, hasConnected: true, isOnHold: true)])
        rig.calls.deliverChanges([CallSnapshot(id: CallID("x"), hasConnected: true)])
        try rig.calls.incoming("z")
        try rig.calls.end("z")
        rig.calls.deliverChanges([CallSnapshot(id: CallID("y"), isOutgoing: true, hasEnded: true)])
        let text = try rig.finish()
        rig.stop()
        #expect(text == recordingHeader() + """
            0 start observe
            0 calls
            0 changes C1:ringing C2:dialing
            #> {"t":0,"kind":"event","event":"ringing"}
            0 calls C2:held
            #> {"t":0,"kind":"event","event":"started"}
            0 changes C1:connected
            0 incoming C3
            0 end C3
            0 end C2
            # recording stopped by the app

            """)
        #expect(try replayDifference(text) == nil)
    }

    @Test("Protections, exemptions, delegate, callback, capture rule and escalation, verifier and taps are written as their commands")
    func apiCalls() throws {
        let rig = try RecordedMonitor()
        let verifier = ScriptedCallVerifier(scheduler: rig.scheduler, script: [.init(.bankIsNotCalling, afterSeconds: 0.5)])
        rig.monitor.setCallVerifier(using: verifier)
        rig.monitor.setCallVerifierBudget(2)
        rig.monitor.setRefusesAcknowledgementWhileScreenCaptured(true)
        rig.monitor.protectWhileScreenCaptured(withTerminateIn: 9)
        rig.monitor.exemptCall(CallID("own"))
        let protection = rig.monitor.protect(withAcknowledgeIn: 1)
        try rig.calls.incoming("own")
        try rig.calls.incoming("B")
        rig.scheduler.advance(bySeconds: 1)
        rig.renderer.tapButton()
        rig.monitor.setCallback(nil)
        rig.monitor.removeExemption(CallID("own"))
        protection.end()
        protection.end()
        rig.monitor.stopProtectingWhileScreenCaptured()
        rig.monitor.setCallVerifier(using: nil)
        rig.monitor.setRefusesAcknowledgementWhileScreenCaptured(false)
        let text = try rig.finish()
        rig.stop()
        #expect(text == recordingHeader() + """
            0 verdict recorded
            0 verdict budget 2
            0 capture rule on
            0 capture escalate terminate 9
            0 calls
            0 exempt C1
            0 protect P1 acknowledge 1
            0 incoming C1
            0 incoming C2
            #> {"t":0,"kind":"event","event":"ringing"}
            #> {"t":0,"kind":"present","flow":"acknowledge","remaining":1,"button":"hidden","verdict":"unknown","contextKind":null,"detail":null,"surface":"builtInDialog"}
            #> {"t":0,"kind":"ask","question":1}
            0.5 verdict answer 1 notbank
            #> {"t":0.5,"kind":"verdict","verdict":"bankIsNotCalling","surface":"builtInDialog"}
            1 wait
            #> {"t":1,"kind":"tick","remaining":0,"button":"available","surface":"builtInDialog"}
            1 tap
            #> {"t":1,"kind":"dismiss","surface":"builtInDialog"}
            #> {"t":1,"kind":"outcome","ending":"acknowledged","flow":"acknowledge","startedAt":0,"lowestRemaining":0,"shownOn":"builtInDialog","captured":false,"verdict":"bankIsNotCalling","verdictAt":0.5,"coaching":""}
            1 callback off
            1 unexempt C1
            #> {"t":1,"kind":"present","flow":"acknowledge","remaining":1,"button":"hidden","verdict":"unknown","contextKind":null,"detail":null,"surface":"builtInDialog"}
            #> {"t":1,"kind":"ask","question":2}
            1 unprotect P1
            #> {"t":1,"kind":"dismiss","surface":"builtInDialog"}
            #> {"t":1,"kind":"outcome","ending":"policyChanged","flow":"acknowledge","startedAt":1,"lowestRemaining":1,"shownOn":"builtInDialog","captured":false,"verdict":"unknown","verdictAt":null,"coaching":""}
            1 capture escalate off
            1 verdict off
            1 capture rule off
            # recording stopped by the app

            """)
        #expect(try replayDifference(text) == nil)
    }

    @Test("A released delegate is written where the engine heard of it, and replays there")
    func delegateRelease() throws {
        let rig = try RecordedMonitor()
        let log = Log(scheduler: rig.scheduler)
        var delegate: RecordingDelegate? = RecordingDelegate(log: log)
        rig.monitor.setDelegate(delegate)
        rig.monitor.startMonitoring(withTerminateIn: 3)
        try rig.calls.incoming("A")
        rig.scheduler.advance(bySeconds: 1.5)
        delegate = nil
        rig.scheduler.advance(bySeconds: 1)
        rig.monitor.setDelegate(nil)
        let text = try rig.finish()
        rig.stop()
        #expect(text.contains("""
            1 wait
            #> {"t":1,"kind":"tick","remaining":2,"button":"available","surface":"delegate"}
            2 delegate released
            #> {"t":2,"kind":"dismiss","surface":"delegate"}
            #> {"t":2,"kind":"present","flow":"terminate","remaining":2,"button":"available","verdict":"unknown","contextKind":null,"detail":null,"surface":"builtInDialog"}
            2 wait
            #> {"t":2,"kind":"tick","remaining":1,"button":"available","surface":"builtInDialog"}
            2.5 delegate none
            """))
        #expect(try replayDifference(text) == nil)
    }

    @Test("Past maxBytes the file ends with the truncation comment, within the bound, and still replays", arguments: Array(stride(from: 0, to: 280, by: 7)))
    func truncation(extra: Int) throws {
        let bound = CallMonitor.minimumRecordingBytes + extra
        // The minimum clamps a smaller bound up to it.
        let rig = try RecordedMonitor(maxBytes: extra == 0 ? 10 : bound)
        rig.monitor.startMonitoring(withAcknowledgeIn: 0)
        for index in 0..<120 {
            try rig.calls.incoming("call\(index)")
            rig.scheduler.advance(bySeconds: 1)
            try rig.calls.end("call\(index)")
        }
        let text = try rig.finish()
        rig.stop()
        #expect(text.hasPrefix(recordingHeader(maxBytes: bound)))
        #expect(text.hasSuffix("\n" + SessionRecorder.truncationLine(maxBytes: bound)))
        #expect(text.utf8.count <= bound)
        #expect(text.utf8.count > bound - 400, "the file stopped well before its bound: \(text.utf8.count) bytes")
        #expect(!text.contains("recording stopped by the app"))
        #expect(try replayDifference(text) == nil)
    }

    @Test("startRecording while recording closes the first file with its closing comment; the session goes on in the second")
    func startRecordingWhileRecording() throws {
        let rig = try RecordedMonitor()
        rig.monitor.startMonitoring(withTerminateIn: 2)
        let first = try #require(rig.monitor.stepObserver as? SessionRecorder)
        let second = FileManager.default.temporaryDirectory.appendingPathComponent("hnb-recording-\(UUID().uuidString).scenario")
        defer { try? FileManager.default.removeItem(at: second) }
        rig.scheduler.advance(bySeconds: 1)
        try rig.monitor.startRecording(to: second)
        first.writer.waitUntilWritten(timeoutNanoseconds: 5_000_000_000)
        let firstText = try String(contentsOf: rig.file, encoding: .utf8)
        #expect(firstText == recordingHeader() + "0 start terminate 2\n0 calls\n# recording stopped by the app\n")
        try rig.calls.incoming("A")
        rig.stop()
        try rig.calls.end("A")
        rig.monitor.finishRecording()
        let secondText = try String(contentsOf: second, encoding: .utf8)
        try? FileManager.default.removeItem(at: rig.file)
        // The second file counts from its own start (1 s after the first's).
        #expect(secondText == recordingHeader() + """
            0 incoming C1
            #> {"t":0,"kind":"event","event":"ringing"}
            #> {"t":0,"kind":"present","flow":"terminate","remaining":2,"button":"available","verdict":"unknown","contextKind":null,"detail":null,"surface":"builtInDialog"}
            0 stop
            #> {"t":0,"kind":"dismiss","surface":"builtInDialog"}
            #> {"t":0,"kind":"outcome","ending":"monitoringStopped","flow":"terminate","startedAt":0,"lowestRemaining":2,"shownOn":"builtInDialog","captured":false,"verdict":"unknown","verdictAt":null,"coaching":""}
            0 detection off
            # recording stopped by the app

            """)
    }

    @Test("A write error stops the recording and is reported once")
    func writeError() throws {
        let reports = Locked<[String]>([])
        let fd = try RecordingWriter.open(path: "/dev/full")
        let writer = RecordingWriter(fd: fd) { message in reports.withLock { $0.append(message) } }
        writer.append("0 start observe\n")
        writer.append("1 stop\n")
        writer.waitUntilWritten(timeoutNanoseconds: 5_000_000_000)
        #expect(!writer.isOpen)
        writer.append("2 stop\n")
        writer.finish(with: "# last\n")
        writer.waitUntilWritten(timeoutNanoseconds: 5_000_000_000)
        #expect(reports.value == ["hnb: the session recording stopped: a write failed (No space left on device); nothing more is recorded\n"])
    }

    @Test("A file that cannot be opened is a clear error, and nothing is recorded")
    func openError() {
        let monitor = CallMonitor(ports: .simulated(calls: SimulatedCallSource(), scheduler: ManualScheduler(), terminator: SimulatedTerminator()))
        #expect(throws: CallMonitor.RecordingError(path: "/nonexistent/dir/x.scenario", reason: "No such file or directory")) {
            try monitor.startRecording(to: URL(fileURLWithPath: "/nonexistent/dir/x.scenario"))
        }
        #expect(monitor.stepObserver == nil)
    }

    @Test("The header names the device class only", arguments: [
        ("iPhone15,2", false, "iPhone"), ("iPad13,1", false, "iPad"), ("iPhone15,2", true, "Mac"), ("arm64", true, "Mac"),
    ])
    func deviceClass(machine: String, isMac: Bool, expected: String) {
        #expect(RecordingHeader.deviceClass(machine: machine, isMac: isMac) == expected)
    }

    /// The line each kind of input must give, named by an exhaustive switch: a new command
    /// does not compile here until it says what its recording is, and its sample below shows it.
    static func expectedLine(_ input: MonitorEngine.Input) -> String {
        switch input {
        case .start: "0 start terminate 1"
        case .observe: "0 start observe"
        case .stop: "0 stop"
        case .beginProtection: "0 protect P1 acknowledge 0"
        case .endProtection: "0 unprotect P1"
        case .exempt: "0 exempt C1"
        case .removeExemption: "0 unexempt C1"
        case .userAction: "0 tap"
        case .setDelegate: "0 delegate none"
        case .setCallback: "0 callback off"
        case .setStrings: "# dialog language de (simulate --language)"
        case .setBeforeForceExit: "# before-exit hook removed"
        case .callDetection: "0 detection off"
        case .setOutcomeHandler: "# outcome handler removed"
        case .refusesAcknowledgementWhileScreenCaptured: "0 capture rule on"
        case .setCallVerifier: "0 verdict off"
        case .verdictBudget: "0 verdict budget 0.5"
        case .screenCaptureEscalation: "0 capture escalate off"
        case .calls: "0 calls C1:connected"
        case .appState: "0 background"
        case .screenCapture: "0 capture on"
        case .wake: "0 wait"
        case .verdictArrived: "# verdict answer to a question asked before this recording: bank"
        case .verdictBudgetExpired: "0 wait"
        case .delegateReleased: "0 delegate released"
        case .policyKeys: "# policy keys pinned (relaxation allowed): not replayed"
        case .policyAttributes: "# policy attributes os,region: not replayed"
        case .applyPolicy: "# policy document ver 4: not replayed"
        case .policyRejected: "# policy document refused: rollback"
        case .wallClockChanged: "# wall clock changed"
        case .policyWake: "# policy switch (nbf or exp): not replayed"
        case .coachingSource: "0 coaching source app"
        case .coachingBudget: "0 coaching budget 0.5"
        case .coachingPolicy: "0 coaching policy medium evaluate high acknowledge 10"
        case .coachingAnswered: "# coaching answer to a question asked before this recording: high"
        case .coachingBudgetExpired: "0 wait"
        }
    }

    @Test("Every input the engine handles is written as a line or a comment")
    func everyInputIsRecorded() {
        let samples: [MonitorEngine.Input] = [
            .start(MonitorPolicy(flow: .terminate, requestedSeconds: -5)), .observe(), .stop,
            .beginProtection(id: 7, MonitorPolicy(flow: .acknowledge, requestedSeconds: 0)), .endProtection(id: 7),
            .exempt(CallID("u")), .removeExemption(CallID("u")), .userAction(token: 1), .setDelegate(WeakDelegate(nil)),
            .setCallback(nil), .setStrings(CallMonitorStrings(language: "de", tables: [])), .setBeforeForceExit(nil, budgetNanoseconds: 0),
            .callDetection(false), .setOutcomeHandler(nil), .refusesAcknowledgementWhileScreenCaptured(true), .setCallVerifier(nil),
            .verdictBudget(500_000_000), .screenCaptureEscalation(nil), .calls(.complete([CallSnapshot(id: CallID("u"), hasConnected: true)])),
            .appState(isForeground: false), .screenCapture(isCaptured: true), .wake(), .verdictArrived(request: 3, .bankIsCalling),
            .verdictBudgetExpired(request: 3), .delegateReleased,
            PolicyEngineRig.keys(relax: true), .policyAttributes(["region": "DE", "os": "iOS"]),
            PolicyEngineRig.apply(ver: 4, rules: PolicyEngineRig.killSwitch), .policyRejected(PolicyRefusal(.rollback, "ver: expected 5 or higher (the highest version accepted), got 4")), .wallClockChanged, .policyWake(),
            .coachingSource(.app), .coachingBudget(500_000_000), .coachingPolicy(.init(medium: .evaluate)),
            .coachingAnswered(request: 3, .init(level: .high)), .coachingBudgetExpired(request: 3),
        ]
        for input in samples {
            var script = SessionScript(origin: 0)
            // A protection ends in the file only if it began there; the sample before it is its begin.
            if case .endProtection(let id) = input {
                _ = script.lines(for: .beginProtection(id: id, MonitorPolicy(flow: .acknowledge, requestedSeconds: 0)), now: 0, sensed: nil, shownToken: nil)
            }
            if case .removeExemption(let id) = input { _ = script.lines(for: .exempt(id), now: 0, sensed: nil, shownToken: nil) }
            #expect(script.lines(for: input, now: 0, sensed: nil, shownToken: nil) == [Self.expectedLine(input)], "\(input)")
        }
        // What the file cannot replay is said, not dropped: an end of a protection it never saw
        // begin. A tap for a presentation that is no longer the one on screen is a `tap stale`,
        // which the replay refuses the same way (issue 37).
        var script = SessionScript(origin: 0)
        #expect(script.lines(for: .endProtection(id: 9), now: 0, sensed: nil, shownToken: nil) == ["# unprotect: a protection not open in this recording (begun before it, or ended twice)"])
        #expect(script.lines(for: .userAction(token: 4), now: 0, sensed: nil, shownToken: 5) == ["0 tap stale"])
        #expect(script.lines(for: .userAction(token: 5), now: 0, sensed: nil, shownToken: 5) == ["0 tap"])
        #expect(script.lines(for: .userAction(token: MonitorEngine.noPresentationToken), now: 0, sensed: nil, shownToken: nil) == ["0 tap stale"])
        #expect(script.lines(for: .userAction(token: 4), now: 0, sensed: nil, shownToken: nil) == ["0 tap"])
        // A tap with nothing to press (the simulator's): `tap stale` while a presentation is on
        // screen, which a replayed `tap` could press (a delegate the replay still holds).
        #expect(script.tapWithNothingToPress(now: 1_500_000_000, presentationShown: false) == "1.5 tap")
        #expect(script.tapWithNothingToPress(now: 1_500_000_000, presentationShown: true) == "1.5 tap stale")
        // Its time counts from the start of the recording, as every line's does: a recording
        // begun 4 s into the session writes a tap at 5.5 s as 1.5 (an independent mutant that
        // wrote the clock's own reading survived the whole suite, whose recordings start at 0).
        let later = SessionScript(origin: 4_000_000_000)
        #expect(later.tapWithNothingToPress(now: 5_500_000_000, presentationShown: false) == "1.5 tap")
        #expect(later.tapWithNothingToPress(now: 5_500_000_000, presentationShown: true) == "1.5 tap stale")
    }

    @Test("A protection keeps the app's name when the scenario language can say it, and its context as the protect command writes it")
    func protectionNamesAndContexts() {
        var script = SessionScript(origin: 0)
        let terminate = MonitorPolicy(flow: .terminate, requestedSeconds: 5)
        let payment = CallMonitorContext(kind: .payment, detail: #"You are sending €2,000 to "M. \ Mustermann"."#)
        #expect(script.lines(for: .beginProtection(id: 1, terminate, name: "transfer", context: payment), now: 0, sensed: nil, shownToken: nil)
            == [#"0 protect transfer terminate 5 payment "You are sending €2,000 to \"M. \\ Mustermann\".""#])
        // The same name open twice, a name with a space or a comment sign, a name that looks like
        // the file's own (P2), and no name: each is numbered instead.
        #expect(script.lines(for: .beginProtection(id: 2, terminate, name: "transfer"), now: 0, sensed: nil, shownToken: nil) == ["0 protect P2 terminate 5"])
        #expect(script.lines(for: .beginProtection(id: 3, terminate, name: "pay now"), now: 0, sensed: nil, shownToken: nil) == ["0 protect P3 terminate 5"])
        #expect(script.lines(for: .beginProtection(id: 4, terminate, name: "a#b"), now: 0, sensed: nil, shownToken: nil) == ["0 protect P4 terminate 5"])
        #expect(script.lines(for: .beginProtection(id: 5, terminate, name: "P9"), now: 0, sensed: nil, shownToken: nil) == ["0 protect P5 terminate 5"])
        #expect(script.lines(for: .beginProtection(id: 6, terminate, context: CallMonitorContext(kind: .credentials)), now: 0, sensed: nil, shownToken: nil)
            == ["0 protect P6 terminate 5 credentials"])
        #expect(script.lines(for: .endProtection(id: 1), now: 0, sensed: nil, shownToken: nil) == ["0 unprotect transfer"])
    }
}

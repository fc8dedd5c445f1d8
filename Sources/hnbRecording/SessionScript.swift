// What a recording says: each input the engine handled, as the scenario line that makes the
// simulator hand the engine the same input, and each output of the step as a comment line in
// the transcript's JSON form. Pure and platform-independent, so every line is tested on Linux;
// the recorder (SessionRecorder.swift) only writes what this returns.

import ScenarioLanguage
import hnb

/// Turns the engine's inputs and actions into the lines of a recording, and keeps what that
/// needs: the names given to calls, protections and verifier questions in order of appearance,
/// the last state the file gave each call, and the app and capture state the file has set.
struct SessionScript: Sendable {
    /// The prefix of an output line: a comment for the simulator, a line `replay --check` compares.
    static let outputPrefix = "#> "

    /// The instant the recording started (nanoseconds of the monitor's clock): time 0 of the file.
    let origin: Int64

    private var callNames: [CallID: String] = [:]
    /// Each call's state as the file last gave it (`ended` also once a complete list left it out).
    private var callStates: [CallID: ListedCallState] = [:]
    private var protectionNames: [UInt64: String] = [:]
    private var protectionsMade = 0
    /// The engine's question numbers, as the order the file's verifier was asked in (1, 2, …).
    private var questions: [UInt64: Int] = [:]
    private var questionsAsked = 0
    private var verifierSet = false
    /// The engine's coaching request numbers, as the order the file's coaching source was asked
    /// in (1, 2, …): the numbers `coaching answer N` lines give.
    private var coachingQuestions: [UInt64: Int] = [:]
    private var coachingQuestionsAsked = 0
    private var coachingSourceSet = false
    /// The app and capture state the file has set so far (the simulator's: foreground, not captured).
    private var foreground = true
    private var captured = false

    init(origin: Int64) { self.origin = origin }

    // MARK: Inputs

    /// The lines for `input`, handled at `now`: the scenario line that replays it (with, before
    /// it, the app or capture state the engine read as it handled it, when the file said another),
    /// or a comment for what the simulator makes itself (a wake-up, a budget's end) or cannot make.
    ///
    /// - Parameters:
    ///   - sensed: What the engine read of the app and capture state in this step, if it did.
    ///   - shownToken: The token of the presentation on screen before the step, if any: a tap
    ///     for another one is ignored by the engine (rule 12), and written as a comment.
    mutating func lines(for input: MonitorEngine.Input, now: Int64, sensed: MonitorEngine.Sensors?, shownToken: UInt64?) -> [String] {
        let time = ScenarioWriter.seconds(now &- origin)
        var lines: [String] = []
        if let sensed {
            if sensed.isForeground != foreground { lines.append("\(time) \(sensed.isForeground ? "foreground" : "background")") }
            if sensed.isCaptured != captured { lines.append("\(time) capture \(sensed.isCaptured ? "on" : "off")") }
            foreground = sensed.isForeground
            captured = sensed.isCaptured
        }
        // The one place an input becomes a line: exhaustive, so a new command cannot be left
        // unrecorded (RecordingTests checks every case has a line or a comment).
        let line: String?
        switch input {
        case .start(let policy, _): line = "start \(Self.words(policy))"
        case .observe: line = "start observe"
        case .stop: line = "stop"
        case .beginProtection(let id, let policy, let appName, let context, _):
            protectionsMade += 1
            let name = protectionName(appName)
            protectionNames[id] = name
            line = "protect \(name) \(Self.words(policy))" + (context.map { " " + Self.words($0) } ?? "")
        case .endProtection(let id):
            if let name = protectionNames.removeValue(forKey: id) {
                line = "unprotect \(name)"
            } else {
                line = "# unprotect: a protection not open in this recording (begun before it, or ended twice)"
            }
        case .exempt(let id): line = "exempt \(name(of: id))"
        case .removeExemption(let id): line = "unexempt \(name(of: id))"
        case .userAction(let token):
            // A refused tap is written too (issue 37): the replay must tap where the app was
            // tapped. With nothing on screen a replayed `tap` is refused as well; with another
            // presentation on screen it would press that one, so the line is `tap stale`, a tap
            // the simulator makes on no presentation, which the engine refuses the same way (and
            // writes as `tap stale` again).
            let stale = token == MonitorEngine.noPresentationToken || (shownToken != nil && token != shownToken)
            line = stale ? "tap stale" : "tap"
        case .setDelegate(let box): line = box.object == nil ? "delegate none" : "delegate custom"
        case .setCallback(let callback): line = callback == nil ? "callback off" : "callback on"
        case .setStrings(let strings): line = "# dialog language \(strings.language) (simulate --language)"
        case .setBeforeForceExit(let hook, _): line = "# before-exit hook \(hook == nil ? "removed" : "set")"
        case .callDetection(let on): line = "detection \(on ? "on" : "off")"
        case .setOutcomeHandler(let handler): line = "# outcome handler \(handler == nil ? "removed" : "set")"
        case .refusesAcknowledgementWhileScreenCaptured(let on): line = "capture rule \(on ? "on" : "off")"
        case .setCallVerifier(let box):
            verifierSet = box != nil
            line = box == nil ? "verdict off" : "verdict recorded"
        case .verdictBudget(let nanoseconds): line = "verdict budget \(ScenarioWriter.seconds(nanoseconds))"
        case .screenCaptureEscalation(let policy, _): line = "capture escalate \(policy.map(Self.words) ?? "off")"
        case .calls(let batch, _): line = callLine(batch)
        case .appState(let isForeground, _):
            foreground = isForeground
            line = isForeground ? "foreground" : "background"
        case .screenCapture(let isCaptured, _):
            captured = isCaptured
            line = "capture \(isCaptured ? "on" : "off")"
        // The replay's clock makes these itself; `wait` says where they ran (the recorder
        // writes one for every wake-up).
        case .wake, .verdictBudgetExpired: line = "wait"
        case .verdictArrived(let request, let verdict):
            if let question = questions[request] {
                line = "verdict answer \(question) \(ScenarioWriter.word(verdict))"
            } else {
                line = "# verdict answer to a question asked before this recording: \(ScenarioWriter.word(verdict))"
            }
        case .delegateReleased: line = "delegate released"
        // The signed policy (issue 28): the file holds neither the pinned keys nor the documents
        // (the app's, which it may not want copied to a QA file), so these are comments, and a
        // replay runs on the code's policy from there on: `replay --check` then shows where the
        // document changed what the monitor did. The document's own switches are its wake-ups.
        case .policyKeys(let keys): line = "# policy keys pinned (relaxation \(keys.allowsRelaxation ? "allowed" : "not allowed")): not replayed"
        case .policyAttributes(let attributes): line = "# policy attributes \(attributes.keys.sorted().joined(separator: ",")): not replayed"
        case .applyPolicy(let document, _): line = "# policy document ver \(document.version): not replayed"
        case .policyRejected(let refusal): line = "# policy document refused: \(refusal.reason)"
        case .wallClockChanged: line = "# wall clock changed"
        case .policyWake: line = "# policy switch (nbf or exp): not replayed"
        // Coaching signals (issue 40): the source, its budget and policy as they were set, and
        // each answer the source gave, at the instant the engine took it, to the question by the
        // order it was asked in the file (the replay's source answers it there, as a recorded
        // verdict is given); late, second and failed answers too, which the engine ignores or
        // reports in the replay as it did here. A budget's end is the replay clock's, a `wait`.
        case .coachingSource(let source):
            coachingSourceSet = source != nil
            line = "coaching source \(source.map(\.description) ?? "off")"
        case .coachingBudget(let nanoseconds): line = "coaching budget \(ScenarioWriter.seconds(nanoseconds))"
        case .coachingPolicy(let policy): line = "coaching policy medium \(policy.medium) high \(policy.high)"
        case .coachingAnswered(let request, let answer):
            if let question = coachingQuestions[request] {
                line = Self.coachingAnswerLine(question, answer)
            } else {
                line = "# coaching answer to a question asked before this recording: \(answer.isAvailable ? answer.level.description : "error")"
            }
        case .coachingBudgetExpired: line = "wait"
        }
        if let line { lines.append(line.hasPrefix("#") ? line : "\(time) \(line)") }
        return lines
    }

    /// The line of a tap that reached no monitor code (the simulator's, with nothing to press):
    /// `tap` when nothing is on screen (a replayed tap is refused whatever it presses); else
    /// `tap stale`, since the replay may hold a delegate the simulator had let go of (`delegate
    /// release`) and a `tap` would press its presentation.
    func tapWithNothingToPress(now: Int64, presentationShown: Bool) -> String {
        "\(ScenarioWriter.seconds(now &- origin)) \(presentationShown ? "tap stale" : "tap")"
    }

    /// `coaching answer 2 high evaluation "E-17" model "3.1"`, or `coaching answer 2 error` for a
    /// failed source: the answer as the source gave it, so the engine replays the same one. An id
    /// or version the scenario language cannot quote (a control character, a line break) is left
    /// out and a comment after it says so: the replay's answer then lacks it, and a check shows
    /// what it changed.
    static func coachingAnswerLine(_ question: Int, _ answer: CallMonitor.CoachingAnswer) -> String {
        guard answer.isAvailable else { return "coaching answer \(question) error" }
        var line = "coaching answer \(question) \(answer.level)"
        var unwritten: [String] = []
        for (word, value) in [("evaluation", answer.evaluationID), ("model", answer.modelVersion)] {
            guard let value else { continue }
            if value.unicodeScalars.contains(where: { [.control, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) }) {
                unwritten.append(word)
            } else {
                line += " \(word) \(ScenarioWriter.quoted(value))"
            }
        }
        if !unwritten.isEmpty { line += " # its \(unwritten.joined(separator: " and ")) not written: a control character or line break" }
        return line
    }

    /// `terminate 3`, `acknowledge 0`: the policy's words, its seconds as clamped (clamping again
    /// changes nothing, so the replay's policy is the same).
    private static func words(_ policy: MonitorPolicy) -> String { "\(policy.flow) \(policy.seconds)" }

    /// The app's name of a protection when the scenario language can say it and no open one has
    /// it (one word, no quote or comment sign: a document's `screens` address it, so the replay
    /// must use the same name); else `P1`, `P2`, … by the protections' order.
    private func protectionName(_ appName: String?) -> String {
        if let appName, !appName.isEmpty, appName.count <= 64,
           appName.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && !$0.properties.isWhitespace && !"#\"\\".unicodeScalars.contains($0) }),
           !(appName.first == "P" && appName.dropFirst().allSatisfy(\.isNumber)),
           !protectionNames.values.contains(appName) {
            return appName
        }
        return "P\(protectionsMade)"
    }

    /// `payment "You are sending €2,000 to M."`: a context as the `protect` command takes it
    /// (the detail is already cleaned, so it holds no line break; quotes and backslashes escaped).
    /// The context as a `protect` line's last words: its kind, its quoted detail, and the
    /// operation's id as `operation "ID"`, which the replay's coaching question carries again.
    private static func words(_ context: CallMonitorContext) -> String {
        var words = context.kindName
        if let detail = context.detail { words += " " + ScenarioWriter.quoted(detail) }
        if let operationID = context.operationID { words += " operation " + ScenarioWriter.quoted(operationID) }
        return words
    }

    /// `C1`, `C2`, … in order of appearance: a device's call identifiers never reach the file.
    private mutating func name(of id: CallID) -> String {
        if let name = callNames[id] { return name }
        let name = "C\(callNames.count + 1)"
        callNames[id] = name
        return name
    }

    /// A complete list as `calls`; one call's change that the simulator's own commands make as a
    /// single delivery (a new call, connect, hold, resume, end) as that command; any other batch
    /// as one `changes` line, which delivers it as it came.
    private mutating func callLine(_ batch: CallBatch) -> String {
        if batch.isComplete {
            var words = ["calls"]
            var listed: Set<CallID> = []
            for snapshot in batch.calls where !snapshot.hasEnded && !listed.contains(snapshot.id) {
                listed.insert(snapshot.id)
                let state = ListedCallState(snapshot)
                words.append("\(name(of: snapshot.id)):\(state.rawValue)")
                callStates[snapshot.id] = state
            }
            // What the list leaves out has ended (rule 15), and an ended snapshot in it says the
            // same (the complete batch's contract): the simulator marks them ended too.
            for id in callStates.keys where !listed.contains(id) { callStates[id] = .ended }
            return words.joined(separator: " ")
        }
        if batch.calls.count == 1, let snapshot = batch.calls.first, let command = transition(snapshot) {
            callStates[snapshot.id] = ListedCallState(snapshot)
            return "\(command) \(name(of: snapshot.id))"
        }
        var words = ["changes"]
        var named: [CallID: Int] = [:]
        for snapshot in batch.calls {
            let state = ListedCallState(snapshot)
            let word = "\(name(of: snapshot.id)):\(state.rawValue)"
            // A batch that names a call twice: its last snapshot is the one the engine keeps.
            if let index = named[snapshot.id] { words[index] = word } else { named[snapshot.id] = words.count; words.append(word) }
            callStates[snapshot.id] = state
        }
        return words.joined(separator: " ")
    }

    /// The simulator command that turns the call's last state into `snapshot`'s, if one does.
    private func transition(_ snapshot: CallSnapshot) -> String? {
        let next = ListedCallState(snapshot)
        switch (callStates[snapshot.id], next) {
        case (nil, .ringing): return "incoming"
        case (nil, .dialing): return "outgoing"
        case (.ringing?, .connected), (.dialing?, .connected): return "connect"
        case (.connected?, .held): return "hold"
        case (.held?, .connected): return "resume"
        case (.ringing?, .ended), (.dialing?, .ended), (.connected?, .ended), (.held?, .ended): return "end"
        default: return nil
        }
    }

    // MARK: Outputs

    /// The output lines of the actions of one step at `now`, in their order: what the callback,
    /// the surfaces, the outcome handler and the exit were told (the engine's housekeeping, its
    /// timers and sources, leaves no line).
    mutating func lines(for actions: [MonitorEngine.Action], now: Int64) -> [String] {
        var lines: [String] = []
        for action in actions {
            var line = OutputLine(t: now &- origin)
            switch action {
            case .emit(let event):
                line.add("kind", "event")
                line.add("event", event.description)
            case .scene(let scene):
                // One line a change, as a surface is told it; a redraw in other texts is no event.
                guard Self.describe(scene, into: &line) else { continue }
            case .policy(let event):
                line.add("kind", "policy")
                line.add("result", event.result.rawValue)
                if let version = event.version { line.add("version", Int(version)) } else { line.addNull("version") }
            case .dismiss(let surface):
                line.add("kind", "dismiss")
                line.add("surface", surface.description)
            case .ask(let request, _):
                guard verifierSet else { continue }
                questionsAsked += 1
                questions[request] = questionsAsked
                line.add("kind", "ask")
                line.add("question", questionsAsked)
            case .askCoaching(let question, let budgetEndsAt):
                // Only a source set in this file is asked in the replay (a `coaching source` line).
                guard coachingSourceSet else { continue }
                coachingQuestionsAsked += 1
                coachingQuestions[question.id] = coachingQuestionsAsked
                line.add("kind", "coachingAsk")
                line.add("question", coachingQuestionsAsked)
                line.add("category", question.operationCategory.rawValue)
                line.addSeconds("budgetEndsAt", budgetEndsAt &- origin)
            case .reportCoaching(let request, let status):
                guard let question = coachingQuestions[request] else { continue }
                line.add("kind", "coachingReport")
                line.add("question", question)
                line.add("status", status.description)
            case .outcome(let outcome):
                line.add("kind", "outcome")
                line.add("ending", outcome.ending.description)
                line.add("flow", outcome.flow.description)
                line.addSeconds("startedAt", outcome.startedAt &- origin)
                line.add("lowestRemaining", Int(outcome.lowestRemaining))
                line.add("shownOn", outcome.presentations.map(\.surface.description).joined(separator: ","))
                line.add("captured", outcome.wasScreenCaptured)
                line.add("verdict", outcome.verdict.description)
                if let at = outcome.verdictArrivedAt { line.addSeconds("verdictAt", at &- origin) } else { line.addNull("verdictAt") }
                // Issue 40: the answers its record holds, by the file's question numbers (only
                // questions of a source set in this file are numbered, and replayed).
                line.add("coaching", outcome.coaching.compactMap { record in
                    coachingQuestions[record.questionID].map { "\($0) \(record.level) \(record.consumption)" }
                }.joined(separator: ","))
            case .exit(let code):
                line.add("kind", "exit")
                line.add("code", Int(code))
            case .schedule, .cancelWakeUp, .startSources, .startCallSource, .stopCallSource, .refreshCalls, .stopSources, .armExitWatchdog,
                 .cancelAsk, .install, .schedulePolicyWake, .cancelPolicyWake, .persistPolicy, .coachingInOutcome:
                continue
            }
            lines.append(Self.outputPrefix + line.text)
        }
        return lines
    }

    /// The line of one scene: what changed, with the fields that change shows; `false` for a
    /// redraw in other texts, which has no line.
    private static func describe(_ scene: MonitorEngine.Scene, into line: inout OutputLine) -> Bool {
        switch scene.change {
        case .present:
            line.add("kind", "present")
            line.add("flow", scene.flow.description)
            line.add("remaining", Int(scene.remaining))
            line.add("button", word(scene.button))
            line.add("verdict", scene.verdict.description)
            add(scene.context, to: &line)
        case .context:
            line.add("kind", "context")
            add(scene.context, to: &line)
        case .tick:
            line.add("kind", "tick")
            line.add("remaining", Int(scene.remaining))
            line.add("button", word(scene.button))
        case .button:
            line.add("kind", "button")
            line.add("button", word(scene.button))
        case .verdict:
            line.add("kind", "verdict")
            line.add("verdict", scene.verdict.description)
        case .texts:
            return false
        case .coachingLevel:
            // Rule 34: a redraw of the coaching line, which a replay reproduces only once the
            // recording carries the coaching answers (rule 30's part of issue 40): no line yet.
            return false
        }
        line.add("surface", scene.surface.description)
        return true
    }

    /// The context as drawn: its kind and its cleaned detail, or `null`s.
    private static func add(_ context: CallMonitorContext?, to line: inout OutputLine) {
        if let context { line.add("contextKind", context.kindName) } else { line.addNull("contextKind") }
        if let detail = context?.detail { line.add("detail", detail) } else { line.addNull("detail") }
    }

    private static func word(_ button: MonitorEngine.Button) -> String {
        switch button {
        case .hidden: "hidden"
        case .available: "available"
        case .refused: "refused"
        }
    }
}

/// One output line under construction: `t` first, then the fields in the order added, as the
/// simulator's transcript writes its JSON objects.
struct OutputLine {
    private var object = JSONText.Object()

    init(t: Int64) { object.add("t", json: ScenarioWriter.seconds(t)) }

    mutating func add(_ key: String, _ value: String) { object.add(key, value) }
    mutating func add(_ key: String, _ value: Int) { object.add(key, Int64(value)) }
    mutating func add(_ key: String, _ value: Bool) { object.add(key, value) }
    mutating func addSeconds(_ key: String, _ nanoseconds: Int64) { object.add(key, json: ScenarioWriter.seconds(nanoseconds)) }
    mutating func addNull(_ key: String) { object.add(key, nil as String?) }

    var text: String { object.text }
}

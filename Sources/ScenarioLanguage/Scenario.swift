// The scenario language of `callmonitor simulate`: one timed command a line. Parsing is pure and
// checks everything that can be checked without running the policy. A package-level target
// (issue 39), not a product: the tool reads it, the recorder (hnbRecording) writes it
// (ScenarioWriting.swift), the tests use both.

import hnb

/// A problem in a scenario, reported as `line N: message`.
package struct ScenarioError: Error, Equatable {
    package let line: Int
    package let message: String

    package init(line: Int, message: String) {
        self.line = line
        self.message = message
    }
}

extension ScenarioError {
    /// What a catch narrows an error of another type to (`Error.narrowed(or:)`; the parser throws
    /// only this type, untyped for the reason Sources/hnb/Core/ThrownError.swift gives): a refused
    /// scenario, never a read one.
    package static var unexpected: Self { Self(line: 0, message: "the scenario could not be read") }
}

/// One command of a scenario.
package enum ScenarioCommand: Equatable {
    case start(CallMonitorFlow, seconds: Int32)
    /// `startMonitoring()`: observe only (rule 20).
    case startObserving
    case stop
    /// A named protection begins (rule 18), with what its screen is about (rule 29).
    case protect(String, CallMonitorFlow, seconds: Int32, context: CallMonitorContext? = nil)
    /// The named protection ends.
    case unprotect(String)
    /// The app exempts one of its own calls (rule 19), or takes the exemption back.
    case exempt(String)
    case unexempt(String)
    /// Call detection is switched on or off (rule 22).
    case detection(Bool)
    case incoming(String)
    case outgoing(String)
    case connect(String)
    case hold(String)
    case resume(String)
    case end(String)
    /// A complete list of the device's calls, delivered as one (rule 15): `calls ID:STATE …`.
    case callList([ListedCall])
    /// Changes to several calls delivered as one batch: `changes ID:STATE …`.
    case callChanges([ListedCall])
    case background
    case foreground
    /// The process is suspended (issue 37): from here until ``resumeProcess(_:)`` no wake-up runs,
    /// the call source's change deliveries wait (the device's calls still change), and nothing of
    /// the app runs. iOS suspends only an app in the background, so `background` comes first.
    case suspend
    /// The process runs again and releases what piled up, in the order given: each of
    /// ``ResumeRelease/timers`` and ``ResumeRelease/calls`` once, and the return to the foreground
    /// where ``ResumeRelease/foreground`` stands, if it does.
    case resumeProcess([ResumeRelease])
    case tap
    /// A tap on no presentation of the monitor (a stale `onUserAction` while another is on
    /// screen, as a recording writes it): always refused (rule 12).
    case tapStale
    case delegateCustom
    case delegateNone
    case delegateRelease
    case callbackOn
    case callbackOff
    /// The screen starts or stops being captured.
    case capture(Bool)
    /// The opt-in rule 17 is switched on or off.
    case refusesAcknowledgementWhileScreenCaptured(Bool)
    /// The call verifier's answers to every following question (rule 23): each a verdict and its
    /// delay in nanoseconds; none for a verifier that never answers.
    case verdict([VerdictReply])
    /// The verifier's budget, in nanoseconds (rule 23).
    case verdictBudget(Int64)
    /// The call verifier is removed.
    case verdictOff
    /// A recording's verifier: it answers each question as the file's `verdict answer` lines say.
    case verdictRecorded
    /// A recorded answer to question N (counted from 1), at the line's time.
    case verdictAnswer(question: Int, CallMonitorCallVerdict)
    /// The delegate turned out released, and the monitor hears of it now (a recording writes it
    /// where the engine heard of a release).
    case delegateReleaseNoticed
    /// The simulator's coaching source is set, reporting itself as this kind (`app`, or
    /// `trustInsights` as a recording of Apple's source writes it), or removed with `nil` (issue
    /// 40, rule 31).
    case coachingSource(CallMonitor.CoachingSource?)
    /// The coaching budget, in nanoseconds (rule 31).
    case coachingBudget(Int64)
    /// The code's coaching policy (rule 32): what a `medium` and a `high` answer do.
    case coachingPolicy(CallMonitor.CoachingPolicy)
    /// The coaching source answers question N (counted from 1) now: a level with the evaluation
    /// id and model version it names, or ``CallMonitor/CoachingAnswer/unavailable`` for a failed
    /// source (`error`, rule 33).
    case coachingAnswer(question: Int, CallMonitor.CoachingAnswer)
    /// The policy while the screen is captured during a call (rule 25) is set or replaced.
    case protectWhileScreenCaptured(CallMonitorFlow, seconds: Int32)
    /// That policy is removed.
    case stopProtectingWhileScreenCaptured
    /// The signed policy's keys (issue 28): a JWK Set file (relative to the scenario), the
    /// issuer, and whether relaxation is allowed.
    case policyKeys(file: String, issuer: String, relax: Bool)
    /// A signed policy document from a file, applied (issue 28).
    case policyDocument(file: String)
    /// One of the device's attributes for the document's rules (`os`, `osVersion`, …).
    case attribute(String, String)
    /// The wall clock set to this instant (seconds since 1970), forwards or back.
    case clock(Int64)
    case wait
    /// The file is a recording (its first line): the call source delivers only what the lines
    /// say, and time runs as the recording says (see ``Simulation/run(_:)``).
    case recording
}

/// What a resumed process releases (`resume timers calls [foreground]`, in any order).
package enum ResumeRelease: String, CaseIterable, Equatable {
    /// The wake-ups that fell due while suspended, each at the resume's instant, in deadline order.
    case timers
    /// The call source's change deliveries that waited: CallKit's queued notifications each read
    /// the observer's list when delivered, so they say the calls as they are at the resume.
    case calls
    /// The app returns to the foreground.
    case foreground
}

/// One scripted answer of the call verifier: what it says and how long after the question.
package struct VerdictReply: Equatable {
    package let verdict: CallMonitorCallVerdict
    package let delay: Int64
}

/// A command with the line it came from and the instant (virtual nanoseconds) it runs at.
package struct ScenarioStep: Equatable {
    package let line: Int
    package let time: Int64
    package let command: ScenarioCommand
    /// The line as written, without its line end, for `simulate --echo`.
    package var text: String = ""
}

package enum ScenarioParser {
    /// Every command name, for the suggestion when one is misspelt (simulate's help lists the
    /// commands with their arguments in its own words).
    package static let commandNames = [
        "start", "stop", "incoming", "outgoing", "connect", "hold", "resume", "end",
        "background", "foreground", "tap", "delegate", "callback", "capture", "wait",
        "protect", "unprotect", "exempt", "unexempt", "detection", "verdict", "calls", "changes", "recording",
        "keys", "policy", "attribute", "clock", "suspend", "coaching",
    ]

    /// The latest TIME accepted: about 285 years, far below the nanosecond clock's limit.
    package static let maxSeconds: Int64 = 9_000_000_000

    /// Seconds since 1970 of `YYYY-MM-DDTHH:MM:SSZ` (UTC), or `nil`: computed, so no formatter
    /// or locale can read it differently.
    package static func parseInstant(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19), year >= 1970, (1...12).contains(month), hour < 24, minute < 60,
              second < 60 else { return nil }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[Int(month - 1)]).contains(day) else { return nil }
        // Days from 1970-01-01 to the start of the year (every year before it), then the month.
        var days: Int64 = 0
        for y in 1970..<year { days += ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0) ? 366 : 365 }
        for m in 0..<Int(month - 1) { days += lengths[m] }
        days += day - 1
        return ((days * 24 + hour) * 60 + minute) * 60 + second
    }

    package static func parse(_ text: String) throws -> [ScenarioStep] {
        var steps: [ScenarioStep] = []
        var previous: Int64 = 0
        // Swift reads "\r\n" as one Character, so both line ends are named; a lone "\r" is
        // trimmed as white space below.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            let words: [String]
            do {
                words = try ScenarioWords.split(Substring(rawLine))
            } catch let error as ScenarioWordError {
                throw ScenarioError(line: number, message: error.message)
            }
            guard let timeWord = words.first else { continue }
            guard let time = parseTime(timeWord) else {
                throw ScenarioError(line: number, message: "bad time '\(timeWord)': expected seconds such as 3 or 1.5 (0 to \(maxSeconds), at most 9 decimals)")
            }
            guard time >= previous else {
                throw ScenarioError(line: number, message: "time \(timeWord) goes backwards (the previous line is at \(ScenarioWriter.seconds(previous)))")
            }
            previous = time
            guard words.count >= 2 else {
                throw ScenarioError(line: number, message: "missing command after the time")
            }
            let command = try parseCommand(words[1], Array(words.dropFirst(2)), line: number)
            let text = String(rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine[...])
            steps.append(ScenarioStep(line: number, time: time, command: command, text: text))
        }
        try checkSuspensions(steps)
        return steps
    }

    /// Issue 37: a suspension is written as it can happen. Only an app in the background is
    /// suspended; while it is, only the device's calls and the wall clock change (nothing of the
    /// app runs, so no API call, tap or app-state change), and a resume ends it. A recording says
    /// the order things ran in line by line (`wait`), so it has no suspension of its own.
    package static func checkSuspensions(_ steps: [ScenarioStep]) throws {
        var foreground = true
        var suspendedAt: Int?
        let isRecording = steps.contains { $0.command == .recording }
        for step in steps {
            switch step.command {
            case .suspend:
                if isRecording {
                    throw ScenarioError(line: step.line, message: "'suspend' has no place in a recording: its lines already say the order things ran in after a suspension")
                }
                if let at = suspendedAt { throw ScenarioError(line: step.line, message: "already suspended (line \(at))") }
                guard !foreground else {
                    throw ScenarioError(line: step.line, message: "'suspend' needs the app in the background (iOS suspends only a background app): write 'background' first")
                }
                suspendedAt = step.line
            case .resumeProcess(let order):
                guard suspendedAt != nil else { throw ScenarioError(line: step.line, message: "'resume \(order.map(\.rawValue).joined(separator: " "))' without a 'suspend' before it") }
                suspendedAt = nil
                if order.contains(.foreground) { foreground = true }
            case .background, .foreground:
                if let at = suspendedAt {
                    throw ScenarioError(line: step.line, message: "the app is suspended (line \(at)): write the return in the resume, e.g. 'resume timers foreground calls'")
                }
                foreground = step.command == .foreground
            case .incoming, .outgoing, .connect, .hold, .resume, .end, .callList, .callChanges, .clock, .wait:
                break
            default:
                if let at = suspendedAt {
                    throw ScenarioError(line: step.line, message: "the app is suspended (line \(at)): only call changes, 'clock' and 'wait' can happen until 'resume timers calls'")
                }
            }
        }
    }

    private static func parseCommand(_ name: String, _ args: [String], line: Int) throws -> ScenarioCommand {
        /// Names the nearest word when the unknown one looks like a typo of it, else lists them all.
        func unknown(_ what: String, _ word: String, _ known: [String], expected: String) -> ScenarioError {
            let hint = Suggestions.hint(for: word, in: known)
            return ScenarioError(line: line, message: "unknown \(what) '\(word)'" + (hint.isEmpty ? ": expected \(expected)" : hint))
        }
        /// Names what is too much: "takes a flow and seconds" alone reads as if those were wrong.
        func tooMuch(after count: Int, _ usage: String) -> ScenarioError {
            let extra = args[count...].joined(separator: " ")
            let accepted = ([name] + args[..<count]).joined(separator: " ")
            return ScenarioError(line: line, message: "unexpected '\(extra)' after '\(accepted)'; '\(name)' takes \(usage)")
        }
        func expect(_ count: Int, _ usage: String) throws {
            if args.count > count { throw tooMuch(after: count, usage) }
            guard args.count == count else { throw ScenarioError(line: line, message: "'\(name)' takes \(usage)") }
        }
        /// The flow and seconds of `start` and `protect`, read as demo and watch read theirs.
        func policy(_ flowWord: String, _ secondsWord: String) throws -> (CallMonitorFlow, Int32) {
            do {
                return (try PolicyWords.flow(flowWord), try PolicyWords.seconds(secondsWord))
            } catch let error as PolicyWordError {
                throw ScenarioError(line: line, message: error.message)
            }
        }
        switch name {
        case "start":
            if args == ["observe"] { return .startObserving }
            try expect(2, "a flow and seconds: start terminate N | start acknowledge N | start observe")
            let (flow, seconds) = try policy(args[0], args[1])
            return .start(flow, seconds: seconds)
        case "protect":
            let usage = "a name, a flow and seconds, then optionally a context kind, a quoted detail and the operation's id: protect NAME terminate|acknowledge N [KIND [\"DETAIL\"] [operation \"ID\"]]"
            try expect(min(max(args.count, 3), 7), usage)
            let (flow, seconds) = try policy(args[1], args[2])
            guard args.count > 3 else { return .protect(args[0], flow, seconds: seconds) }
            let kindNames = CallMonitorContext.Kind.allCases.map(\.rawValue)
            guard let kind = CallMonitorContext.Kind(rawValue: args[3]) else {
                throw unknown("context kind", args[3], kindNames, expected: kindNames.joined(separator: ", "))
            }
            // The operation id (rule 31's question carries it) is the last two words, `operation
            // "ID"`; the count tells them from a detail: five words end in a detail, six in the id
            // without a detail, seven in a detail and the id. A detail that reads "operation" is
            // therefore never taken for the keyword.
            var detail = args.count > 4 ? args[4] : nil
            var operationID: String?
            if args.count == 6, args[4] == "operation" {
                detail = nil
                operationID = args[5]
            } else if args.count > 5 {
                // Anything after a detail but `operation "ID"` is too much, named as such.
                guard args.count == 7, args[5] == "operation" else { throw tooMuch(after: 5, usage) }
                operationID = args[6]
            }
            return .protect(args[0], flow, seconds: seconds, context: CallMonitorContext(kind: kind, detail: detail, operationID: operationID))
        case "unprotect": try expect(1, "one protection name"); return .unprotect(args[0])
        case "exempt": try expect(1, "one call ID"); return .exempt(args[0])
        case "unexempt": try expect(1, "one call ID"); return .unexempt(args[0])
        case "detection":
            try expect(1, "on or off")
            switch args[0] {
            case "on": return .detection(true)
            case "off": return .detection(false)
            default: throw unknown("detection setting", args[0], ["on", "off"], expected: "on or off")
            }
        case "stop": try expect(0, "no arguments"); return .stop
        case "incoming": try expect(1, "one call ID"); return .incoming(args[0])
        case "outgoing": try expect(1, "one call ID"); return .outgoing(args[0])
        case "connect": try expect(1, "one call ID"); return .connect(args[0])
        case "hold": try expect(1, "one call ID"); return .hold(args[0])
        case "resume":
            // One word: a held call comes off hold; more: the suspended process runs again.
            guard args.count >= 2 else { try expect(1, "one call ID, or the order a suspended process releases its work in: resume timers calls [foreground]"); return .resume(args[0]) }
            return .resumeProcess(try parseResumeOrder(args, line: line))
        case "end": try expect(1, "one call ID"); return .end(args[0])
        case "suspend": try expect(0, "no arguments"); return .suspend
        case "background": try expect(0, "no arguments"); return .background
        case "foreground": try expect(0, "no arguments"); return .foreground
        case "tap":
            if args == ["stale"] { return .tapStale }
            try expect(0, "no arguments, or stale: tap | tap stale"); return .tap
        case "wait": try expect(0, "no arguments"); return .wait
        case "keys":
            guard args.count == 2 || (args.count == 3 && args[2] == "relax") else {
                throw ScenarioError(line: line, message: "'keys' takes a JWKS file and the issuer, and relax to allow relaxation: keys FILE ISSUER [relax]")
            }
            return .policyKeys(file: args[0], issuer: args[1], relax: args.count == 3)
        case "policy": try expect(1, "one document file"); return .policyDocument(file: args[0])
        case "attribute": try expect(2, "a name and a value"); return .attribute(args[0], args[1])
        case "clock":
            try expect(1, "an instant such as 2026-01-01T00:00:00Z")
            guard let instant = parseInstant(args[0]) else {
                throw ScenarioError(line: line, message: "bad instant '\(args[0])': expected YYYY-MM-DDTHH:MM:SSZ (UTC, 1970 to 9999)")
            }
            return .clock(instant)
        case "recording": try expect(0, "no arguments"); return .recording
        case "delegate":
            try expect(1, "one of custom, none, release")
            switch args[0] {
            case "custom": return .delegateCustom
            case "none": return .delegateNone
            case "release": return .delegateRelease
            case "released": return .delegateReleaseNoticed
            default: throw unknown("delegate action", args[0], ["custom", "none", "release", "released"], expected: "custom, none, release or released")
            }
        case "callback":
            try expect(1, "on or off")
            switch args[0] {
            case "on": return .callbackOn
            case "off": return .callbackOff
            default: throw unknown("callback action", args[0], ["on", "off"], expected: "on or off")
            }
        case "capture":
            switch args {
            case ["on"]: return .capture(true)
            case ["off"]: return .capture(false)
            case ["rule", "on"]: return .refusesAcknowledgementWhileScreenCaptured(true)
            case ["rule", "off"]: return .refusesAcknowledgementWhileScreenCaptured(false)
            case let words where words.first == "escalate":
                let usage = "'capture escalate' takes a flow and seconds, or off: capture escalate terminate N | capture escalate acknowledge N | capture escalate off"
                // As `expect` does: name the words that are too many.
                let accepted = words.count >= 2 && words[1] == "off" ? 2 : 3
                if words.count > accepted {
                    let extra = words[accepted...].joined(separator: " ")
                    throw ScenarioError(line: line, message: "unexpected '\(extra)' after 'capture \(words[..<accepted].joined(separator: " "))'; \(usage)")
                }
                if accepted == 2 { return .stopProtectingWhileScreenCaptured }
                guard words.count == 3 else { throw ScenarioError(line: line, message: usage) }
                let (flow, seconds) = try policy(words[1], words[2])
                return .protectWhileScreenCaptured(flow, seconds: seconds)
            default: throw ScenarioError(line: line, message: "'capture' takes on, off, rule on, rule off, escalate terminate N, escalate acknowledge N or escalate off")
            }
        case "verdict":
            return try parseVerdict(args, line: line)
        case "coaching":
            return try parseCoaching(args, line: line)
        case "calls": return .callList(try parseListedCalls(args, allowsEnded: false, line: line))
        case "changes": return .callChanges(try parseListedCalls(args, allowsEnded: true, line: line))
        default:
            throw ScenarioError(line: line, message: "unknown command '\(name)'\(Suggestions.hint(for: name, in: commandNames))")
        }
    }

    /// `resume timers calls [foreground]`, in the order the process releases them: `timers` and
    /// `calls` once each, `foreground` at most once.
    private static func parseResumeOrder(_ args: [String], line: Int) throws -> [ResumeRelease] {
        let names = ResumeRelease.allCases.map(\.rawValue)
        var order: [ResumeRelease] = []
        for word in args {
            guard let release = ResumeRelease(rawValue: word) else {
                let hint = Suggestions.hint(for: word, in: names)
                throw ScenarioError(line: line, message: "unknown release '\(word)'" + (hint.isEmpty ? ": expected timers, calls or foreground" : hint))
            }
            guard !order.contains(release) else { throw ScenarioError(line: line, message: "'\(word)' appears twice in one 'resume'") }
            order.append(release)
        }
        guard order.contains(.timers), order.contains(.calls) else {
            throw ScenarioError(line: line, message: "'resume' of a suspended process names both timers and calls, in the order they run: resume timers calls [foreground]")
        }
        return order
    }

    /// `coaching source app|trustInsights|off | budget S | policy medium R high R | answer N LEVEL
    /// [evaluation "ID"] [model "VERSION"] | answer N error` (issue 40); R is `off`, `evaluate` or
    /// `acknowledge SECONDS`. The words are the values' own descriptions, as a recording writes them.
    private static func parseCoaching(_ args: [String], line: Int) throws -> ScenarioCommand {
        let usage = "'coaching' takes source app, source trustInsights, source off, budget SECONDS, policy medium RESPONSE high RESPONSE or answer N LEVEL (unknown, medium, high or error)"
        switch args.first {
        case "source" where args.count == 2:
            if args[1] == "off" { return .coachingSource(nil) }
            guard let source = CallMonitor.CoachingSource.allCases.first(where: { $0.description == args[1] }) else { break }
            return .coachingSource(source)
        case "budget" where args.count == 2:
            guard let value = parseTime(args[1]) else {
                throw ScenarioError(line: line, message: "bad seconds '\(args[1])': expected seconds such as 5 or 0.5")
            }
            return .coachingBudget(value)
        case "policy":
            return .coachingPolicy(try parseCoachingPolicy(Array(args.dropFirst()), line: line))
        case "answer" where args.count >= 3:
            guard let question = Int(args[1]), question >= 1, args[1].allSatisfy(\.isASCII) else {
                throw ScenarioError(line: line, message: "bad question '\(args[1])': expected 1, 2, ... (the order the coaching source was asked in)")
            }
            let extras = "'coaching answer N LEVEL' takes evaluation \"ID\" and model \"VERSION\" after the level, each at most once"
            if args[2] == "error" {
                guard args.count == 3 else { throw ScenarioError(line: line, message: "a failed answer ('error') has no evaluation or model") }
                return .coachingAnswer(question: question, .unavailable)
            }
            guard let level = CallMonitor.CoachingLevel.allCases.first(where: { $0.description == args[2] }) else {
                throw ScenarioError(line: line, message: "unknown coaching level '\(args[2])': expected unknown, medium, high or error")
            }
            var named: [String: String] = [:]
            var rest = args.dropFirst(3)
            while let key = rest.first {
                guard key == "evaluation" || key == "model", named[key] == nil, rest.count >= 2 else {
                    throw ScenarioError(line: line, message: extras)
                }
                named[key] = rest.dropFirst().first
                rest = rest.dropFirst(2)
            }
            return .coachingAnswer(question: question, CallMonitor.CoachingAnswer(level: level, evaluationID: named["evaluation"], modelVersion: named["model"]))
        default: break
        }
        throw ScenarioError(line: line, message: usage)
    }

    /// `medium R high R`, both levels named, in that order (R: `off`, `evaluate`, `acknowledge N`).
    private static func parseCoachingPolicy(_ args: [String], line: Int) throws -> CallMonitor.CoachingPolicy {
        let usage = "'coaching policy' takes medium RESPONSE high RESPONSE (RESPONSE: off, evaluate or acknowledge SECONDS)"
        var rest = args[...]
        func response(_ level: String) throws -> CallMonitor.CoachingResponse {
            guard rest.first == level, let word = rest.dropFirst().first else { throw ScenarioError(line: line, message: usage) }
            rest = rest.dropFirst(2)
            switch word {
            case "off": return .off
            case "evaluate": return .evaluate
            case "acknowledge":
                guard let secondsWord = rest.first else { throw ScenarioError(line: line, message: usage) }
                rest = rest.dropFirst()
                do {
                    return .acknowledge(seconds: try PolicyWords.seconds(secondsWord))
                } catch let error as PolicyWordError {
                    throw ScenarioError(line: line, message: error.message)
                }
            default:
                throw ScenarioError(line: line, message: "unknown coaching response '\(word)': expected off, evaluate or acknowledge SECONDS")
            }
        }
        let medium = try response("medium")
        let high = try response("high")
        guard rest.isEmpty else { throw ScenarioError(line: line, message: usage) }
        return CallMonitor.CoachingPolicy(medium: medium, high: high)
    }

    /// The verdict words: `bank`, `notbank`, `unknown`.
    package static let verdictWords = ScenarioWriter.verdictsInOrder.map(ScenarioWriter.word)

    /// `verdict bank | notbank | unknown | late N | never | twice V V | budget S | off`.
    private static func parseVerdict(_ args: [String], line: Int) throws -> ScenarioCommand {
        let usage = "'verdict' takes bank, notbank, unknown, late N, never, twice VERDICT VERDICT, budget SECONDS, off, recorded or answer N VERDICT"
        func word(_ text: String) throws -> CallMonitorCallVerdict {
            // Read with the writer's table (ScenarioWriting.swift), so a recording's words parse.
            if let verdict = ScenarioWriter.verdictsInOrder.first(where: { ScenarioWriter.word($0) == text }) { return verdict }
            let hint = Suggestions.hint(for: text, in: verdictWords)
            throw ScenarioError(line: line, message: "unknown verdict '\(text)'" + (hint.isEmpty ? ": expected bank, notbank or unknown" : hint))
        }
        func seconds(_ text: String) throws -> Int64 {
            guard let value = parseTime(text) else {
                throw ScenarioError(line: line, message: "bad seconds '\(text)': expected seconds such as 5 or 0.5")
            }
            return value
        }
        switch args.count {
        case 1 where args[0] == "never": return .verdict([])
        case 1 where args[0] == "off": return .verdictOff
        case 1 where args[0] == "recorded": return .verdictRecorded
        case 3 where args[0] == "answer":
            guard let question = Int(args[1]), question >= 1, args[1].allSatisfy(\.isASCII) else {
                throw ScenarioError(line: line, message: "bad question '\(args[1])': expected 1, 2, ... (the order the verifier was asked in)")
            }
            return .verdictAnswer(question: question, try word(args[2]))
        case 1: return .verdict([VerdictReply(verdict: try word(args[0]), delay: 0)])
        // A late answer says "not calling": the answer that would change the dialog, so a
        // transcript shows plainly that it was ignored.
        case 2 where args[0] == "late": return .verdict([VerdictReply(verdict: .bankIsNotCalling, delay: try seconds(args[1]))])
        case 2 where args[0] == "budget": return .verdictBudget(try seconds(args[1]))
        case 3 where args[0] == "twice":
            return .verdict([VerdictReply(verdict: try word(args[1]), delay: 0), VerdictReply(verdict: try word(args[2]), delay: 0)])
        default: throw ScenarioError(line: line, message: usage)
        }
    }

    /// Seconds with up to nine decimals, to exact nanoseconds (no floating point on the way).
    package static func parseTime(_ word: String) -> Int64? {
        let parts = word.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCII), whole.allSatisfy(\.isNumber) else { return nil }
        guard whole.count <= 11, let seconds = Int64(whole), seconds <= maxSeconds else { return nil }
        var nanos: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy(\.isASCII), fraction.allSatisfy(\.isNumber) else { return nil }
            nanos = Int64(fraction + String(repeating: "0", count: 9 - fraction.count)) ?? 0
        }
        return seconds * 1_000_000_000 + nanos
    }
}

/// A scenario line that cannot be split into words: an unclosed quote.
package struct ScenarioWordError: Error, Equatable {
    package let message: String
}

/// Splits a scenario line into words: white space separates them, `#` outside quotes begins a
/// comment, and a word that begins with `"` runs to the next unescaped `"` (inside it `\"` is a
/// quote and `\\` a backslash), so a protection's detail can hold spaces and `#`.
package enum ScenarioWords {
    package static func split(_ line: Substring) throws -> [String] {
        var words: [String] = []
        var index = line.startIndex
        func isSpace(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\r" }
        while index < line.endIndex {
            let c = line[index]
            if isSpace(c) {
                index = line.index(after: index)
                continue
            }
            if c == "#" { break }
            if c == "\"" {
                var word = ""
                var closed = false
                index = line.index(after: index)
                while index < line.endIndex {
                    let d = line[index]
                    index = line.index(after: index)
                    if d == "\"" {
                        closed = true
                        break
                    }
                    if d == "\\", index < line.endIndex, line[index] == "\"" || line[index] == "\\" {
                        word.append(line[index])
                        index = line.index(after: index)
                        continue
                    }
                    word.append(d)
                }
                guard closed else { throw ScenarioWordError(message: "unclosed quote: a quoted detail ends with \" (write \\\" for a quote inside it)") }
                words.append(word)
                continue
            }
            let start = index
            while index < line.endIndex, !isSpace(line[index]), line[index] != "#" { index = line.index(after: index) }
            words.append(String(line[start..<index]))
        }
        return words
    }
}

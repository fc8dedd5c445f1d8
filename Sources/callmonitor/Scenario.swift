// The scenario language of `callmonitor simulate`: one timed command a line. Parsing is pure and
// checks everything that can be checked without running the policy.

import hnb

/// A problem in a scenario, reported as `line N: message`.
struct ScenarioError: Error, Equatable {
    let line: Int
    let message: String
}

/// One command of a scenario.
enum ScenarioCommand: Equatable {
    case start(CallMonitorFlow, seconds: Int32)
    /// `startMonitoring()`: observe only (rule 20).
    case startObserving
    case stop
    /// A named protection begins (rule 18).
    case protect(String, CallMonitorFlow, seconds: Int32)
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
    case tap
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
    /// The policy while the screen is captured during a call (rule 25) is set or replaced.
    case protectWhileScreenCaptured(CallMonitorFlow, seconds: Int32)
    /// That policy is removed.
    case stopProtectingWhileScreenCaptured
    case wait
    /// The file is a recording (its first line): the call source delivers only what the lines
    /// say, and time runs as the recording says (see ``Simulation/run(_:)``).
    case recording
}

/// One scripted answer of the call verifier: what it says and how long after the question.
struct VerdictReply: Equatable {
    let verdict: CallMonitorCallVerdict
    let delay: Int64
}

/// A command with the line it came from and the instant (virtual nanoseconds) it runs at.
struct ScenarioStep: Equatable {
    let line: Int
    let time: Int64
    let command: ScenarioCommand
    /// The line as written, without its line end, for `simulate --echo`.
    var text: String = ""
}

enum ScenarioParser {
    /// Every command name, for the suggestion when one is misspelt (simulate's help lists the
    /// commands with their arguments in its own words).
    static let commandNames = [
        "start", "stop", "incoming", "outgoing", "connect", "hold", "resume", "end",
        "background", "foreground", "tap", "delegate", "callback", "capture", "wait",
        "protect", "unprotect", "exempt", "unexempt", "detection", "verdict", "calls", "changes", "recording",
    ]

    /// The latest TIME accepted: about 285 years, far below the nanosecond clock's limit.
    static let maxSeconds: Int64 = 9_000_000_000

    static func parse(_ text: String) throws(ScenarioError) -> [ScenarioStep] {
        var steps: [ScenarioStep] = []
        var previous: Int64 = 0
        // Swift reads "\r\n" as one Character, so both line ends are named; a lone "\r" is
        // trimmed as white space below.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            var content = Substring(rawLine)
            if let hash = content.firstIndex(of: "#") { content = content[..<hash] }
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let timeWord = words.first else { continue }
            guard let time = parseTime(timeWord) else {
                throw ScenarioError(line: number, message: "bad time '\(timeWord)': expected seconds such as 3 or 1.5 (0 to \(maxSeconds), at most 9 decimals)")
            }
            guard time >= previous else {
                throw ScenarioError(line: number, message: "time \(timeWord) goes backwards (the previous line is at \(formatSeconds(previous)))")
            }
            previous = time
            guard words.count >= 2 else {
                throw ScenarioError(line: number, message: "missing command after the time")
            }
            let command = try parseCommand(words[1], Array(words.dropFirst(2)), line: number)
            let text = String(rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine[...])
            steps.append(ScenarioStep(line: number, time: time, command: command, text: text))
        }
        return steps
    }

    private static func parseCommand(_ name: String, _ args: [String], line: Int) throws(ScenarioError) -> ScenarioCommand {
        /// Names the nearest word when the unknown one looks like a typo of it, else lists them all.
        func unknown(_ what: String, _ word: String, _ known: [String], expected: String) -> ScenarioError {
            let hint = Suggestions.hint(for: word, in: known)
            return ScenarioError(line: line, message: "unknown \(what) '\(word)'" + (hint.isEmpty ? ": expected \(expected)" : hint))
        }
        func expect(_ count: Int, _ usage: String) throws(ScenarioError) {
            if args.count > count {
                // Name what is too much: "takes a flow and seconds" alone reads as if those were wrong.
                let extra = args[count...].joined(separator: " ")
                let accepted = ([name] + args[..<count]).joined(separator: " ")
                throw ScenarioError(line: line, message: "unexpected '\(extra)' after '\(accepted)'; '\(name)' takes \(usage)")
            }
            guard args.count == count else { throw ScenarioError(line: line, message: "'\(name)' takes \(usage)") }
        }
        /// The flow and seconds of `start` and `protect`, read as demo and watch read theirs.
        func policy(_ flowWord: String, _ secondsWord: String) throws(ScenarioError) -> (CallMonitorFlow, Int32) {
            do throws(PolicyWordError) {
                return (try PolicyWords.flow(flowWord), try PolicyWords.seconds(secondsWord))
            } catch {
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
            try expect(3, "a name, a flow and seconds: protect NAME terminate N | protect NAME acknowledge N")
            let (flow, seconds) = try policy(args[1], args[2])
            return .protect(args[0], flow, seconds: seconds)
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
        case "resume": try expect(1, "one call ID"); return .resume(args[0])
        case "end": try expect(1, "one call ID"); return .end(args[0])
        case "background": try expect(0, "no arguments"); return .background
        case "foreground": try expect(0, "no arguments"); return .foreground
        case "tap": try expect(0, "no arguments"); return .tap
        case "wait": try expect(0, "no arguments"); return .wait
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
        case "calls": return .callList(try parseListedCalls(args, allowsEnded: false, line: line))
        case "changes": return .callChanges(try parseListedCalls(args, allowsEnded: true, line: line))
        default:
            throw ScenarioError(line: line, message: "unknown command '\(name)'\(Suggestions.hint(for: name, in: commandNames))")
        }
    }

    /// The verdict words: `bank`, `notbank`, `unknown`.
    static let verdictWords = ["bank", "notbank", "unknown"]

    /// `verdict bank | notbank | unknown | late N | never | twice V V | budget S | off`.
    private static func parseVerdict(_ args: [String], line: Int) throws(ScenarioError) -> ScenarioCommand {
        let usage = "'verdict' takes bank, notbank, unknown, late N, never, twice VERDICT VERDICT, budget SECONDS, off, recorded or answer N VERDICT"
        func word(_ text: String) throws(ScenarioError) -> CallMonitorCallVerdict {
            switch text {
            case "bank": return .bankIsCalling
            case "notbank": return .bankIsNotCalling
            case "unknown": return .unknown
            default:
                let hint = Suggestions.hint(for: text, in: verdictWords)
                throw ScenarioError(line: line, message: "unknown verdict '\(text)'" + (hint.isEmpty ? ": expected bank, notbank or unknown" : hint))
            }
        }
        func seconds(_ text: String) throws(ScenarioError) -> Int64 {
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
    static func parseTime(_ word: String) -> Int64? {
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

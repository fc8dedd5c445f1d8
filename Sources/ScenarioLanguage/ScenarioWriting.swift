// The writing half of the scenario language (issue 39): the words a recording (hnbRecording's
// SessionScript) writes for what the parser reads back, each next to or derived from the table the
// parser reads with, so that the two directions cannot drift apart.

import hnb

/// The scenario language's words for values, as a recording writes them.
package enum ScenarioWriter {
    /// Nanoseconds as seconds with only the decimals needed (`3`, `1.5`, `0.000000001`), exactly,
    /// as the scenario language and the transcript write times; ``ScenarioParser/parseTime(_:)``
    /// reads them back to the same nanosecond.
    package static func seconds(_ nanoseconds: Int64) -> String {
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let whole = magnitude / 1_000_000_000
        var fraction = String(magnitude % 1_000_000_000)
        guard fraction != "0" else { return "\(sign)\(whole)" }
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(sign)\(whole).\(fraction)"
    }

    /// The verdict's word (`bank`, `notbank`, `unknown`): the one table of verdict words, which
    /// the parser reads with (``ScenarioParser/verdictWords``).
    package static func word(_ verdict: CallMonitorCallVerdict) -> String {
        switch verdict {
        case .bankIsCalling: "bank"
        case .bankIsNotCalling: "notbank"
        case .unknown: "unknown"
        }
    }

    /// The verdicts in the order the parser's messages name their words.
    static let verdictsInOrder: [CallMonitorCallVerdict] = [.bankIsCalling, .bankIsNotCalling, .unknown]

    /// `"…"`: a text as one quoted word, with quotes and backslashes escaped, as
    /// ``ScenarioWords/split(_:)`` reads it back (the text holds no line break).
    package static func quoted(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "\\" || character == "\"" { escaped.append("\\") }
            escaped.append(character)
        }
        return "\"\(escaped)\""
    }
}

extension ListedCallState {
    /// The state a `calls` or `changes` word gives `snapshot`.
    package init(_ snapshot: CallSnapshot) {
        if snapshot.hasEnded {
            self = .ended
        } else if snapshot.isOnHold {
            self = .held
        } else if snapshot.countsAsConnected {
            self = .connected
        } else {
            self = snapshot.isOutgoing ? .dialing : .ringing
        }
    }
}

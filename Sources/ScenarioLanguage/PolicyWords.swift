// The policy as the tool's users write it: a flow word and a number of seconds, read from a
// scenario line (`start terminate 5`, `protect NAME acknowledge 3`) or from options (`--flow`,
// `--seconds` of demo and watch) and said back in words, each in one place: part of the scenario
// language (the tool applies the policy to a monitor, Sources/callmonitor/Policy.swift).

import hnb

/// A flow word or a number of seconds that was refused; `message` is what the user reads.
package struct PolicyWordError: Error, Equatable {
    package let message: String

    package init(message: String) { self.message = message }
}

package enum PolicyWords {
    /// The flow words, in the order the messages name them.
    package static let flowNames = ["terminate", "acknowledge"]

    /// What `--seconds` of demo and watch accepts: an hour is already longer than any dialog
    /// should stand; a scenario takes any whole number (the library clamps it).
    package static let optionSeconds: ClosedRange<Int32> = 0...3600

    /// The flow a scenario names: `unknown flow 'W': expected terminate or acknowledge`, or the
    /// nearest word when `W` looks like a typo of one (`did you mean acknowledge?`).
    package static func flow(_ word: String) throws -> CallMonitorFlow {
        if let flow = exactFlow(word) { return flow }
        let hint = Suggestions.hint(for: word, in: flowNames)
        throw PolicyWordError(message: "unknown flow '\(word)'" + (hint.isEmpty ? ": expected terminate or acknowledge" : hint))
    }

    /// The flow an option names: `--flow must be terminate or acknowledge`, with the nearest word
    /// when the value looks like a typo of one.
    package static func flow(_ word: String, option: String) throws -> CallMonitorFlow {
        if let flow = exactFlow(word) { return flow }
        throw PolicyWordError(message: "\(option) must be terminate or acknowledge\(Suggestions.hint(for: word, in: flowNames))")
    }

    /// A scenario's seconds: any whole number, with an optional sign and leading zeros; values
    /// beyond `Int32` are clamped to it, as the API's parameter is `Int32` and the policy clamps
    /// further anyway.
    package static func seconds(_ word: String) throws -> Int32 {
        guard let seconds = wholeSeconds(word) else {
            throw PolicyWordError(message: "bad number '\(word)': expected a whole number of seconds")
        }
        return seconds
    }

    /// An option's seconds: a whole number within `range`, else
    /// `--seconds must be a whole number from 0 to 3600`.
    package static func seconds(_ word: String, option: String, in range: ClosedRange<Int32> = optionSeconds) throws -> Int32 {
        guard let seconds = wholeSeconds(word), range.contains(seconds) else {
            throw PolicyWordError(message: "\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return seconds
    }

    /// The policy in words, with the clamps the monitor applies (a terminate countdown is at
    /// least one second, an acknowledge delay at least none): what demo and watch announce.
    package static func describe(_ flow: CallMonitorFlow, seconds: Int32) -> String {
        switch flow {
        case .terminate: "terminate flow, \(max(1, seconds))-second countdown"
        case .acknowledge: "acknowledge flow, button after \(max(0, seconds)) s"
        }
    }

    private static func exactFlow(_ word: String) -> CallMonitorFlow? {
        switch word {
        case "terminate": .terminate
        case "acknowledge": .acknowledge
        default: nil
        }
    }

    /// Digits only (ASCII: `isNumber` alone would take `٣` or `½`), after an optional sign.
    private static func wholeSeconds(_ word: String) -> Int32? {
        var digits = Substring(word)
        var negative = false
        if digits.first == "-" || digits.first == "+" {
            negative = digits.first == "-"
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let trimmed = digits.drop(while: { $0 == "0" })
        guard trimmed.count <= 12, let magnitude = Int64(trimmed.isEmpty ? "0" : trimmed) else {
            return negative ? .min : .max
        }
        return Int32(clamping: negative ? -magnitude : magnitude)
    }
}

extension PolicyWordError {
    /// What a catch narrows an error of another type to (`Error.narrowed(or:)`): a refused word.
    package static var unexpected: Self { Self(message: "the word could not be read") }
}

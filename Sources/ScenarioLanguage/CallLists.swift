// The two scenario commands that deliver several calls at once, as a real call source does:
// `calls ID:STATE …`, a complete list (CallKit's, at start, on every change and on return to the
// foreground; rule 15), and `changes ID:STATE …`, one change batch naming several calls. A
// recording writes them (Sources/hnbRecording), so they say what the device said: a state is
// set as given, without the transition checks of `incoming`, `connect` and the rest.

import hnb

/// The state of one call in a `calls` or `changes` line.
package enum ListedCallState: String, CaseIterable, Equatable {
    case ringing, dialing, connected, held, ended
}

/// One `ID:STATE` word of a `calls` or `changes` line.
package struct ListedCall: Equatable {
    package let id: String
    package let state: ListedCallState

    /// The snapshot this word stands for. `connected` and `held` do not say the direction, which
    /// nothing in the policy reads; the call source keeps the one it knew.
    package func snapshot(outgoing: Bool) -> CallSnapshot {
        switch state {
        case .ringing: CallSnapshot(id: CallID(id))
        case .dialing: CallSnapshot(id: CallID(id), isOutgoing: true)
        case .connected: CallSnapshot(id: CallID(id), isOutgoing: outgoing, hasConnected: true)
        case .held: CallSnapshot(id: CallID(id), isOutgoing: outgoing, hasConnected: true, isOnHold: true)
        case .ended: CallSnapshot(id: CallID(id), isOutgoing: outgoing, hasEnded: true)
        }
    }
}

extension ScenarioParser {
    /// `ID:STATE` words; a complete list (`allowsEnded` false) holds live calls only, and `calls`
    /// alone is the empty list. Each ID at most once: one delivery says one thing of a call.
    package static func parseListedCalls(_ args: [String], allowsEnded: Bool, line: Int) throws -> [ListedCall] {
        let name = allowsEnded ? "changes" : "calls"
        let states = ListedCallState.allCases.filter { allowsEnded || $0 != .ended }.map(\.rawValue)
        let usage = "'\(name)' takes ID:STATE words (STATE: \(states.joined(separator: ", ")))"
        if allowsEnded && args.isEmpty { throw ScenarioError(line: line, message: "\(usage); at least one") }
        var listed: [ListedCall] = []
        for word in args {
            guard let colon = word.lastIndex(of: ":"), colon != word.startIndex else {
                throw ScenarioError(line: line, message: "bad call '\(word)': \(usage)")
            }
            let id = String(word[..<colon])
            let stateWord = String(word[word.index(after: colon)...])
            guard let state = ListedCallState(rawValue: stateWord), states.contains(stateWord) else {
                let hint = Suggestions.hint(for: stateWord, in: states)
                throw ScenarioError(line: line, message: "unknown call state '\(stateWord)'" + (hint.isEmpty ? ": expected \(states.joined(separator: ", "))" : hint))
            }
            guard !listed.contains(where: { $0.id == id }) else {
                throw ScenarioError(line: line, message: "call \(id) appears twice in one '\(name)' line")
            }
            listed.append(ListedCall(id: id, state: state))
        }
        return listed
    }
}

// Which waiting commands can stand in for others (rules 11, 12, 18, 19 and 21): the mailbox that
// carries commands from other threads asks here, so a storm of calls faster than the main thread
// can apply them stays bounded without the monitor ending up less strict. Pure, over values.

extension MonitorEngine {
    /// The one command that has the effect of `first` followed by `second`, if there is one: the
    /// same setter again, the same start or stop twice, the same tap twice, a capture report after
    /// one from the same run of the source.
    static func coalesce(_ first: Input, _ second: Input) -> Input? {
        if let slot = first.settingSlot, slot == second.settingSlot { return second }
        switch (first, second) {
        case (.stop, .stop), (.observe, .observe):
            return second
        case (.start(let a, _), .start(let b, _)) where a == b:
            // The policy in force again changes nothing (rule 11).
            return second
        case (.userAction(let a), .userAction(let b)) where a == b:
            // A presentation's action acts at most once (rule 12).
            return second
        case (.screenCapture(_, let a), .screenCapture(_, let b)) where a == b:
            // Only the latest capture state of one run of the source matters.
            return second
        default:
            return nil
        }
    }

    /// Folds a long queue of commands into the few that leave the monitor in the same state, or
    /// a stricter one.
    ///
    /// User actions stay where they are, each token once (a later tap of the same presentation
    /// acts no differently: no time passes between queued commands); protections and exemptions
    /// stay where they are (rules 18 and 19). Between two of these, a segment keeps its last start
    /// or stop, and also its first and its strictest terminate start (rule 21): with a session
    /// live, a terminate start begins a countdown whose deadline the session keeps, and exits at
    /// once when the session's deadline has passed, so dropping one could leave a call that was
    /// due to end the app unguarded. The settings keep their last value in each stretch between
    /// the commands kept, so a setting applies to the same start as it did (call detection
    /// switched off after a start still applies only to the next one). What is left out are
    /// states no time passes in; every difference leans towards enforcing: a restart to the
    /// policy already in force becomes no change, so a fold never resets a countdown.
    static func fold(_ inputs: [Input]) -> [Input] {
        var result: [Input] = []
        var seenTokens: Set<UInt64> = []
        var segment = Segment()
        for input in inputs {
            switch input {
            case .userAction(let token):
                guard seenTokens.insert(token).inserted else { continue }
                segment.flush(into: &result)
                result.append(input)
            case .beginProtection, .endProtection, .exempt, .removeExemption, .applyPolicy, .policyRejected:
                // Rules 18 and 19: never lost, never moved past anything.
                segment.flush(into: &result)
                result.append(input)
            default:
                segment.add(input)
            }
        }
        segment.flush(into: &result)
        return result
    }

    /// The commands between two that keep their place, folded.
    private struct Segment {
        /// A start, observe or stop kept, and the settings made after it until the next one kept.
        private struct Kept {
            let input: Input
            var settings = Segment.noSettings
        }

        /// Each setting's last value before the first command kept, at its slot's index (a fixed
        /// array, not a dictionary: the fold runs under the mailbox lock, in storms).
        private var leading = Self.noSettings
        /// At most three, in order: the first terminate start, the strictest one, the last
        /// start or stop (one command may be two of them).
        private var kept: [Kept] = []
        /// The first terminate start's and the strictest one's positions in `kept`.
        private var firstTerminate: Int?
        private var strictestTerminate: Int?
        private var others: [Input] = []
        private static let noSettings = [Input?](repeating: nil, count: SettingSlot.allCases.count)

        mutating func add(_ input: Input) {
            if let slot = input.settingSlot {
                if kept.isEmpty { leading[slot.rawValue] = input } else { kept[kept.count - 1].settings[slot.rawValue] = input }
                return
            }
            switch input {
            case .start, .stop, .observe:
                keep(input)
            default:
                // Call and app-state reports and wake-ups never wait in the queue. A capture
                // report does wait here; moving it ahead of a start or stop in the same segment is
                // harmless, because it carries the run of the source that sent it, which began
                // before this batch. A verifier's answer waits here too, and moving it is
                // harmless as well: it carries the number of its question, which the engine
                // checks, so moved ahead of a start or stop it can at most be recorded by the
                // event it was asked about, ending there, instead of being ignored; and no
                // verdict changes a timing or an ending (rule 23).
                others.append(input)
            }
        }

        /// Keeps `input` as the last start or stop, and drops the one before it unless it is the
        /// first or the strictest terminate start.
        private mutating func keep(_ input: Input) {
            if let last = kept.indices.last, last != firstTerminate, last != strictestTerminate {
                drop(last)
            }
            kept.append(Kept(input: input))
            guard case .start(let policy, _) = input, policy.flow == .terminate else { return }
            let index = kept.count - 1
            if firstTerminate == nil { firstTerminate = index }
            if let strictest = strictestTerminate, case .start(let known, _) = kept[strictest].input, known.seconds <= policy.seconds {
                return
            }
            let previous = strictestTerminate
            strictestTerminate = index
            // A strictest one that is neither the first nor the last any more has done its part.
            if let previous, previous != firstTerminate { drop(previous) }
        }

        /// Removes the kept command at `index`; the settings made after it join those made before
        /// it, the later value of a setting winning.
        private mutating func drop(_ index: Int) {
            let after = kept.remove(at: index).settings
            for slot in after.indices where after[slot] != nil {
                if index == 0 { leading[slot] = after[slot] } else { kept[index - 1].settings[slot] = after[slot] }
            }
            if let first = firstTerminate, first > index { firstTerminate = first - 1 }
            if let strictest = strictestTerminate, strictest > index { strictestTerminate = strictest - 1 }
        }

        mutating func flush(into result: inout [Input]) {
            defer { self = Segment() }
            result += others
            result += leading.lazy.compactMap { $0 }
            for entry in kept {
                result.append(entry.input)
                result += entry.settings.lazy.compactMap { $0 }
            }
        }
    }
}

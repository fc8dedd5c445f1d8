// The signed remote policy as the engine holds it (issue 28, rules 26 to 29): the accepted
// document, the device it targets, the highest version and the wall clock's high-water mark,
// and the pure decisions over them: whether a document weakens the code's policy, which rule is
// in force at an instant, and how a remote setting combines with the code's. The steps that use
// it are in MonitorEngine+RemotePolicy.swift; nothing here reads a clock or a file.

extension MonitorEngine {
    /// How far back the wall clock may read behind the highest it was seen at before a relaxing
    /// document counts as expired (rule 28): a clock set back by a scammer must not revive a
    /// kill switch, and five minutes absorb a network time correction.
    static let clockToleranceSeconds: Double = 300

    /// What a rule of the document changes, as the guards apply it.
    struct RemoteOverlay: Equatable, Sendable {
        let version: Int64
        let settings: RemotePolicySettings
        /// The app allowed relaxation (`setPolicyKeys(…allowsRelaxation: true)`): a remote
        /// setting replaces the code's; otherwise it can only add to it.
        let allowsRelaxation: Bool

        /// The policy of one part of the guard: the code's, as the remote setting changes it.
        func combine(_ code: MonitorPolicy?, _ setting: RemoteSetting) -> MonitorPolicy? {
            switch setting {
            case .code: code
            case .off: allowsRelaxation ? nil : code
            case .enforce(let remote): allowsRelaxation ? remote : MonitorPolicy.strictest(code, remote)
            }
        }

        /// The coaching policy of a protection whose screen the document names (rule 35): each
        /// level the document sets replaces the code's response when relaxation is allowed, and
        /// otherwise is the stricter of both (off < evaluate < acknowledge N, a longer N
        /// stricter), so without the app's permission a document can only add to the code's.
        func combine(_ code: CallMonitor.CoachingPolicy, _ remote: RemoteCoaching) -> CallMonitor.CoachingPolicy {
            func level(_ code: CallMonitor.CoachingResponse, _ remote: CallMonitor.CoachingResponse?) -> CallMonitor.CoachingResponse {
                guard let remote else { return code }
                return allowsRelaxation ? remote : CallMonitor.CoachingResponse.stricter(code, remote)
            }
            return CallMonitor.CoachingPolicy(medium: level(code.medium, remote.medium), high: level(code.high, remote.high))
        }

        /// Call detection, the code's as changed (rule 22): off only when relaxation is allowed.
        func detection(code: Bool) -> Bool {
            guard let remote = settings.detection else { return code }
            return allowsRelaxation ? remote : (code || remote)
        }
    }

    /// What the persisted record of a previous launch holds, read and verified by the policy
    /// product before it is handed over (rule 27).
    package struct RestoredPolicy: Sendable {
        /// The accepted document, `nil` when none was kept or it no longer verifies.
        package var document: PolicyDocument?
        /// Its compact text, written back as it was.
        package var text: [UInt8]?
        package var highestVersion: Int64
        /// Seconds since 1970.
        package var clockMark: Double

        package init(document: PolicyDocument?, text: [UInt8]?, highestVersion: Int64, clockMark: Double) {
            self.document = document
            self.text = text
            self.highestVersion = highestVersion
            self.clockMark = clockMark
        }
    }

    /// What is written to the policy file (rule 27): the accepted document, the highest
    /// version accepted and the clock's high-water mark.
    package struct PolicyRecord: Sendable {
        package var text: [UInt8]?
        package var highestVersion: Int64
        /// Seconds since 1970; `-infinity` when no clock was read yet.
        package var clockMark: Double

        package init(text: [UInt8]?, highestVersion: Int64, clockMark: Double) {
            self.text = text
            self.highestVersion = highestVersion
            self.clockMark = clockMark
        }
    }

    /// One document event, for the app's result, the streams and the simulator's transcript.
    package struct PolicyEvent: Sendable {
        package enum Result: String, Sendable {
            case applied, unchanged, rejected, expired
        }

        package let result: Result
        /// The document's `ver` (`nil` for a refusal before the version was read).
        package let version: Int64?
        package let reason: PolicyRejection?
        /// What a refusal points at (the claim, member or path and what was expected), for
        /// `applyPolicy`'s answer and the simulator; `nil` for an event that is no refusal.
        package let detail: String?

        package init(_ result: Result, version: Int64?, reason: PolicyRejection? = nil, detail: String? = nil) {
            self.result = result
            self.version = version
            self.reason = reason
            self.detail = detail
        }

        /// A refusal with what it points at.
        package init(rejected refusal: PolicyRefusal, version: Int64?) {
            self.init(.rejected, version: version, reason: refusal.reason, detail: refusal.detail)
        }
    }

    /// The remote policy's state (rules 26 to 29). Every field is read-only outside this type
    /// and changed by the small methods below, each named for the step it records, so the
    /// invariants written beside the fields (the clock's mark and the highest version only go
    /// up, a new document starts unreported) hold whichever step calls them.
    struct RemotePolicy: Sendable {
        /// `setPolicyKeys` was called: documents are accepted from now on. Never unset.
        private(set) var keysSet = false
        private(set) var allowsRelaxation = false
        /// The device as the rules' `when` reads it: the library's `os`, `osVersion`,
        /// `appVersion`, and the app's own attributes.
        private(set) var attributes: [String: String] = [:]
        /// The accepted document and its text (kept while it is in force and after it expired:
        /// a higher version replaces it).
        private(set) var document: PolicyDocument?
        /// Whether there is a ``document``, read without copying it (every step asks).
        var hasDocument: Bool { if case .some = document { true } else { false } }
        private(set) var text: [UInt8]?
        /// Whether the accepted document weakens the code's policy anywhere: such a document
        /// counts as expired while the clock reads behind its high-water mark (rule 28).
        private(set) var relaxes = false
        /// Whether its expiry was reported; a document adopted starts unreported.
        private(set) var expiryReported = false
        /// The highest version accepted, here or in a previous launch (rule 27); never goes down.
        private(set) var highestVersion: Int64 = 0
        /// The latest wall clock seen, in seconds since 1970 (never goes back), and the mark
        /// last written.
        private(set) var clockMark: Double = -.infinity
        private(set) var persistedMark: Double = -.infinity
        /// The code's call detection and verifier budget, which the document may change.
        private(set) var codeDetection = true
        private(set) var codeBudget: Int64?
        /// The wall-clock instant the policy wake-up is set for, so a step that changes nothing
        /// schedules nothing.
        private(set) var scheduledSwitch: Double?

        /// The wall clock read `time` (seconds since 1970): the mark follows it forwards, never back.
        mutating func observeClock(_ time: Double) {
            if time > clockMark { clockMark = time }
        }

        /// `setPolicyKeys`: documents are accepted from now on, relaxing ones only if `allowsRelaxation`.
        mutating func setKeys(allowsRelaxation: Bool) {
            keysSet = true
            self.allowsRelaxation = allowsRelaxation
        }

        /// The record of a previous launch: its highest version and clock mark, each kept only
        /// when higher than this one's; the mark is then the one on file.
        mutating func restore(highestVersion restoredVersion: Int64, clockMark restoredMark: Double) {
            highestVersion = max(highestVersion, restoredVersion)
            observeClock(restoredMark)
            persistedMark = clockMark
        }

        /// Accepts `document` (its compact `text`) as the one in force from now on; `relaxes`
        /// says whether it weakens the code's policy. The highest version follows it up (the
        /// callers refuse a lower one first), and its expiry is not reported yet.
        mutating func accept(_ document: PolicyDocument, text: [UInt8]?, relaxes: Bool) {
            highestVersion = max(highestVersion, document.version)
            self.document = document
            self.text = text
            expiryReported = false
            self.relaxes = relaxes
        }

        /// Whether the document kept weakens the code's policy, judged again (keys set again).
        mutating func setRelaxes(_ relaxes: Bool) {
            self.relaxes = relaxes
        }

        /// Forgets the document and its text (one that weakens the code, keys set again without
        /// relaxation); the highest version stays, so it cannot come back.
        mutating func dropDocument() {
            document = nil
            text = nil
        }

        /// The device's attributes changed (rule 26).
        mutating func setAttributes(_ attributes: [String: String]) {
            self.attributes = attributes
        }

        /// The document's expiry was reported, once (rule 28).
        mutating func noteExpiryReported() {
            expiryReported = true
        }

        /// The record was written with the clock's mark as it is now (rule 27).
        mutating func markPersisted() {
            persistedMark = clockMark
        }

        /// The policy wake-up is set for `instant` (seconds since 1970), or with `nil` cancelled.
        mutating func scheduleSwitch(at instant: Double?) {
            scheduledSwitch = instant
        }

        /// The policy wake-up fired: none is set any more.
        mutating func switchWakeFired() {
            scheduledSwitch = nil
        }

        /// The code's call detection switch (rule 22), which the document may change.
        mutating func setCodeDetection(_ enabled: Bool) {
            codeDetection = enabled
        }

        /// The code's verifier budget (rule 23), which the document may change.
        mutating func setCodeBudget(_ budget: Int64) {
            codeBudget = budget
        }

        var record: PolicyRecord { PolicyRecord(text: text, highestVersion: highestVersion, clockMark: clockMark) }

        /// Where the document stands at wall-clock `time` (seconds since 1970).
        enum Standing {
            case none
            case notYet(until: Double)
            case inForce(until: Double)
            /// Past `exp`, or (a relaxing document) the clock reads too far behind its mark.
            case expired(byClock: Bool)
        }

        func standing(at time: Double) -> Standing {
            guard let document else { return .none }
            let expires = Double(document.expires)
            if time >= expires { return .expired(byClock: false) }
            if relaxes && time < clockMark - MonitorEngine.clockToleranceSeconds { return .expired(byClock: true) }
            if let nbf = document.notBefore, time < Double(nbf) { return .notYet(until: Double(nbf)) }
            return .inForce(until: expires)
        }

        /// The overlay at `time`: the first rule matching the device, while the document is in
        /// force.
        func overlay(at time: Double) -> RemoteOverlay? {
            guard case .inForce = standing(at: time), let document, let (_, rule) = document.rule(for: attributes) else { return nil }
            return RemoteOverlay(version: document.version, settings: rule.policy, allowsRelaxation: allowsRelaxation)
        }
    }
}

extension CallMonitor.CoachingResponse {
    /// Rule 35's order of coaching responses: `off` < `evaluate` (asked and reported, where `off`
    /// does not ask) < `acknowledge N`, a longer N stricter (the seconds as the coaching policy
    /// clamps them: below 0 counts as 0).
    func isAtLeastAsStrict(as other: Self) -> Bool {
        switch (self, other) {
        case (.acknowledge(let mine), .acknowledge(let theirs)): max(0, mine) >= max(0, theirs)
        case (.acknowledge, _): true
        case (.evaluate, .off), (.evaluate, .evaluate), (.off, .off): true
        case (.evaluate, .acknowledge), (.off, _): false
        }
    }

    /// The stricter of two responses by ``isAtLeastAsStrict(as:)``; `a` when they are as strict.
    static func stricter(_ a: Self, _ b: Self) -> Self { a.isAtLeastAsStrict(as: b) ? a : b }

    /// How a refusal's detail names a response: `"off"`, `"evaluate"`, `acknowledge 3 s`.
    var refusalWord: String {
        switch self {
        case .off: "\"off\""
        case .evaluate: "\"evaluate\""
        case .acknowledge(let seconds): "acknowledge \(max(0, seconds)) s"
        }
    }
}

extension MonitorEngine.Guards {
    /// Whether any rule of `document` would make the policy weaker than the code's now, by rule
    /// 18's order: an app-wide "observe", a screen or the capture escalation "off", detection
    /// off, or a policy laxer than the code's for the same part (a longer terminate countdown, a
    /// shorter acknowledge delay, acknowledge for terminate), or a coaching response laxer than
    /// the code's coaching policy for its level (rule 35). A verifier budget weakens nothing:
    /// the verdict never changes the policy (rule 23).
    func weakens(_ document: PolicyDocument, codeDetection: Bool, codeCoaching: CallMonitor.CoachingPolicy) -> Bool {
        weakening(document, codeDetection: codeDetection, codeCoaching: codeCoaching) != nil
    }

    /// The first setting of `document` that ``weakens(_:codeDetection:codeCoaching:)`` finds, as
    /// a refusal's detail names it (`rules[0].policy.appWide: "observe" weakens the code's
    /// policy`), or `nil` when none weakens the code's policy.
    func weakening(_ document: PolicyDocument, codeDetection: Bool, codeCoaching: CallMonitor.CoachingPolicy) -> String? {
        func weaker(_ setting: RemoteSetting, than codes: [MonitorPolicy], off: String, path: String) -> String? {
            switch setting {
            case .code: return nil
            case .off: return "\(path): \"\(off)\" weakens the code's policy"
            case .enforce(let remote):
                guard let code = codes.first(where: { !remote.isAtLeastAsStrict(as: $0) }) else { return nil }
                return "\(path): \(remote.flow) \(remote.seconds) s is weaker than the code's \(code.flow) \(code.seconds) s"
            }
        }
        for (index, rule) in document.rules.enumerated() {
            let policy = rule.policy
            let path = "rules[\(index)].policy"
            if let found = weaker(policy.appWide, than: appWide?.policy.map { [$0] } ?? [], off: "observe", path: "\(path).appWide") { return found }
            for name in policy.screens.keys.sorted() {
                let open = protections.filter { $0.name == name }.map(\.policy)
                if let found = weaker(policy.screens[name] ?? .code, than: open, off: "off", path: "\(path).screens.\(name)") { return found }
            }
            if let found = weaker(policy.screenCaptured, than: escalation.map { [$0] } ?? [], off: "off", path: "\(path).screenCaptured") { return found }
            if policy.detection == false && codeDetection { return "\(path).detection: false turns off the code's call detection" }
            // Rule 35: the code's coaching policy is the monitor's, whether or not a protection
            // of that name is open, so every named screen's levels are compared with it.
            for name in policy.coaching.keys.sorted() {
                guard let remote = policy.coaching[name] else { continue }
                for (level, set, code) in [("medium", remote.medium, codeCoaching.medium), ("high", remote.high, codeCoaching.high)] {
                    guard let set, !set.isAtLeastAsStrict(as: code) else { continue }
                    return "\(path).coaching.screens.\(name).\(level): \(set.refusalWord) is weaker than the code's \(code.refusalWord)"
                }
            }
            // "observe" app-wide with no code policy, "off" for a screen never opened: still
            // a relaxation of whatever the code sets later.
        }
        return nil
    }
}

extension PolicyRefusal {
    // The engine's refusals, worded here beside the verifier's (the policy product's PolicyDocument+Verify.swift), so that
    // applyPolicy's answer, the tool and the simulator read one text for each.

    /// `ver` below the highest accepted.
    static func rollback(version: Int64, highest: Int64) -> PolicyRefusal {
        PolicyRefusal(.rollback, "ver: expected \(highest) or higher (the highest version accepted), got \(version)")
    }

    /// Past `exp` at the device's wall clock (seconds since 1970).
    static func expired(expires: Int64, clock: Double) -> PolicyRefusal {
        PolicyRefusal(.expired, "exp: expected after the device's clock (\(Int64(clock.rounded(.down)))), got \(expires)")
    }

    /// A relaxing document while the clock reads too far behind its high-water mark (rule 28).
    static func expiredByClock(clock: Double, mark: Double) -> PolicyRefusal {
        PolicyRefusal(.expired, "exp: the device's clock (\(Int64(clock.rounded(.down)))) reads more than 5 minutes behind the latest it has read "
            + "(\(Int64(mark.rounded(.down)))), and the document weakens the code's policy")
    }

    /// A weakening the app did not allow; `weakening` names the setting.
    static func relaxation(_ weakening: String) -> PolicyRefusal {
        PolicyRefusal(.relaxationNotAllowed, "\(weakening), and the app does not allow relaxation (setPolicyKeys allowsRelaxation)")
    }
}

#if DEBUG
// Equality that only the tests use, left out of release builds (CONTRIBUTING, "Binary size").
extension MonitorEngine.RestoredPolicy: Equatable {}
extension MonitorEngine.PolicyRecord: Equatable {}
extension MonitorEngine.PolicyEvent: Equatable {}
extension MonitorEngine.RemotePolicy: Equatable {}
extension MonitorEngine.RemotePolicy.Standing: Equatable {}
#endif

// The signed remote policy's steps (issue 28, rules 26 to 29): a verified document applied at
// once as a change of the policies under rule 18, stricter only unless the app allowed
// relaxation, switching at its nbf and exp by a wake-up of its own, refused when older than the
// highest accepted, and held to the wall clock's high-water mark. The document reaches the engine
// already verified (by the policy product, Sources/hnbPolicy; issue 39); the state is in RemotePolicy.swift.

extension MonitorEngine {
    /// Seconds between 1970 and the reference date that `wallClock` counts from.
    private static let unixOffset: Double = 978_307_200

    /// The wall clock of this step, in seconds since 1970 (the document's NumericDate).
    var wallClockSince1970: Double { wallClock + Self.unixOffset }

    /// Every step: the high-water mark of the wall clock follows it forwards, never back.
    mutating func observeWallClock() {
        remote.observeClock(wallClockSince1970)
    }

    /// Rule 27: the keys are set (the facade keeps them and verifies with them); the record of a
    /// previous launch, already verified with these keys, is applied before any call is seen.
    mutating func setPolicyKeys(_ keys: PolicyKeys, now: Int64, into actions: inout [Action]) {
        remote.setKeys(allowsRelaxation: keys.allowsRelaxation)
        if let restored = keys.restored {
            remote.restore(highestVersion: restored.highestVersion, clockMark: restored.clockMark)
            if let document = restored.document, document.version > (remote.document?.version ?? 0) {
                remote.accept(document, text: restored.text, relaxes: guards.weakens(document, codeDetection: remote.codeDetection, codeCoaching: coaching.policy))
            }
        }
        // Keys set again without relaxation: a document that weakens the code goes (rule 26).
        if let document = remote.document {
            let weakening = guards.weakening(document, codeDetection: remote.codeDetection, codeCoaching: coaching.policy)
            remote.setRelaxes(weakening != nil)
            if let weakening, !remote.allowsRelaxation {
                actions.append(.policy(PolicyEvent(rejected: .relaxation(weakening), version: document.version)))
                remote.dropDocument()
                actions.append(.persistPolicy(remote.record))
            }
        }
        refreshRemotePolicy(now: now, into: &actions)
    }

    /// The device's attributes changed: the rule in force is chosen again (rule 26).
    mutating func setPolicyAttributes(_ attributes: [String: String], now: Int64, into actions: inout [Action]) {
        remote.setAttributes(attributes)
        refreshRemotePolicy(now: now, into: &actions)
    }

    /// Rules 26 to 28: a verified document. Older than the highest accepted: `rollback`; the
    /// same version: `unchanged`; past its `exp` (or, weakening the code, with the clock behind
    /// its mark): `expired`; weakening the code without the app's permission:
    /// `relaxationNotAllowed`. Otherwise it is accepted, kept, written down and applied at once.
    mutating func applyPolicy(_ document: PolicyDocument, text: [UInt8], now: Int64, into actions: inout [Action]) {
        guard remote.keysSet else {
            actions.append(.policy(PolicyEvent(rejected: PolicyRefusal(.noKeys, PolicyRefusal.noKeysDetail), version: document.version)))
            return
        }
        if document.version < remote.highestVersion {
            actions.append(.policy(PolicyEvent(rejected: .rollback(version: document.version, highest: remote.highestVersion), version: document.version)))
            return
        }
        if document.version == remote.highestVersion {
            actions.append(.policy(PolicyEvent(.unchanged, version: document.version)))
            return
        }
        let weakening = guards.weakening(document, codeDetection: remote.codeDetection, codeCoaching: coaching.policy)
        let weakens = weakening != nil
        let time = wallClockSince1970
        if time >= Double(document.expires) {
            actions.append(.policy(PolicyEvent(rejected: .expired(expires: document.expires, clock: time), version: document.version)))
            return
        }
        if weakens && time < remote.clockMark - Self.clockToleranceSeconds {
            actions.append(.policy(PolicyEvent(rejected: .expiredByClock(clock: time, mark: remote.clockMark), version: document.version)))
            return
        }
        if let weakening, !remote.allowsRelaxation {
            actions.append(.policy(PolicyEvent(rejected: .relaxation(weakening), version: document.version)))
            return
        }
        remote.accept(document, text: text, relaxes: weakens)
        actions.append(.policy(PolicyEvent(.applied, version: document.version)))
        remote.markPersisted()
        actions.append(.persistPolicy(remote.record))
        refreshRemotePolicy(now: now, into: &actions)
    }

    /// A refusal the facade decided (the signature, the issuer, the form): reported like the
    /// engine's own, nothing changed.
    func policyRejected(_ refusal: PolicyRefusal, into actions: inout [Action]) {
        actions.append(.policy(PolicyEvent(rejected: refusal, version: nil)))
    }

    /// Rules 26 and 28: the rule in force now, by the document's window, the clock's mark and
    /// the device's attributes. A different one is a change of the policies under rule 18 (the
    /// event on screen ends `policyChanged`, one under the new policy begins at once, rule 21
    /// keeps a countdown from growing, rule 4 decides acknowledgements); the document's call
    /// detection and verifier budget follow. Then the wake-up for the next switch.
    mutating func refreshRemotePolicy(now: Int64, into actions: inout [Action]) {
        guard remote.keysSet || remote.hasDocument || guards.hasOverlay else { return }
        let time = wallClockSince1970
        let standing = remote.standing(at: time)
        if case .expired = standing, !remote.expiryReported, let document = remote.document {
            remote.noteExpiryReported()
            actions.append(.policy(PolicyEvent(.expired, version: document.version)))
        }
        let overlay = remote.overlay(at: time)
        if overlay != guards.overlay {
            let changed = guards.setOverlay(overlay)
            if isMonitoring { policyMayHaveChanged(inForceChanged: changed, now: now, into: &actions) }
        }
        applyRemoteDetection(now: now, into: &actions)
        applyRemoteBudget()
        // The mark is written down as it moves on, so a restart does not forget it (rule 28).
        if remote.clockMark - remote.persistedMark >= Self.clockToleranceSeconds, remote.text != nil || remote.highestVersion > 0 {
            remote.markPersisted()
            actions.append(.persistPolicy(remote.record))
        }
        let next: Double? = switch standing {
        case .notYet(let until), .inForce(let until): until
        case .expired(byClock: true): remote.clockMark - Self.clockToleranceSeconds
        case .none, .expired(byClock: false): nil
        }
        guard next != remote.scheduledSwitch else { return }
        remote.scheduleSwitch(at: next)
        if let next {
            actions.append(.schedulePolicyWake(at: Self.deadline(now, plusNanoseconds: Self.policyWakeDelay(from: time, to: next))))
        } else {
            actions.append(.cancelPolicyWake)
        }
    }

    /// The monotonic delay from the wall-clock instant `time` to `next` (seconds since 1970):
    /// exact to the microsecond, rounded up (issue 37: whole seconds made a document applied at
    /// 0.5 s switch at exp + 0.5 s). The wall clock is a `Double` good to a fraction of a
    /// microsecond, so a wake-up a hair early only reschedules, at least a microsecond on, and
    /// never spins. Capped at 10^18 ns (about 31 years, within `Int64`): a later switch is only
    /// woken for early, which reschedules.
    static func policyWakeDelay(from time: Double, to next: Double) -> Int64 {
        let microseconds = max(1, ((next - time) * 1e6).rounded(.up))
        return microseconds >= 1e15 ? 1_000_000_000_000_000_000 : Int64(microseconds) * 1000
    }

    /// The policy wake-up fired: the switch it was for, or a reschedule when the wall clock
    /// moved in between.
    mutating func policyWake(now: Int64, into actions: inout [Action]) {
        remote.switchWakeFired()
        refreshRemotePolicy(now: now, into: &actions)
    }

    /// Rule 22 as the document changes it: the code's switch, or the document's.
    mutating func setCodeDetection(_ enabled: Bool, now: Int64, into actions: inout [Action]) {
        remote.setCodeDetection(enabled)
        applyRemoteDetection(now: now, into: &actions)
    }

    private mutating func applyRemoteDetection(now: Int64, into actions: inout [Action]) {
        let effective = guards.overlay?.detection(code: remote.codeDetection) ?? remote.codeDetection
        setCallDetection(effective, now: now, into: &actions)
    }

    /// Rule 23's budget as the document changes it (from the next question).
    mutating func setCodeBudget(_ budget: Int64) {
        remote.setCodeBudget(budget)
        applyRemoteBudget()
    }

    private mutating func applyRemoteBudget() {
        if let seconds = guards.overlay?.settings.verifierBudget {
            verdicts.setBudget(Int64((seconds * 1e9).rounded()))
        } else {
            verdicts.setBudget(remote.codeBudget ?? MonitorEngine.defaultVerdictBudget)
        }
    }

    /// Where the policy of an event that begins now comes from.
    /// Rule 35 too: a policy in force that a coaching answer decides, read through a document's
    /// `coaching` member, is that document's.
    var policySource: CallMonitorOutcome.PolicySource {
        if guards.inForceIsRemote, let overlay = guards.overlay { return .document(version: overlay.version) }
        guard let inForce = guards.inForce, guards.strictestWithoutCoaching != inForce,
              let version = guards.coachingVersion(deciding: inForce) else { return .code }
        return .document(version: version)
    }

    /// Where the policy of a coaching warning that begins now comes from (rules 32 and 35).
    var noticeSource: CallMonitorOutcome.PolicySource {
        guard let notice = guards.notice, let version = guards.coachingVersion(deciding: notice.policy) else { return .code }
        return .document(version: version)
    }
}

extension MonitorEngine {
    /// `setPolicyKeys`, as the engine needs it: whether relaxation is allowed and the verified
    /// record of a previous launch. The keys themselves stay with the facade, which verifies.
    package struct PolicyKeys: Sendable {
        package var allowsRelaxation: Bool
        package var restored: RestoredPolicy?

        package init(allowsRelaxation: Bool, restored: RestoredPolicy?) {
            self.allowsRelaxation = allowsRelaxation
            self.restored = restored
        }
    }
}

#if DEBUG
// Equality that only the tests use, left out of release builds (CONTRIBUTING, "Binary size").
extension MonitorEngine.PolicyKeys: Equatable {}
#endif

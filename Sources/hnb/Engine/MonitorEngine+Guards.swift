// What guards the app beyond one app-wide policy (issue 19): protections per screen and the
// strictest-policy rule, the app's own calls exempt, observe-only monitoring, acknowledgements
// that cover only the calls they saw, the session's terminate deadline and the detection switch;
// and (issue 22) a stricter policy while the screen is captured during a call.
// Rules 18 to 22 and 25 of the behaviour contract; pure, like the rest of the engine.

extension MonitorPolicy {
    /// Whether `self` guards at least as hard as `other`: terminate is stricter than acknowledge;
    /// among terminate policies fewer seconds is stricter; among acknowledge policies more seconds
    /// is stricter (rule 18).
    func isAtLeastAsStrict(as other: MonitorPolicy) -> Bool {
        switch (flow, other.flow) {
        case (.terminate, .acknowledge): true
        case (.acknowledge, .terminate): false
        case (.terminate, .terminate): seconds <= other.seconds
        case (.acknowledge, .acknowledge): seconds >= other.seconds
        }
    }

    /// The stricter of two policies; `nil` stands for no policy (observing, or nothing open).
    static func strictest(_ a: MonitorPolicy?, _ b: MonitorPolicy?) -> MonitorPolicy? {
        guard let a else { return b }
        guard let b else { return a }
        return a.isAtLeastAsStrict(as: b) ? a : b
    }
}

extension MonitorEngine {
    /// The app-wide policy: what `startMonitoring…` set.
    enum AppWidePolicy: Equatable, Sendable {
        /// `startMonitoring()`: detection, callback and signals, never a security event (rule 20).
        case observe
        /// `startMonitoring(withTerminateIn:)` or `startMonitoring(withAcknowledgeIn:)`.
        case enforce(MonitorPolicy)

        var policy: MonitorPolicy? {
            if case .enforce(let policy) = self { policy } else { nil }
        }
    }

    /// How many exemptions for calls not yet seen are kept; past it the oldest is dropped, so a
    /// call the app forgot to report stays guarded (rule 19).
    static let pendingExemptionLimit = 16

    /// The state of rules 18 to 22 and 25.
    struct Guards: Equatable, Sendable {
        /// `nil` when the app-wide policy is not set (never started, or stopped).
        var appWide: AppWidePolicy?
        /// The open protections, by id.
        var protections: [UInt64: MonitorPolicy] = [:]
        /// The policy in force: the strictest of the app-wide policy and every open protection;
        /// kept up to date by ``recompute()``.
        private(set) var inForce: MonitorPolicy?
        /// Live calls covered by an acknowledgement, with the strictest policy they were
        /// acknowledged under (rule 4).
        var acknowledged: [CallID: MonitorPolicy] = [:]
        /// Exempt calls that have been seen live, and whether each counts as connected (kept so a
        /// removed exemption can put the call back as it is).
        var exemptLive: [CallID: Bool] = [:]
        /// Exemptions for calls not seen yet, oldest first.
        var exemptPending: [CallID] = []
        /// The earliest deadline of any terminate countdown in the session (rule 21); `nil` until
        /// one ran.
        var terminateDeadline: Int64?
        /// Call detection (rule 22); off, the call source does not run.
        var detectionEnabled = true
        /// The policy that guards while the screen is captured during a call (rule 25). Like a
        /// protection it asks for monitoring while set; `stopMonitoring()` leaves it set, as it
        /// leaves the protections open.
        var escalation: MonitorPolicy?
        /// Whether the escalation's condition holds (the screen is captured and a visible call is
        /// live), as the engine last told it; false between sessions.
        var escalationOpen = false

        /// Whether anything asks for monitoring: the app-wide policy, a protection, or the
        /// escalation (rule 25 as changed by issue 26: set alone, it guards the shared screen; an
        /// escalation that waited for another policy left a bank that set only it unguarded).
        var wantsMonitoring: Bool { appWide != nil || !protections.isEmpty || escalation != nil }

        mutating func recompute() {
            var strictest = appWide?.policy
            for policy in protections.values { strictest = MonitorPolicy.strictest(strictest, policy) }
            // Rule 25: one more policy among the others, so it can only make the one in force
            // stricter, never weaker. Open only while monitoring (the engine's condition says so).
            if escalationOpen, let escalation { strictest = MonitorPolicy.strictest(strictest, escalation) }
            inForce = strictest
        }

        func isExempt(_ id: CallID) -> Bool { exemptLive[id] != nil || exemptPending.contains(id) }

        /// The batch without the exempt calls; learns which exempt calls are live and forgets
        /// the exemptions of calls that ended or are missing from a complete list.
        mutating func visible(_ batch: CallBatch) -> CallBatch {
            guard !exemptLive.isEmpty || !exemptPending.isEmpty else { return batch }
            var kept: [CallSnapshot] = []
            kept.reserveCapacity(batch.calls.count)
            for snapshot in batch.calls {
                guard isExempt(snapshot.id) else {
                    kept.append(snapshot)
                    continue
                }
                exemptPending.removeAll { $0 == snapshot.id }
                exemptLive[snapshot.id] = snapshot.hasEnded ? nil : snapshot.countsAsConnected
            }
            if batch.isComplete && !exemptLive.isEmpty {
                let listed = Set(batch.calls.lazy.filter { !$0.hasEnded }.map(\.id))
                exemptLive = exemptLive.filter { listed.contains($0.key) }
            }
            return CallBatch(calls: kept, isComplete: batch.isComplete)
        }

        mutating func addPending(_ id: CallID) {
            guard !exemptPending.contains(id) else { return }
            exemptPending.append(id)
            if exemptPending.count > MonitorEngine.pendingExemptionLimit { exemptPending.removeFirst() }
        }

        mutating func acknowledge(_ ids: Dictionary<CallID, Bool>.Keys, under policy: MonitorPolicy) {
            for id in ids { acknowledged[id] = MonitorPolicy.strictest(acknowledged[id], policy) }
        }

        /// Whether every live call was acknowledged under a policy at least as strict as `policy`.
        func acknowledgementCovers(_ calls: [CallID: Bool], under policy: MonitorPolicy) -> Bool {
            // `acknowledged` holds live calls only (`forgetAcknowledgement(of:)`), so the same
            // count means the same calls, and the answer needs no key hashed: this runs on every
            // call change while no event is shown. Debug builds (every test) check the premise.
            assert(acknowledged.keys.allSatisfy { calls[$0] != nil }, "an acknowledgement outlived its call")
            guard !calls.isEmpty, acknowledged.count == calls.count else { return false }
            return acknowledged.values.allSatisfy { $0.isAtLeastAsStrict(as: policy) }
        }

        /// An acknowledgement lasts for the calls it saw: an ended call's is forgotten, so a new
        /// call under a reused identifier is warned about again. Called for every call that
        /// leaves the session, so `acknowledged` never holds a call that is not live.
        mutating func forgetAcknowledgement(of id: CallID) {
            guard !acknowledged.isEmpty else { return }
            acknowledged[id] = nil
        }

        /// Where a terminate countdown under `policy` that begins `now` counts from: its own N
        /// seconds, or fewer when the session's terminate deadline is sooner (rule 21).
        mutating func terminateOrigin(_ policy: MonitorPolicy, now: Int64) -> Int64 {
            let fresh = MonitorEngine.deadline(now, plusSeconds: Int64(policy.seconds))
            guard let earlier = terminateDeadline, earlier < fresh else {
                terminateDeadline = fresh
                return now
            }
            // `earlier < fresh <= now + N s`, so this cannot overflow.
            return earlier - Int64(policy.seconds) * MonitorEngine.second
        }

        mutating func sessionEnded() {
            acknowledged.removeAll()
            terminateDeadline = nil
            // No call is live, so the escalation no longer counts (rule 25).
            escalationOpen = false
            recompute()
        }

        /// Nothing asks for monitoring any more: no policy is in force. The session's state (its
        /// acknowledgements and terminate deadline) stays until the session ends, since a followed
        /// session keeps it (rule 10).
        mutating func monitoringStopped() {
            appWide = nil
            protections.removeAll()
            escalationOpen = false
            recompute()
        }
    }

    // MARK: Rule 18 (protections) and 20 (observe), with rule 11

    /// Sets the app-wide policy. Rule 11: the same one again changes nothing (apps call start
    /// from every didBecomeActive; a reset countdown there would let a caller talk the user past
    /// the policy).
    mutating func setAppWide(
        _ policy: AppWidePolicy, isForeground foreground: Bool, owner: MonitorOwner?, now: Int64, into actions: inout [Action]
    ) {
        if isMonitoring && guards.appWide == policy { return }
        let before = guards.inForce
        guards.appWide = policy
        guards.recompute()
        policySet(from: before, isForeground: foreground, owner: owner, now: now, into: &actions)
    }

    /// `stopMonitoring()`: ends the app-wide policy only; open protections and the escalation go
    /// on guarding.
    mutating func endAppWide(now: Int64, into actions: inout [Action]) {
        let before = guards.inForce
        guards.appWide = nil
        guards.recompute()
        policyRemoved(from: before, now: now, into: &actions)
    }

    mutating func beginProtection(
        _ id: UInt64, _ policy: MonitorPolicy, isForeground foreground: Bool, owner: MonitorOwner?, now: Int64,
        into actions: inout [Action]
    ) {
        guard guards.protections[id] == nil else { return }
        let before = guards.inForce
        guards.protections[id] = policy
        guards.recompute()
        policySet(from: before, isForeground: foreground, owner: owner, now: now, into: &actions)
    }

    mutating func endProtection(_ id: UInt64, now: Int64, into actions: inout [Action]) {
        guard guards.protections.removeValue(forKey: id) != nil else { return }
        let before = guards.inForce
        guards.recompute()
        policyRemoved(from: before, now: now, into: &actions)
    }

    /// After a policy was set (the app-wide one, a protection, the escalation): monitoring starts,
    /// resumes a followed session (rule 10), or it is a change of the policies (rule 18).
    private mutating func policySet(
        from before: MonitorPolicy?, isForeground foreground: Bool, owner: MonitorOwner?, now: Int64, into actions: inout [Action]
    ) {
        switch phase {
        case .off: startMonitoring(isForeground: foreground, owner: owner, into: &actions)
        case .following: resumeMonitoring(isForeground: foreground, now: now, into: &actions)
        case .on: policyMayHaveChanged(from: before, now: now, into: &actions)
        case .exited: break
        }
    }

    /// After a policy was removed while monitoring: a change of the policies (rule 18), or, when
    /// nothing is left, `stopMonitoring()` as before protections existed (rule 10), which follows
    /// a live session to its end.
    private mutating func policyRemoved(from before: MonitorPolicy?, now: Int64, into actions: inout [Action]) {
        if guards.wantsMonitoring {
            policyMayHaveChanged(from: before, now: now, into: &actions)
        } else {
            stop(now: now, ending: .monitoringStopped, into: &actions)
        }
    }

    /// From off to on: the sources start, and `owner` is held while they run; the call source's
    /// first list may begin an event.
    private mutating func startMonitoring(isForeground foreground: Bool, owner: MonitorOwner?, into actions: inout [Action]) {
        phase = .on
        isForeground = foreground
        actions.append(.startSources(callDetection: guards.detectionEnabled, owner: owner))
    }

    // MARK: Rule 25 (stricter while the screen is captured)

    /// Sets, replaces or (with `nil`) removes the escalation. Set, it monitors like a protection:
    /// from off it starts monitoring, and it resumes a followed session (rule 10). Removed with
    /// nothing else set, it is `stopMonitoring()`. While its condition holds a change is a change
    /// of the policies, with rule 18's consequences; otherwise it only waits for it.
    mutating func setScreenCaptureEscalation(
        _ policy: MonitorPolicy?, isForeground foreground: Bool, owner: MonitorOwner?, now: Int64, into actions: inout [Action]
    ) {
        guard guards.escalation != policy else { return }
        let before = guards.inForce
        guards.escalation = policy
        guards.recompute()
        if policy != nil {
            policySet(from: before, isForeground: foreground, owner: owner, now: now, into: &actions)
        } else if isMonitoring {
            policyRemoved(from: before, now: now, into: &actions)
        }
    }

    /// Opens or closes the escalation when its condition (`escalationConditionHolds`) changed:
    /// the capture started or stopped, or a session began. Rule 18 decides what follows, so a
    /// terminate countdown keeps the session's deadline across capture flapping (rule 21), and
    /// an acknowledgement decides whether falling back starts a new event (rule 4).
    mutating func escalationMayHaveChanged(now: Int64, into actions: inout [Action]) {
        let open = escalationConditionHolds
        guard open != guards.escalationOpen else { return }
        let before = guards.inForce
        guards.escalationOpen = open
        guards.recompute()
        policyMayHaveChanged(from: before, now: now, into: &actions)
    }

    /// Rule 18: a change of the policy in force ends the event in progress and begins one under
    /// the new policy at once (if due); the calls are not reported again. No change, no output.
    private mutating func policyMayHaveChanged(from before: MonitorPolicy?, now: Int64, into actions: inout [Action]) {
        guard guards.inForce != before else { return }
        if case .shown(let event) = security {
            actions.append(.dismiss(on: shownSurface))
            actions.append(.cancelWakeUp)
            actions.append(.outcome(ended(event, .policyChanged, now: now)))
            security = .waiting
        }
        beginEventIfDue(now: now, into: &actions)
    }

    // MARK: Rule 19 (the app's own calls)

    mutating func exempt(_ id: CallID, now: Int64, into actions: inout [Action]) {
        guard let connected = calls.removeValue(forKey: id) else {
            if guards.exemptLive[id] == nil { guards.addPending(id) }
            return
        }
        // A visible call becomes invisible: as if it had ended, for the callback and the policy.
        if connected { connectedCount -= 1 }
        guards.exemptLive[id] = connected
        guards.forgetAcknowledgement(of: id)
        settle(now: now, ending: .callExempted, into: &actions)
    }

    mutating func removeExemption(_ id: CallID, now: Int64, into actions: inout [Action]) {
        guards.exemptPending.removeAll { $0 == id }
        // Rule 10: a call that counts again while a session is followed joins it, silently.
        guard let connected = guards.exemptLive.removeValue(forKey: id), isMonitoring || isFollowing, guards.detectionEnabled else { return }
        // The call is live and now counts like any other: it may begin an event at once.
        calls[id] = connected
        if connected { connectedCount += 1 }
        // A call that joins for the verdict too (rule 23): the verifier is asked again.
        callsJoined &+= 1
        settle(now: now, ending: .callEnded, into: &actions)
    }

    // MARK: Rule 22 (the detection switch)

    mutating func setCallDetection(_ enabled: Bool, now: Int64, into actions: inout [Action]) {
        guard guards.detectionEnabled != enabled else { return }
        guards.detectionEnabled = enabled
        // A followed session (rule 10) has detection on, so it can only be switched off: its
        // calls are no longer seen, which ends it.
        guard isMonitoring || isFollowing else { return }
        if enabled {
            // A complete list follows from the source, as at every start (rule 15).
            actions.append(.startCallSource)
            return
        }
        actions.append(.stopCallSource)
        // Its calls are no longer seen: as if they had ended.
        calls.removeAll(keepingCapacity: true)
        connectedCount = 0
        settle(now: now, ending: .callDetectionDisabled, into: &actions)
    }
}

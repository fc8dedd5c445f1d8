// What guards the app beyond one app-wide policy (issue 19): protections per screen and the
// strictest-policy rule, the app's own calls exempt, observe-only monitoring, acknowledgements
// that cover only the calls they saw, the session's terminate deadline and the detection switch;
// and (issue 22) a stricter policy while the screen is captured during a call.
// Rules 18 to 22 and 25 of the behaviour contract: the steps here, the state they change in
// Guards.swift. Pure, like the rest of the engine.

extension MonitorEngine {
    // MARK: Rule 18 (protections) and 20 (observe), with rule 11

    /// Sets the app-wide policy. Rule 11: the same one again changes nothing (apps call start
    /// from every didBecomeActive; a reset countdown there would let a caller talk the user past
    /// the policy).
    mutating func setAppWide(
        _ policy: AppWidePolicy, isForeground foreground: Bool, owner: MonitorOwner?, now: Int64, into actions: inout [Action]
    ) {
        if isMonitoring && guards.appWide == policy { return }
        let changed = guards.setAppWide(policy)
        policySet(inForceChanged: changed, isForeground: foreground, owner: owner, now: now, into: &actions)
    }

    /// `stopMonitoring()`: ends the app-wide policy only; open protections and the escalation go
    /// on guarding.
    mutating func endAppWide(now: Int64, into actions: inout [Action]) {
        let changed = guards.setAppWide(nil)
        policyRemoved(inForceChanged: changed, now: now, into: &actions)
    }

    mutating func beginProtection(
        _ id: UInt64, _ policy: MonitorPolicy, named name: String? = nil, context: CallMonitorContext? = nil,
        isForeground foreground: Bool, owner: MonitorOwner?, now: Int64, into actions: inout [Action]
    ) {
        guard !guards.isOpen(id) else { return }
        let changed = guards.openProtection(id, policy, named: name, context: context)
        // Rule 31: asked about at the step's end.
        coaching.noteOpened(id)
        policySet(inForceChanged: changed, isForeground: foreground, owner: owner, now: now, into: &actions)
    }

    mutating func endProtection(_ id: UInt64, now: Int64, into actions: inout [Action]) {
        guard let changed = guards.closeProtection(id) else { return }
        // Rule 33: its questions were not needed.
        coachingProtectionEnded(id, now: now, into: &actions)
        policyRemoved(inForceChanged: changed, now: now, into: &actions)
    }

    /// After a policy was set (the app-wide one, a protection, the escalation): monitoring starts,
    /// resumes a followed session (rule 10), or it is a change of the policies (rule 18).
    private mutating func policySet(
        inForceChanged changed: Bool, isForeground foreground: Bool, owner: MonitorOwner?, now: Int64, into actions: inout [Action]
    ) {
        switch phase {
        case .off: startMonitoring(isForeground: foreground, owner: owner, into: &actions)
        case .following: resumeMonitoring(isForeground: foreground, now: now, into: &actions)
        case .on: policyMayHaveChanged(inForceChanged: changed, now: now, into: &actions)
        case .exited: break
        }
    }

    /// After a policy was removed while monitoring: a change of the policies (rule 18), or, when
    /// nothing is left, `stopMonitoring()` as before protections existed (rule 10), which follows
    /// a live session to its end.
    private mutating func policyRemoved(inForceChanged changed: Bool, now: Int64, into actions: inout [Action]) {
        if guards.wantsMonitoring {
            policyMayHaveChanged(inForceChanged: changed, now: now, into: &actions)
        } else {
            stop(now: now, ending: .monitoringStopped, into: &actions)
        }
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
        let changed = guards.setEscalation(policy)
        if policy != nil {
            policySet(inForceChanged: changed, isForeground: foreground, owner: owner, now: now, into: &actions)
        } else if isMonitoring {
            policyRemoved(inForceChanged: changed, now: now, into: &actions)
        }
    }

    /// Opens or closes the escalation when its condition (`escalationConditionHolds`) changed:
    /// the capture started or stopped, or a session began. Rule 18 decides what follows, so a
    /// terminate countdown keeps the session's deadline across capture flapping (rule 21), and
    /// an acknowledgement decides whether falling back starts a new event (rule 4).
    mutating func escalationMayHaveChanged(now: Int64, into actions: inout [Action]) {
        let open = escalationConditionHolds
        guard open != guards.escalationOpen else { return }
        let changed = guards.setEscalationOpen(open)
        policyMayHaveChanged(inForceChanged: changed, now: now, into: &actions)
    }

    /// Rule 18: a change of the policy in force ends the event in progress and begins one under
    /// the new policy at once (if due); the calls are not reported again. No change, no output.
    mutating func policyMayHaveChanged(inForceChanged changed: Bool, now: Int64, into actions: inout [Action]) {
        // With no call live no call's event is shown; a coaching warning follows its own policy
        // at the step's end (rule 32, `followNotice`), so a change of the others leaves it running.
        guard changed, calls.settled != .idle else { return }
        endEvent(.policyChanged, now: now, into: &actions)
        beginEventIfDue(now: now, into: &actions)
    }

    // MARK: Rule 19 (the app's own calls)

    mutating func exempt(_ id: CallID, now: Int64, into actions: inout [Action]) {
        let live = changeCalls { $0.remove(id) }
        guards.exempt(id, live: live)
        // A visible call becomes invisible: as if it had ended, for the callback and the policy.
        guard live != nil else { return }
        settle(now: now, ending: .callExempted, into: &actions)
    }

    mutating func removeExemption(_ id: CallID, now: Int64, into actions: inout [Action]) {
        // Rule 10: a call that counts again while a session is followed joins it, silently.
        guard let call = guards.removeExemption(id), isMonitoring || isFollowing, guards.detectionEnabled else { return }
        // The call is live and now counts like any other: it may begin an event at once, and it
        // joins for the verdict too (rule 23): the verifier is asked again.
        changeCalls { $0.insert(call, as: id) }
        callJoined()
        settle(now: now, ending: .callEnded, into: &actions)
    }

    // MARK: Rule 22 (the detection switch)

    mutating func setCallDetection(_ enabled: Bool, now: Int64, into actions: inout [Action]) {
        guard guards.setDetection(enabled) else { return }
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
        changeCalls { $0.removeAll() }
        settle(now: now, ending: .callDetectionDisabled, into: &actions)
    }
}

// The state of rules 18 to 22 and 25, sealed: the policies set, the policy in force, the app's own
// calls, the acknowledgements, the session's terminate deadline and the detection switch. Only the
// mutating methods below change a field, and each that changes a policy recomputes the policy in
// force itself, so it can never be stale. The steps that use it are in MonitorEngine+Guards.swift.

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

    /// An open protection (rule 18), one record: everything the engine keeps of it from its
    /// beginning to its end.
    struct Protection: Sendable {
        /// Unique to it for the monitor's life; its end names it.
        let id: UInt64
        /// The code's policy for its screen (a document's rule reads it, issue 28).
        let policy: MonitorPolicy
        /// The screen's name, which a document's `screens` address (issue 28); `nil` when unnamed.
        let name: String?
        /// What its screen is about, shown in the dialog while its policy is the one in force
        /// (rule 29).
        let context: CallMonitorContext?
        /// The acknowledge warning its coaching answers added (rule 32), the strictest of them;
        /// changed only by ``Guards/addCoaching(_:to:fromDocument:)``. Its type cannot ask for
        /// terminate.
        fileprivate(set) var coaching: AcknowledgeRequirement?
        /// Rule 34: the highest level among its coaching answers that were read with a warning as
        /// their response (medium or high); `nil` when none was. The dialog's coaching line says
        /// it; changed only by ``Guards/noteCoachingLevel(_:of:)``.
        fileprivate(set) var coachingLevel: CallMonitor.CoachingLevel?
        /// The version of the signed document whose `coaching` member made ``coaching`` what it
        /// is (rule 35: the code's coaching policy alone gave a weaker response); `nil` when the
        /// code's did. What an event under that policy records as its source.
        fileprivate(set) var coachingVersion: Int64?
    }

    /// How many exemptions for calls not yet seen are kept; past it the oldest is dropped, so a
    /// call the app forgot to report stays guarded (rule 19).
    static let pendingExemptionLimit = 16

    /// The state of rules 18 to 22 and 25. The methods that set or remove a policy return whether
    /// the policy in force changed: rule 18's question, which the engine acts on.
    struct Guards: Sendable {
        /// `nil` when the app-wide policy is not set (never started, or stopped).
        private(set) var appWide: AppWidePolicy?
        /// The open protections, in the order they began (rule 29 reads the last begun whose
        /// policy is in force), each once: its id is its key. A search by id costs no more than
        /// the recompute that follows every opening and ending (it reads them all), and keeps one
        /// store where a dictionary would need a second one for the order.
        private(set) var protections: [Protection] = []
        /// The policy in force: the strictest of the app-wide policy, every open protection and,
        /// while it is open, the escalation (rule 25); recomputed by every method that changes one
        /// of them.
        private(set) var inForce: MonitorPolicy?
        /// Live calls covered by an acknowledgement, with the strictest policy they were
        /// acknowledged under (rule 4).
        private(set) var acknowledged: [CallID: MonitorPolicy] = [:]
        /// Exempt calls that have been seen live, as they are (kept so a removed exemption can put
        /// the call back as it is, direction included).
        private(set) var exemptLive: [CallID: LiveCall] = [:]
        /// Exemptions for calls not seen yet, oldest first.
        private(set) var exemptPending: [CallID] = []
        /// The earliest deadline of any terminate countdown in the session (rule 21); `nil` until
        /// one ran.
        private(set) var terminateDeadline: Int64?
        /// Call detection (rule 22); off, the call source does not run.
        private(set) var detectionEnabled = true
        /// The policy that guards while the screen is captured during a call (rule 25). Like a
        /// protection it asks for monitoring while set; `stopMonitoring()` leaves it set, as it
        /// leaves the protections open.
        private(set) var escalation: MonitorPolicy?
        /// Whether the escalation's condition holds (the screen is captured and a visible call is
        /// live), as the engine last told it; false between sessions.
        private(set) var escalationOpen = false
        /// The rule of the signed document in force, if any (rule 26): recompute reads each
        /// policy through it.
        private(set) var overlay: RemoteOverlay?
        /// Whether there is an ``overlay``, read without copying it (every step asks).
        var hasOverlay: Bool { if case .some = overlay { true } else { false } }
        /// Whether the document's rule decided the policy in force (the code alone would give
        /// another): what an event records as its policy's source.
        private(set) var inForceIsRemote = false
        /// The strictest acknowledge warning acknowledged while a coaching policy was set (rule
        /// 32): it covers that coaching warning and any no stricter until no protection has a
        /// coaching policy any more.
        private(set) var noticeAcknowledged: AcknowledgeRequirement?

        /// Whether anything asks for monitoring: the app-wide policy, a protection, or the
        /// escalation (rule 25 as changed by issue 26: set alone, it guards the shared screen; an
        /// escalation that waited for another policy left a bank that set only it unguarded).
        var wantsMonitoring: Bool { appWide != nil || !protections.isEmpty || escalation != nil }

        // MARK: The policies (rules 18, 20 and 25)

        /// Sets or (with `nil`) ends the app-wide policy.
        mutating func setAppWide(_ policy: AppWidePolicy?) -> Bool {
            appWide = policy
            return recompute()
        }

        /// Whether protection `id` is open.
        func isOpen(_ id: UInt64) -> Bool { protections.contains { $0.id == id } }

        /// Opens protection `id`; `false` too when it is open already.
        /// `name` is the screen's name, which a document's `screens` address (issue 28); `context`
        /// what the screen shows in the dialog (rule 26).
        mutating func openProtection(
            _ id: UInt64, _ policy: MonitorPolicy, named name: String? = nil, context: CallMonitorContext? = nil
        ) -> Bool {
            guard !isOpen(id) else { return false }
            protections.append(Protection(id: id, policy: policy, name: name, context: context))
            return recompute()
        }

        /// Protection `id`, when it is open.
        func protection(_ id: UInt64) -> Protection? { protections.first { $0.id == id } }

        /// Rule 32: a coaching answer adds `warning` to protection `id`, the stricter of it and
        /// what its earlier answers added; returns whether the policy in force changed (rule 18).
        /// Nothing for a protection that is not open. `version` is the document that made
        /// `warning` what it is (rule 35), `nil` for the code: kept when `warning` becomes the
        /// protection's, so the event it shows names its source.
        mutating func addCoaching(_ warning: AcknowledgeRequirement, to id: UInt64, fromDocument version: Int64? = nil) -> Bool {
            guard let index = protections.firstIndex(where: { $0.id == id }) else { return false }
            let before = protections[index].coaching
            protections[index].coaching = AcknowledgeRequirement.strictest(before, warning)
            if protections[index].coaching != before { protections[index].coachingVersion = version }
            return recompute()
        }

        /// Rule 35: the document whose coaching member decided `policy` (the coaching warning's,
        /// or the one in force when a coaching answer's policy decides it): every open protection
        /// whose coaching policy is `policy` has it from that document, the last begun naming
        /// which. `nil` when the code alone gives one of them.
        func coachingVersion(deciding policy: MonitorPolicy) -> Int64? {
            var version: Int64?
            for protection in protections where protection.coaching?.policy == policy {
                guard let own = protection.coachingVersion else { return nil }
                version = own
            }
            return version
        }

        /// Rule 34: a coaching answer of `level` was read for protection `id` with a warning as its
        /// response: the protection keeps the highest level read. Nothing for `unknown` (it says
        /// nothing) or for a protection that is not open. Text only: no policy changes.
        mutating func noteCoachingLevel(_ level: CallMonitor.CoachingLevel, of id: UInt64) {
            guard level != .unknown, let index = protections.firstIndex(where: { $0.id == id }) else { return }
            protections[index].coachingLevel = CallMonitor.CoachingLevel.higher(protections[index].coachingLevel, level)
        }

        /// Rule 34: the level the event on screen says, the highest of the open protections (the
        /// event guards every one of them); `nil` when no answer was read with a warning.
        var coachingLevel: CallMonitor.CoachingLevel? {
            protections.reduce(nil) { CallMonitor.CoachingLevel.higher($0, $1.coachingLevel) }
        }

        /// Rule 32: the strictest coaching policy of the open protections.
        var notice: AcknowledgeRequirement? {
            protections.reduce(nil) { AcknowledgeRequirement.strictest($0, $1.coaching) }
        }

        /// Rule 32: the coaching warning due with no call live: ``notice`` unless an
        /// acknowledgement covers it (one at least as long).
        var noticeDue: AcknowledgeRequirement? {
            guard let notice else { return nil }
            if let noticeAcknowledged, noticeAcknowledged.seconds >= notice.seconds { return nil }
            return notice
        }

        /// Rule 33: whether protection `id`'s coaching policy is what makes the policy in force
        /// what it is with a call live: it is that policy, and the policies without any coaching
        /// answer's are weaker. An answer whose policy this is raised what the call's event shows.
        func coachingDecidesInForce(_ id: UInt64) -> Bool {
            guard let inForce, let coaching = protection(id)?.coaching, coaching.policy == inForce else { return false }
            return strictestWithoutCoaching != inForce
        }

        /// The policy in force as it would be without any coaching answer's (rules 18 and 32).
        var strictestWithoutCoaching: MonitorPolicy? { strictest(through: overlay, withCoaching: false) }

        /// Rule 29 for a coaching warning: the context of the protection begun last among those
        /// whose coaching policy is ``notice``.
        var noticeContext: CallMonitorContext? {
            guard let notice else { return nil }
            return protections.last { $0.coaching == notice }?.context
        }

        /// Rule 32: an acknowledge warning of `warning`'s seconds was acknowledged while a coaching
        /// policy was set: it covers that coaching warning and any no stricter.
        mutating func acknowledgeNotice(under warning: AcknowledgeRequirement) {
            guard notice != nil else { return }
            noticeAcknowledged = AcknowledgeRequirement.strictest(noticeAcknowledged, warning)
        }

        /// Sets (or with `nil` removes) the document's rule in force (rule 26).
        mutating func setOverlay(_ overlay: RemoteOverlay?) -> Bool {
            self.overlay = overlay
            return recompute()
        }

        /// Ends protection `id`; `nil` when it is not open (an unknown or already ended id).
        mutating func closeProtection(_ id: UInt64) -> Bool? {
            guard let index = protections.firstIndex(where: { $0.id == id }) else { return nil }
            protections.remove(at: index)
            return recompute()
        }

        /// Sets, replaces or (with `nil`) removes the escalation.
        mutating func setEscalation(_ policy: MonitorPolicy?) -> Bool {
            escalation = policy
            return recompute()
        }

        /// Opens or closes the escalation, as its condition says.
        mutating func setEscalationOpen(_ open: Bool) -> Bool {
            escalationOpen = open
            return recompute()
        }

        /// Nothing asks for monitoring any more: no policy is in force. The session's state (its
        /// acknowledgements and terminate deadline) stays until the session ends, since a followed
        /// session keeps it (rule 10).
        mutating func monitoringStopped() {
            appWide = nil
            protections.removeAll()
            escalationOpen = false
            _ = recompute()
        }

        /// The session is over: its acknowledgements and deadline go, and with no call live the
        /// escalation no longer counts (rule 25).
        mutating func sessionEnded() {
            acknowledged.removeAll()
            terminateDeadline = nil
            escalationOpen = false
            _ = recompute()
        }

        /// Rule 29: the context the event on screen shows: that of the protection begun last among
        /// those whose policy is the one in force; none when no protection's is (the app-wide
        /// policy and the escalation have no screen of their own), or when that protection was
        /// begun without one.
        var context: CallMonitorContext? {
            guard let inForce else { return nil }
            return protections.last { policy(of: $0) == inForce }?.context
        }

        /// Makes `inForce` the strictest policy set; returns whether it changed.
        private mutating func recompute() -> Bool {
            // Rule 32: an acknowledged coaching warning lasts while some protection has a coaching policy.
            if noticeAcknowledged != nil, notice == nil { noticeAcknowledged = nil }
            let strictest = strictest(through: overlay)
            // Rule 26: the document's rule, when one is in force, reads each policy first.
            inForceIsRemote = overlay != nil && strictest != self.strictest(through: nil)
            guard strictest != inForce else { return false }
            inForce = strictest
            return true
        }

        /// `protection`'s policy as it counts now: the code's, read through the document's rule
        /// for its screen when one is in force (issue 28).
        private func policy(of protection: Protection) -> MonitorPolicy? {
            guard let overlay else { return MonitorPolicy.strictest(protection.policy, protection.coaching?.policy) }
            return MonitorPolicy.strictest(
                overlay.combine(protection.policy, overlay.settings.screen(protection.name)), protection.coaching?.policy
            )
        }

        /// The strictest policy set, each read through `overlay` (issue 28).
        private func strictest(through overlay: RemoteOverlay?, withCoaching: Bool = true) -> MonitorPolicy? {
            func read(_ code: MonitorPolicy?, _ setting: RemoteSetting) -> MonitorPolicy? {
                overlay.map { $0.combine(code, setting) } ?? code
            }
            var strictest = read(appWide?.policy, overlay?.settings.appWide ?? .code)
            for protection in protections {
                strictest = MonitorPolicy.strictest(strictest, read(protection.policy, overlay?.settings.screen(protection.name) ?? .code))
                // Rule 32: a coaching answer's policy is one more among them, never read through
                // the document: it can only make the one in force stricter.
                if withCoaching { strictest = MonitorPolicy.strictest(strictest, protection.coaching?.policy) }
            }
            // Rule 25: one more policy among the others, so it can only make the one in force
            // stricter, never weaker. Open only while monitoring (the engine's condition says so).
            // A document may set one where the code set none (rule 26).
            if escalationOpen { strictest = MonitorPolicy.strictest(strictest, read(escalation, overlay?.settings.screenCaptured ?? .code)) }
            return strictest
        }

        // MARK: The app's own calls (rule 19)

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
                exemptLive[snapshot.id] = snapshot.hasEnded ? nil : LiveCall(snapshot)
            }
            if batch.isComplete && !exemptLive.isEmpty {
                let listed = Set(batch.calls.lazy.filter { !$0.hasEnded }.map(\.id))
                exemptLive = exemptLive.filter { listed.contains($0.key) }
            }
            return CallBatch(calls: kept, isComplete: batch.isComplete)
        }

        /// Exempts `id`: `live` is the call when it was live and visible, which becomes invisible
        /// and takes its acknowledgement with it (rule 4); otherwise the exemption waits for the
        /// call, unless it is live and exempt already.
        mutating func exempt(_ id: CallID, live: LiveCall?) {
            guard let live else {
                if exemptLive[id] == nil { addPending(id) }
                return
            }
            exemptLive[id] = live
            forgetAcknowledgement(of: id)
        }

        /// Takes `id`'s exemption back; returns the call when it is live, to count again.
        mutating func removeExemption(_ id: CallID) -> LiveCall? {
            exemptPending.removeAll { $0 == id }
            return exemptLive.removeValue(forKey: id)
        }

        private mutating func addPending(_ id: CallID) {
            guard !exemptPending.contains(id) else { return }
            exemptPending.append(id)
            if exemptPending.count > MonitorEngine.pendingExemptionLimit { exemptPending.removeFirst() }
        }

        // MARK: Acknowledgements (rule 4)

        /// Covers every call live now under `policy` (and any policy no stricter, rule 6).
        mutating func acknowledge(_ calls: LiveCalls, under policy: MonitorPolicy) {
            for id in calls.ids { acknowledged[id] = MonitorPolicy.strictest(acknowledged[id], policy) }
        }

        /// Whether every live call was acknowledged under a policy at least as strict as `policy`.
        func acknowledgementCovers(_ calls: LiveCalls, under policy: MonitorPolicy) -> Bool {
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

        // MARK: The session's terminate deadline (rule 21) and detection (rule 22)

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

        /// Switches call detection; returns whether that changed it.
        mutating func setDetection(_ enabled: Bool) -> Bool {
            guard detectionEnabled != enabled else { return false }
            detectionEnabled = enabled
            return true
        }
    }
}

#if DEBUG
// Equality that only the tests use, left out of release builds (CONTRIBUTING, "Binary size").
extension MonitorEngine.Protection: Equatable {}
extension MonitorEngine.Guards: Equatable {}
#endif

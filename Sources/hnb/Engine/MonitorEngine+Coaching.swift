// Coaching signals (issue 40; rules 31 to 33): when the coaching source is asked, which answer
// counts, what it adds to the protection's policies, and the one consumption status each question
// ends with. Pure, like the rest of the engine.
//
// An answer only ever adds an acknowledge policy to its protection (Guards.swift folds it into the
// policies of rule 18, and into the coaching warning's policy when no call is live), so no answer,
// early, late, twice or never, can shorten a countdown, turn terminate into acknowledge, remove a
// warning or exit. The source itself lives in the core (Core/CoachingAsker.swift): the engine only
// knows whether one is set and of which kind.

extension MonitorEngine {
    /// The coaching source, its policy and its questions (rules 31 and 33). Every field is
    /// read-only outside this type, so a request number is never handed out twice and a question is
    /// closed (and reported) once.
    struct CoachingState: Sendable {
        /// A question asked about an open protection and not yet decided.
        struct Question: Sendable, Equatable {
            let request: UInt64
            /// The ``Protection/id`` it is about.
            let protection: UInt64
            /// Issue 40, "Evidence": the kind of source asked and the operation id it was asked
            /// with, which the outcome's coaching record names.
            let source: CallMonitor.CoachingSource
            let operationID: String?
            /// When its budget ends (rule 33): a question still open at or after that instant is
            /// `notUsedError`, also when its protection's end, a stop or the exit reaches the
            /// engine before the budget's timer.
            let budgetEndsAt: Int64
            /// The answer read, kept while its status waits for its warning to begin
            /// (``waiting``), so that the warning's outcome can record it; `nil` while open.
            let answer: CallMonitor.CoachingAnswer?
        }

        /// The kind of source set, `nil` when none is: then nothing is asked.
        private(set) var source: CallMonitor.CoachingSource?
        /// How long a question may take, in nanoseconds, clamped before it reaches the engine
        /// (`CallMonitor.verifierBudgetSeconds(clamping:)`, the verifier's one clamp).
        private(set) var budget: Int64 = MonitorEngine.defaultVerdictBudget
        /// The code's coaching policy, the same for every protection until the remote policy's
        /// member (rule 35) plugs in through ``MonitorEngine/coachingPolicy(for:)``.
        private(set) var policy = CallMonitor.CoachingPolicy()
        /// The last request number handed out; each question gets the next one.
        private(set) var lastRequest: UInt64 = 0
        /// Protections opened in this step: asked about at its end (``MonitorEngine/followCoaching(now:into:)``).
        private(set) var opened: [UInt64] = []
        /// Questions waiting for their answer.
        private(set) var open: [Question] = []
        /// Questions answered with a warning while no call was live and the app was in the
        /// background: their status waits for the warning to begin or the protection to end.
        private(set) var waiting: [Question] = []

        mutating func setSource(_ source: CallMonitor.CoachingSource?) { self.source = source }
        mutating func setBudget(_ nanoseconds: Int64) { budget = nanoseconds }
        mutating func setPolicy(_ policy: CallMonitor.CoachingPolicy) { self.policy = policy }

        /// Protection `id` opened in this step.
        mutating func noteOpened(_ id: UInt64) { opened.append(id) }

        /// The protections opened in this step, forgotten as they are read.
        mutating func takeOpened() -> [UInt64] {
            defer { opened = [] }
            return opened
        }

        /// A new question about `protection` to a source of kind `source`, with `operationID`,
        /// whose budget ends at `budgetEndsAt`; returns its request number.
        mutating func ask(
            about protection: UInt64, source: CallMonitor.CoachingSource, operationID: String?, budgetEndsAt: Int64
        ) -> UInt64 {
            lastRequest &+= 1
            open.append(Question(
                request: lastRequest, protection: protection, source: source, operationID: operationID,
                budgetEndsAt: budgetEndsAt, answer: nil
            ))
            return lastRequest
        }

        /// Takes question `request` out of the open ones; `nil` when it is not open (answered,
        /// expired, closed, or never asked), so only the first event of a question counts.
        mutating func take(_ request: UInt64) -> Question? {
            guard let index = open.firstIndex(where: { $0.request == request }) else { return nil }
            return open.remove(at: index)
        }

        /// `question`'s status, with `answer`, waits for its warning to begin.
        mutating func wait(_ question: Question, answer: CallMonitor.CoachingAnswer) {
            waiting.append(Question(
                request: question.request, protection: question.protection, source: question.source,
                operationID: question.operationID, budgetEndsAt: question.budgetEndsAt, answer: answer
            ))
        }

        /// Takes every waiting question (its warning began).
        mutating func takeWaiting() -> [Question] {
            defer { waiting = [] }
            return waiting
        }

        /// Takes every open question (`waiting` too when `all`) whose protection `protection`
        /// names, or every one for `nil`; returns them, asked first first.
        mutating func close(protection: UInt64? = nil, all: Bool) -> [Question] {
            func matches(_ question: Question) -> Bool { protection == nil || question.protection == protection }
            var closed = open.filter(matches)
            open.removeAll(where: matches)
            if all {
                closed += waiting.filter(matches)
                waiting.removeAll(where: matches)
            }
            return closed.sorted { $0.request < $1.request }
        }
    }

    /// The coaching policy of protection `id` (rule 32): the code's, or, while the remote
    /// policy's rule in force names the protection's screen in its `coaching` member (rule 35),
    /// the code's as that setting changes it (`RemoteOverlay.combine(_:_:)`, Engine/RemotePolicy.swift:
    /// stricter only unless the app allows relaxation). Read when the question is asked and when
    /// its answer comes, so a document applied in between decides what the answer does.
    func coachingPolicy(for id: UInt64) -> CallMonitor.CoachingPolicy {
        guard let overlay = guards.overlay, let name = guards.protection(id)?.name,
              let remote = overlay.settings.coaching[name] else { return coaching.policy }
        return overlay.combine(coaching.policy, remote)
    }

    // MARK: Inputs

    /// Rule 31: the source was set (its kind) or removed (`nil`). Removing it closes the open
    /// questions as errors: their answers are ignored from now on.
    mutating func setCoachingSource(_ source: CallMonitor.CoachingSource?, into actions: inout [Action]) {
        coaching.setSource(source)
        guard source == nil else { return }
        report(coaching.close(all: false).map(\.request), .notUsedError, into: &actions)
    }

    /// Rules 32 and 33: an answer. Only the first event of an open question counts; an answer
    /// after the budget, a second one, or one after its protection ended is ignored.
    mutating func coachingAnswered(request: UInt64, _ answer: CallMonitor.CoachingAnswer, now: Int64, into actions: inout [Action]) {
        guard let question = coaching.take(request) else { return }
        guard let status = consume(answer, for: question, now: now, into: &actions) else { return coaching.wait(question, answer: answer) }
        recordEvidence(question, answer, status, now: now, into: &actions)
        report([request], status, into: &actions)
    }

    /// Rule 33: question `request`'s budget ran out before its answer.
    mutating func coachingBudgetExpired(request: UInt64, into actions: inout [Action]) {
        guard coaching.take(request) != nil else { return }
        report([request], .notUsedError, into: &actions)
    }

    /// Rule 33: protection `id` ended: its open and waiting questions were not needed.
    mutating func coachingProtectionEnded(_ id: UInt64, now: Int64, into actions: inout [Action]) {
        reportNotNeeded(coaching.close(protection: id, all: true), now: now, into: &actions)
    }

    /// Rule 33: monitoring stopped or the app exits: every question still undecided was not needed.
    mutating func closeAllCoaching(now: Int64, into actions: inout [Action]) {
        reportNotNeeded(coaching.close(all: true), now: now, into: &actions)
    }

    /// Rule 33: `notUsedNotNeeded` for questions closed before their answer or budget, except one
    /// still unanswered at or after the instant its budget ends: that is `notUsedError`, as the
    /// budget's own timer would have said, so the status does not hang on which of two inputs
    /// due at one instant reaches the engine first (a force exit at the last tick and the budget's
    /// timer, say). An answer that waits for its warning was read in time: not needed.
    private func reportNotNeeded(_ questions: [CoachingState.Question], now: Int64, into actions: inout [Action]) {
        for question in questions {
            let expired = question.answer == nil && question.budgetEndsAt <= now
            actions.append(.reportCoaching(request: question.request, expired ? .notUsedError : .notUsedNotNeeded))
        }
    }

    /// Whether any question is still undecided.
    var coachingUndecided: Bool { !coaching.open.isEmpty || !coaching.waiting.isEmpty }

    private func report(_ requests: [UInt64], _ status: CallMonitor.CoachingConsumption, into actions: inout [Action]) {
        for request in requests { actions.append(.reportCoaching(request: request, status)) }
    }

    /// Rules 32 and 33: what `answer` does, and the status it ends with (§3 of the design's
    /// table); `nil` when the status waits for the app's return (no call, background).
    private mutating func consume(
        _ answer: CallMonitor.CoachingAnswer, for question: CoachingState.Question, now: Int64, into actions: inout [Action]
    ) -> CallMonitor.CoachingConsumption? {
        guard answer.isAvailable else { return .notUsedError }
        let policy = coachingPolicy(for: question.protection)
        guard policy.shows else { return .usedEvaluationOnly }
        guard case .acknowledge(let seconds) = policy.response(to: answer.level) else { return .usedUnchangedFriction }
        // Rule 34: the dialog's line says the level read, whatever the warning it ends up in.
        guards.noteCoachingLevel(answer.level, of: question.protection)
        let warning = AcknowledgeRequirement(requestedSeconds: seconds)
        // Rule 35: the document's when its coaching member changed the code's response.
        let version = policy.response(to: answer.level) != coaching.policy.response(to: answer.level) ? guards.overlay?.version : nil
        if calls.settled != .idle {
            // Rule 18: one more policy among the others, so the stricter applies.
            let changed = guards.addCoaching(warning, to: question.protection, fromDocument: version)
            policyMayHaveChanged(inForceChanged: changed, now: now, into: &actions)
            return changed ? .usedIncreasedFriction : .usedUnchangedFriction
        }
        let due = guards.noticeDue
        _ = guards.addCoaching(warning, to: question.protection, fromDocument: version)
        guard guards.noticeDue != due else { return .usedUnchangedFriction }
        guard isForeground else { return nil }
        followNotice(now: now, into: &actions)
        return .usedIncreasedFriction
    }

    // MARK: After every step

    /// Rule 31: runs at the end of every step, after the step's own actions (and after the
    /// verifier's), so an `askCoaching` comes after the presentation, the wake-up and any exit:
    /// asks about each protection opened in the step whose context's kind is not `general`, when
    /// a source is set and the protection's coaching policy is not `off` for both levels.
    mutating func followCoaching(now: Int64, into actions: inout [Action]) {
        let opened = coaching.takeOpened()
        guard phase == .on, let source = coaching.source else { return }
        for id in opened {
            guard let protection = guards.protection(id), let context = protection.context, context.kind != .general,
                  coachingPolicy(for: id).asks else { continue }
            let budgetEndsAt = Self.deadline(now, plusNanoseconds: coaching.budget)
            let request = coaching.ask(about: id, source: source, operationID: context.operationID, budgetEndsAt: budgetEndsAt)
            actions.append(.askCoaching(
                CallMonitor.CoachingQuestion(id: request, protectionName: protection.name, context: context),
                budgetEndsAt: budgetEndsAt
            ))
        }
    }

    /// Rule 32, no call live: the coaching warning on screen is the one due (the strictest
    /// coaching policy of the open protections that no acknowledgement covers): one that is no
    /// longer due ends (`policyChanged`), and one that is due begins in the foreground. With a
    /// call live the coaching policies are among rule 18's: answers that waited for the app's
    /// return are decided once the call's event is on screen (``settleWaitingUnderCall(now:into:)``).
    mutating func followNotice(now: Int64, into actions: inout [Action]) {
        guard phase == .on else { return }
        guard calls.settled == .idle else { return settleWaitingUnderCall(now: now, into: &actions) }
        if let event = shownEvent {
            guard MonitorPolicy(flow: event.flow, requestedSeconds: event.total) != guards.noticeDue?.policy else { return }
            endEvent(.policyChanged, now: now, into: &actions)
        }
        guard beginCoachingWarningIfDue(now: now, into: &actions) else { return }
        // Rule 33: answers that waited for the app's return started this warning; issue 40: its
        // outcome records them.
        for question in coaching.takeWaiting() {
            if let answer = question.answer { recordEvidence(question, answer, .usedIncreasedFriction, now: now, into: &actions) }
            report([question.request], .usedIncreasedFriction, into: &actions)
        }
    }

    /// Rule 33: answers that waited in the background for a coaching warning while a call became
    /// live. Their policies joined rule 18's when they were read, so once the call's event is on
    /// screen each is decided as a live call's answer is: `usedIncreasedFriction` when its policy
    /// is the one the event shows and would not be without coaching, `usedUnchangedFriction` when
    /// a call's policy as strict or stricter is what shows. Issue 40: the call's event's outcome
    /// records them, as it records an answer read while it is on screen.
    private mutating func settleWaitingUnderCall(now: Int64, into actions: inout [Action]) {
        guard hasShownEvent, !coaching.waiting.isEmpty else { return }
        for question in coaching.takeWaiting() {
            let status: CallMonitor.CoachingConsumption =
                guards.coachingDecidesInForce(question.protection) ? .usedIncreasedFriction : .usedUnchangedFriction
            if let answer = question.answer { recordEvidence(question, answer, status, now: now, into: &actions) }
            report([question.request], status, into: &actions)
        }
    }
}

#if DEBUG
// Equality that only the tests use, left out of release builds (CONTRIBUTING, "Binary size").
extension MonitorEngine.CoachingState: Equatable {}
#endif

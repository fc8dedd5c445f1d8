// Issue 30 (rule 29): the screen's context in the warning: the cleaning of the detail, which
// context the engine shows, the redraw when it changes, and what custom UIs are told.

import Foundation
import Testing
@testable import hnb
import hnbTesting

@Suite("Context: the detail is cleaned before it is drawn")
struct ContextDetailTests {
    @Test("A right-to-left override in a payee name is removed, so it cannot reverse the sentence around it")
    func bidiOverrideRemoved() throws {
        // What a scammer types as the payee: the override makes "nahcsiM .M" read as "M. Mischan"
        // and, unclosed, reverses everything after it on the line.
        let raw = "You are sending €2,000 to \u{202E}nahcsiM .M\u{202C} for rent."
        let context = CallMonitorContext(kind: .payment, detail: raw)
        #expect(context.detail == "You are sending €2,000 to nahcsiM .M for rent.")
        let drawn = try #require(context.detail)
        #expect(!drawn.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
        // And it reaches the dialog that way.
        let alert = SecurityAlert(flow: .terminate, remaining: 5, strings: .english, context: context)
        #expect(alert.detail == "You are sending €2,000 to nahcsiM .M for rent.")
        #expect(alert.kindLine == "Your bank will never ask you to move money while you are on a call.")
    }

    @Test("Every bidirectional control is removed: embeddings, overrides, isolates and marks")
    func everyBidiControlRemoved() {
        let controls: [UInt32] = [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C]
        for value in controls {
            let scalar = String(Character(Unicode.Scalar(value)!))
            #expect(ContextDetail.clean("a\(scalar)b") == "ab", "U+\(String(value, radix: 16, uppercase: true))")
        }
    }

    @Test("Control and zero-width characters are removed; white space of every kind collapses to one space")
    func controlsZeroWidthAndWhiteSpace() {
        #expect(ContextDetail.clean("M.\u{200B}Muster\u{200C}\u{200D}mann\u{2060}\u{FEFF}") == "M.Mustermann")
        #expect(ContextDetail.clean("bell\u{0085}next") == "bell next")
        #expect(ContextDetail.clean("  one\n\ntwo\t\tthree\u{2028}four\u{00A0}\u{3000}five  ") == "one two three four five")
        #expect(ContextDetail.clean("soft\u{00AD}hyphen") == "softhyphen")
        // A hidden character between two spaces leaves one space, not two.
        #expect(ContextDetail.clean("a \u{200B} b") == "a b")
    }

    @Test("Control characters that are not white space are removed without a trace")
    func controlsRemovedExactly() {
        #expect(ContextDetail.clean("\u{0007}bell\u{0000}null\u{007F}del\u{001B}[31mred") == "bellnulldel[31mred")
    }

    @Test("Nothing left after cleaning is no detail; the kind stays")
    func emptyIsNil() {
        #expect(ContextDetail.clean("") == nil)
        #expect(ContextDetail.clean(" \n\t\u{202E}\u{200B} ") == nil)
        let context = CallMonitorContext(kind: .credentials, detail: "\u{202E}\u{2066}")
        #expect(context.detail == nil)
        #expect(context.kind == .credentials)
        #expect(CallMonitorContext(kind: .general).detail == nil)
    }

    @Test("Over 200 characters as a person counts them (grapheme clusters): the first 199 and an ellipsis")
    func cutAt200Graphemes() throws {
        // "é" as e + U+0301: two scalars, one character. 250 of them are cut to 199 and "…".
        let accented = String(repeating: "e\u{301}", count: 250)
        let cut = try #require(ContextDetail.clean(accented))
        #expect(cut.count == 200)
        #expect(cut == String(repeating: "e\u{301}", count: 199) + "…")
        // Exactly 200 stays as it is.
        let flags = String(repeating: "🇩🇪", count: 200)
        #expect(ContextDetail.clean(flags) == flags)
        // A cut that lands after a space drops the space before the ellipsis.
        let words = String(repeating: "a", count: 198) + " bcdef"
        #expect(ContextDetail.clean(words) == String(repeating: "a", count: 198) + "…")
    }

    @Test("An Objective-C kind name that is not a case is general: the warning and the detail stay")
    func unknownKindNameIsGeneral() {
        #expect(CallMonitorContext.kind(named: "payment") == .payment)
        #expect(CallMonitorContext.kind(named: "deviceChange") == .deviceChange)
        #expect(CallMonitorContext.kind(named: "Payment") == .general)
        #expect(CallMonitorContext.kind(named: "") == .general)
        #expect(CallMonitorContext.Kind.allCases.map(\.rawValue) == ["payment", "credentials", "deviceChange", "accountChange", "general"])
    }

    @Test("Each kind but general adds its own line; general adds none")
    func kindLines() {
        let lines = CallMonitorContext.Kind.allCases.map { SecurityAlert.kindLine(CallMonitorContext(kind: $0), strings: .english) }
        #expect(lines == [
            "Your bank will never ask you to move money while you are on a call.",
            "Your bank will never ask for your PIN, passwords or codes on a call.",
            "Your bank will never ask you to install an app or add a device on a call.",
            "Your bank will never ask you to change your account details on a call.",
            nil,
        ])
        #expect(SecurityAlert.kindLine(nil, strings: .english) == nil)
    }
}

@Suite("Context: which one the engine shows (rule 29)")
struct ContextEngineTests {
    let second = MonitorEngine.second
    let payment = CallMonitorContext(kind: .payment, detail: "You are sending €2,000 to M.")
    let code = CallMonitorContext(kind: .credentials, detail: "Enter the code we sent you.")
    func policy(_ flow: CallMonitorFlow, _ seconds: Int32) -> MonitorPolicy { MonitorPolicy(flow: flow, requestedSeconds: seconds) }

    @Test("A protection's context is presented with its event")
    func presentedWithTheEvent() {
        var engine = MonitorEngine()
        _ = engine.handle(.beginProtection(id: 1, policy(.terminate, 5), context: payment), now: 0)
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0) == [
            .emit(.ringing),
            .present(.terminate, remaining: 5, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, context: payment, on: .builtInDialog),
            .schedule(at: second),
        ])
    }

    @Test("A second protection with the same policy changes only the context: a redraw, no event ends, no countdown moves")
    func sameePolicyIsARedraw() {
        var engine = MonitorEngine()
        _ = engine.handle(.beginProtection(id: 1, policy(.terminate, 5), context: payment), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0)
        _ = engine.handle(.wake(), now: second)
        // Begun last, with the same policy: its context shows.
        #expect(engine.handle(.beginProtection(id: 2, policy(.terminate, 5), context: code), now: second + second / 2) == [
            .context(code, flow: .terminate, remaining: 4, token: 1, button: .available, on: .builtInDialog),
        ])
        #expect(engine.shownEvent?.remaining == 4)
        // Its end brings the first one's back; still the same event, the same wake-ups.
        #expect(engine.handle(.endProtection(id: 2), now: 2 * second - 1) == [.context(payment, flow: .terminate, remaining: 4, token: 1, button: .available, on: .builtInDialog)])
        #expect(engine.handle(.wake(), now: 2 * second) == [.tick(.terminate, remaining: 3, token: 1, button: .available, context: payment, on: .builtInDialog), .schedule(at: 3 * second)])
        #expect(engine.shownEvent?.id == 1 && engine.shownEvent?.context == payment)
    }

    @Test("A protection without a context begun last shows none; one with the laxer policy does not count")
    func lastBegunAndPolicyInForce() {
        var engine = MonitorEngine()
        _ = engine.handle(.beginProtection(id: 1, policy(.terminate, 5), context: payment), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0)
        // Laxer: not in force, nothing changes.
        #expect(engine.handle(.beginProtection(id: 2, policy(.acknowledge, 3), context: code), now: 0) == [])
        // Same policy, no context: begun last, so none shows.
        #expect(engine.handle(.beginProtection(id: 3, policy(.terminate, 5)), now: 0) == [.context(nil, flow: .terminate, remaining: 5, token: 1, button: .available, on: .builtInDialog)])
        #expect(engine.guards.context == nil)
        #expect(engine.handle(.endProtection(id: 3), now: 0) == [.context(payment, flow: .terminate, remaining: 5, token: 1, button: .available, on: .builtInDialog)])
    }

    @Test("None for the app-wide policy, also when a protection with a laxer policy has one")
    func noneForAppWide() {
        var engine = MonitorEngine()
        _ = engine.handle(.start(policy(.terminate, 3)), now: 0)
        _ = engine.handle(.beginProtection(id: 1, policy(.terminate, 5), context: payment), now: 0)
        #expect(engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0) == [
            .emit(.ringing),
            .present(.terminate, remaining: 3, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, context: nil, on: .builtInDialog),
            .schedule(at: second),
        ])
    }

    @Test("A stricter protection is a change of policy (rule 18): its new event carries its context, and the end brings the old policy's back")
    func stricterIsAPolicyChange() {
        var engine = MonitorEngine()
        _ = engine.handle(.beginProtection(id: 1, policy(.acknowledge, 3), context: code), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0)
        let actions = engine.handle(.beginProtection(id: 2, policy(.terminate, 5), context: payment), now: second / 2)
        #expect(actions.count == 5)
        #expect(actions.last == .schedule(at: second / 2 + second))
        #expect(actions[3] == .present(.terminate, remaining: 5, token: 2, button: .available, verdict: .unknown, tellsVerdict: false, context: payment, on: .builtInDialog))
        #expect(!actions.contains { if case .scene(let scene) = $0, case .context = scene.change { true } else { false } })
        let back = engine.handle(.endProtection(id: 2), now: second)
        #expect(back.contains(.present(.acknowledge, remaining: 3, token: 3, button: .hidden, verdict: .unknown, tellsVerdict: false, context: code, on: .builtInDialog)))
        #expect(engine.shownEvent?.context == code)
    }

    @Test("Fail closed: a context whose detail cleans to nothing still warns and still exits on time")
    func garbageDetailStillExits() {
        var engine = MonitorEngine()
        let garbage = CallMonitorContext(kind: .payment, detail: "\u{202E}\u{200B}\u{0000}")
        _ = engine.handle(.beginProtection(id: 1, policy(.terminate, 1), context: garbage), now: 0)
        let shown = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"))])), now: 0)
        #expect(shown[1] == .present(.terminate, remaining: 1, token: 1, button: .available, verdict: .unknown, tellsVerdict: false, context: CallMonitorContext(kind: .payment), on: .builtInDialog))
        let exit = engine.handle(.wake(), now: second)
        #expect(exit.last == .exit(code: 0))
    }
}

/// A delegate that records the contexts it is told, beside the calls of the seed's protocol.
@MainActor
final class ContextRecordingDelegate: CallMonitorDelegate, CallMonitorContextDelegate {
    let log: Log
    init(log: Log) { self.log = log }
    func callMonitorDidDetectCall(flow: CallMonitorFlow, initialRemaining: Int32, onUserAction: @escaping () -> Void) {
        log.add("detect \(flow) \(initialRemaining)")
    }
    func callMonitorCountdownTick(_ remaining: Int32) { log.add("tick \(remaining)") }
    func callMonitorDidEndCall() { log.add("end") }
    func callMonitorDidChangeContext(_ context: CallMonitorContext?) { log.add("context \(context.map(\.description) ?? "none")") }
}

@MainActor
@Suite("Context: what the monitor shows and tells (rule 29)", .nothingLeftScheduled)
struct ContextShownTests {
    @Test("The built-in dialog draws the kind line and the cleaned detail, and is redrawn when the context changes")
    func builtInDialogDraws() throws {
        let h = Harness()
        var frames: [SecurityAlert?] = []
        h.renderer.onChange = { frames.append($0) }
        let first = h.monitor.protect(withTerminateIn: 5, context: CallMonitorContext(kind: .payment, detail: "You are sending €2,000 to \u{202E}M."))
        try h.calls.incoming("A")
        let alert = try #require(h.renderer.current)
        #expect(alert.kindLine == "Your bank will never ask you to move money while you are on a call.")
        #expect(alert.detail == "You are sending €2,000 to M.")
        #expect(alert.contextKind == .payment)
        #expect(h.monitor.currentSecurityEvent?.context == CallMonitorContext(kind: .payment, detail: "You are sending €2,000 to M."))
        let second = h.monitor.protect(withTerminateIn: 5, context: CallMonitorContext(kind: .general, detail: "Review the payee."))
        let redrawn = try #require(h.renderer.current)
        #expect(redrawn.kindLine == nil && redrawn.detail == "Review the payee." && redrawn.remaining == 5 && redrawn.countdown == alert.countdown)
        #expect(frames.count == 2)
        second.end()
        first.end()
        #expect(h.outcomes.map(\.ending) == [.monitoringStopped])
    }

    @Test("A context delegate is told after the detect call and on each change; the countdown goes on as before")
    func delegateTold() throws {
        let h = Harness(callback: false)
        let delegate = ContextRecordingDelegate(log: h.log)
        h.monitor.setDelegate(delegate)
        let first = h.monitor.protect(withAcknowledgeIn: 2, context: CallMonitorContext(kind: .deviceChange, detail: "Adding iPad."))
        try h.calls.incoming("A")
        h.advance(1)
        let second = h.monitor.protect(withAcknowledgeIn: 2)
        h.advance(1)
        second.end()
        try h.calls.end("A")
        first.end()
        #expect(h.take() == [
            "0 detect acknowledge 2", "0 context deviceChange \"Adding iPad.\"",
            "1 tick 1", "1 context none",
            "2 tick 0", "2 context deviceChange \"Adding iPad.\"",
            "2 end",
        ])
    }

    @Test("The event snapshot's description names the kind")
    func snapshotDescription() {
        let event = CallMonitorSecurityEvent(
            flow: .terminate, remaining: 3, seconds: 5, startedAt: 0, isActionAvailable: true, isAcknowledgementRefused: false,
            wasScreenCaptured: false, context: CallMonitorContext(kind: .accountChange)
        )
        #expect(event.description == "terminate 3/5 action=true refused=false captured=false context=accountChange")
        #expect(event != CallMonitorSecurityEvent(
            flow: .terminate, remaining: 3, seconds: 5, startedAt: 0, isActionAvailable: true, isAcknowledgementRefused: false,
            wasScreenCaptured: false
        ))
    }
}

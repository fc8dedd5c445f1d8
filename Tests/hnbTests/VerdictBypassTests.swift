// Split out of VerdictTests.swift so that each file holds one suite, named as the file (issue 39).

import Foundation
import Testing
@testable import hnb
import hnbTesting

/// How a verifier behaves in the bypass tests.
enum VerifierBehaviour: String, CaseIterable, Sendable, CustomStringConvertible {
    case never, late, twice, bankIsCalling, bankIsNotCalling, atOnce
    var description: String { rawValue }

    var script: [ScriptedCallVerifier.Answer] {
        switch self {
        case .never: []
        case .late: [.init(.bankIsNotCalling, afterSeconds: 4)]
        case .twice: [.init(.bankIsNotCalling, afterSeconds: 0.25), .init(.bankIsCalling, afterSeconds: 0.5)]
        case .bankIsCalling: [.init(.bankIsCalling, afterSeconds: 0.5)]
        case .bankIsNotCalling: [.init(.bankIsNotCalling, afterSeconds: 0.5)]
        case .atOnce: [.init(.bankIsCalling)]
        }
    }
}

@MainActor
@Suite("Verdict: bypass attempts (rule 23)", .nothingLeftScheduled)
struct VerdictBypassTests {
    /// Runs one story and returns everything observable but the verdict itself: delegate calls,
    /// dialog frames, taps, exits and outcome endings, with their times.
    private func story(_ flow: CallMonitorFlow, delegate: Bool, _ behaviour: VerifierBehaviour?) throws -> [String] {
        let v = VerdictHarness(script: behaviour?.script, withVerdicts: false)
        v.h.monitor.setCallVerifierBudget(2)
        let recorder = v.h.delegate()
        if delegate { v.h.monitor.setDelegate(recorder) }
        // Close App would exit at once; the terminate story lets its countdown run out instead.
        let tap = {
            guard flow == .acknowledge else { return }
            if delegate { recorder.lastAction?() } else { _ = v.h.renderer.tapButton() }
        }
        switch flow {
        case .terminate: v.h.monitor.startMonitoring(withTerminateIn: 6)
        case .acknowledge: v.h.monitor.startMonitoring(withAcknowledgeIn: 3)
        }
        try v.h.calls.incoming("A")
        v.h.advance(0.5)
        try v.h.calls.connect("A")
        v.h.advance(0.5)
        tap() // too early for acknowledge: refused either way
        v.h.advance(1)
        // A second call joins: the verifier is asked again.
        try v.h.calls.incoming("B")
        v.h.advance(1.75)
        tap() // acknowledge: accepted at 3.75, not earlier
        v.h.advance(1)
        try v.h.calls.incoming("C")
        v.h.advance(4)
        return Self.withoutVerdictRedraws(v.h.take())
    }

    /// The frames with the verdict-only redraws left out: a dialog frame whose countdown, button and
    /// flow are those of the frame before it (the verdict's line is not in these lines) shows no
    /// change of timing, so the two runs are compared on everything else.
    static func withoutVerdictRedraws(_ lines: [String]) -> [String] {
        var lastFrame: Substring?
        return lines.filter { line in
            let content = line.drop { $0 != " " }
            if content.hasPrefix(" dismiss") { lastFrame = nil }
            guard content.hasPrefix(" alert") else { return true }
            defer { lastFrame = content }
            return content != lastFrame
        }
    }

    @Test("Rule 23: no verifier behaviour changes any delegate call, frame, tap, exit or outcome, in either flow",
          arguments: [CallMonitorFlow.terminate, .acknowledge], VerifierBehaviour.allCases)
    func rule23_bypass(flow: CallMonitorFlow, behaviour: VerifierBehaviour) throws {
        for delegate in [false, true] {
            let without = try story(flow, delegate: delegate, nil)
            let with = try story(flow, delegate: delegate, behaviour)
            #expect(with == without, "\(flow) \(behaviour) delegate=\(delegate)")
            #expect(without.contains { $0.hasSuffix("exit 0") } == (flow == .terminate))
        }
    }

    @Test("Rule 23: the stories compared: terminate exits at 6, acknowledge is accepted at 3.75 and warns again for a new call")
    func rule23_referenceStories() throws {
        #expect(try story(.terminate, delegate: true, .bankIsCalling) == [
            "0 event ringing", "0 delegate detect terminate 6", "0.5 event started", "1 delegate tick 5", "2 delegate tick 4",
            "3 delegate tick 3", "4 delegate tick 2", "5 delegate tick 1", "6 delegate tick 0", "6 outcome forceExit lowest=0", "6 exit 0",
        ])
        #expect(try story(.acknowledge, delegate: true, .bankIsCalling) == [
            "0 event ringing", "0 delegate detect acknowledge 3", "0.5 event started", "1 delegate tick 2", "2 delegate tick 1",
            "3 delegate tick 0", "3.75 delegate end", "3.75 outcome acknowledged lowest=0",
            "4.75 delegate detect acknowledge 3", "5.75 delegate tick 2", "6.75 delegate tick 1", "7.75 delegate tick 0",
        ])
    }
}

// Issue 39, "One scene, no mirrors": the engine emits the whole scene of the event on screen each
// time it changes, and the built-in dialog draws from that value alone. These pin down the two
// changes that used to need a surface's own copy of the event: a switch of texts while the dialog
// is shown, and a verdict whose line is the one already drawn.

import Foundation
import Testing
@testable import hnb

@Suite("Scene: the engine's whole scene, drawn without a copy")
struct SceneTests {
    private let second = MonitorEngine.second

    /// An engine with a terminate event of 5 s on screen since 0 (token 1).
    private func shown(delegate: AnyObject? = nil) -> MonitorEngine {
        var engine = MonitorEngine()
        if let delegate = delegate as? any CallMonitorDelegate {
            _ = engine.handle(.setDelegate(WeakDelegate(delegate)), now: 0)
        }
        _ = engine.handle(.start(MonitorPolicy(flow: .terminate, requestedSeconds: 5)), now: 0)
        _ = engine.handle(.calls(.changes([CallSnapshot(id: CallID("A"), hasConnected: true)])), now: 0)
        return engine
    }

    @Test("New texts while the dialog shows an event: the engine has it drawn again, as it is now, after the texts are installed")
    func textsRedrawTheDialog() {
        var engine = shown()
        _ = engine.handle(.wake(), now: second)
        let german = CallMonitorStrings.localized(language: "de", appBundle: nil)
        #expect(engine.handle(.setStrings(german), now: second + second / 2) == [
            .install(.strings(german)),
            .scene(MonitorEngine.Scene(
                .texts, flow: .terminate, remaining: 4, token: 1, button: .available, verdict: .unknown, context: nil, on: .builtInDialog
            )),
        ])
    }

    @Test("New texts with nothing on the dialog (no event, or the event on a delegate) draw nothing")
    @MainActor
    func textsWithoutDialogDrawNothing() {
        let german = CallMonitorStrings.localized(language: "de", appBundle: nil)
        var idle = MonitorEngine()
        #expect(idle.handle(.setStrings(german), now: 0) == [.install(.strings(german))])
        let delegate = CountingDelegate(counter: EmissionCounter())
        var onDelegate = shown(delegate: delegate)
        #expect(onDelegate.shownEvent?.surface == .delegate)
        #expect(onDelegate.handle(.setStrings(german), now: 0) == [.install(.strings(german))])
        withExtendedLifetime(delegate) {}
    }

    @Test("The dialog draws a verdict scene only when the verdict's line changes; every other scene is drawn")
    @MainActor
    func verdictLineFilter() {
        let renderer = FrameCountingRenderer()
        let dialog = BuiltInDialog(renderer: renderer, strings: .english)
        func scene(_ change: MonitorEngine.Scene.Change, _ verdict: CallMonitorCallVerdict) -> MonitorEngine.Scene {
            MonitorEngine.Scene(change, flow: .terminate, remaining: 5, token: 1, button: .available, verdict: verdict, context: nil, on: .builtInDialog)
        }
        dialog.show(scene(.present(tellsVerdict: false), .unknown)) {}
        #expect(renderer.drawn.count == 1)
        // The budget's end over no answer: the same (absent) line, nothing to draw.
        dialog.show(scene(.verdict(previous: .unknown), .unknown)) {}
        #expect(renderer.drawn.count == 1)
        dialog.show(scene(.verdict(previous: .unknown), .bankIsNotCalling)) {}
        #expect(renderer.drawn.map(\.verdict) == [nil, "Your bank is not calling you. Hang up now."])
        dialog.show(scene(.verdict(previous: .bankIsNotCalling), .bankIsNotCalling)) {}
        #expect(renderer.drawn.count == 2)
        dialog.show(scene(.texts, .bankIsNotCalling)) {}
        #expect(renderer.drawn.count == 3)
    }
}

/// Keeps every alert a renderer is asked to draw.
@MainActor
private final class FrameCountingRenderer: SecurityAlertRenderer {
    private(set) var drawn: [SecurityAlert] = []
    func render(_ alert: SecurityAlert, onButton: @escaping @MainActor () -> Void) { drawn.append(alert) }
    func dismiss() {}
}

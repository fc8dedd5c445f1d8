// UIKitScreenCaptureSource, the file the phones run (Sources/hnb/Apple/UIKitScreenCaptureSource.swift),
// driven through the UIKit stand-in's screens and scenes: the exact capture states it delivers.
// The stand-in is a released iOS 17 SDK's UIKit, so the file's `canImport(UIKit, _version: 7059)`
// branch (the scene's capture trait) is the one compiled, as on the phones.

import Foundation
import Testing
import UIKit

@MainActor
@Suite("UIKitScreenCaptureSource on the stand-in device", .appleWorld)
struct UIKitScreenCaptureSourceTests {
    @Test("isCaptured reads the connected scenes: false, then true while the screen is recorded")
    func isCapturedReadsTheScenes() async {
        let source = UIKitScreenCaptureSource()
        var read = [source.isCaptured]
        await StandInSystem.setCaptured(true)
        read.append(source.isCaptured)
        await StandInSystem.setCaptured(false)
        read.append(source.isCaptured)
        #expect(read == [false, true, false])
    }

    @Test("a recording that starts and stops delivers exactly true, then false, on the main queue")
    func recordingStartsAndStops() async {
        let source = UIKitScreenCaptureSource()
        let got = Deliveries<Bool>()
        source.start(got.deliver)
        defer { source.stop() }
        await StandInSystem.setCaptured(true)
        await StandInSystem.setCaptured(false)
        await StandInSystem.setCaptured(true)
        #expect(got.values == [true, false, true])
        #expect(got.offMainQueue == 0)
    }

    @Test("scene notifications that change nothing deliver nothing")
    func unchangedAnswerDeliversNothing() async {
        let source = UIKitScreenCaptureSource()
        let got = Deliveries<Bool>()
        source.start(got.deliver)
        defer { source.stop() }
        let second = await StandInSystem.connectScene()
        await StandInSystem.resignActive()
        await StandInSystem.becomeActive()
        await StandInSystem.disconnect(second)
        #expect(got.values == [])
    }

    @Test("the scene's capture trait decides (iOS 17), even when its screen's isCaptured says no")
    func sceneCaptureTraitDecides() async throws {
        let scene = try #require(UIApplication.shared.connectedScenes.first as? UIWindowScene)
        let source = UIKitScreenCaptureSource()
        let got = Deliveries<Bool>()
        source.start(got.deliver)
        defer { source.stop() }
        StandInSystem.setSceneCaptureState(.active, of: scene)
        // UIKit posts nothing for a trait change; the next scene notification re-reads it.
        await StandInSystem.resignActive()
        await StandInSystem.becomeActive()
        #expect(got.values == [true])
        #expect(source.isCaptured)
        #expect(!StandInSystem.mainScreen.isCaptured)
    }

    @Test("an external display's scene counts while captured; its disconnection ends the capture")
    func externalDisplay() async {
        let source = UIKitScreenCaptureSource()
        let got = Deliveries<Bool>()
        source.start(got.deliver)
        defer { source.stop() }
        let display = StandInSystem.externalScreen()
        let scene = await StandInSystem.connectScene(on: display)
        await StandInSystem.setCaptured(true, screen: display)
        #expect(got.values == [true])
        await StandInSystem.disconnect(scene)
        #expect(got.values == [true, false])
    }

    @Test("a recording that began while the app was suspended is delivered on the return to the foreground")
    func captureBeganWhileSuspended() async {
        let source = UIKitScreenCaptureSource()
        let got = Deliveries<Bool>()
        source.start(got.deliver)
        defer { source.stop() }
        await StandInSystem.enterBackground()
        StandInSystem.suspend()
        await StandInSystem.setCaptured(true)
        #expect(got.values == [])
        await StandInSystem.enterForeground()
        #expect(got.values == [true])
    }

    @Test("a return under a call's screen (foreground, not active) already sees a recording begun while suspended")
    func captureSeenOnAnInactiveReturn() async {
        let source = UIKitScreenCaptureSource()
        let got = Deliveries<Bool>()
        source.start(got.deliver)
        defer { source.stop() }
        await StandInSystem.enterBackground()
        StandInSystem.suspend()
        await StandInSystem.setCaptured(true)
        await StandInSystem.enterForeground(thenActive: false)
        #expect(UIApplication.shared.applicationState == .inactive)
        #expect(got.values == [true])
    }

    @Test("stop leaves no notification token; a restart compares with the state at its own start")
    func stopLeavesNothingBehind() async {
        let source = UIKitScreenCaptureSource()
        let first = Deliveries<Bool>()
        source.start(first.deliver)
        source.stop()
        await StandInSystem.setCaptured(true)
        let second = Deliveries<Bool>()
        source.start(second.deliver)
        let third = Deliveries<Bool>()
        source.start(third.deliver)
        await StandInSystem.setCaptured(false)
        source.stop()
        await StandInSystem.setCaptured(true)
        #expect(first.values == [])
        #expect(second.values == [])
        #expect(third.values == [false])
    }
}

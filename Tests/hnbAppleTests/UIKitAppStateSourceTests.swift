// UIKitAppStateSource, the file the phones run (Sources/hnb/Apple/UIKitAppStateSource.swift),
// driven through the UIKit stand-in's life cycle: the exact states it reports and delivers.

import Foundation
import Testing
import UIKit

@MainActor
@Suite("UIKitAppStateSource on the stand-in device", .appleWorld)
struct UIKitAppStateSourceTests {
    @Test("isForeground: active and inactive (a call's screen over the app) are foreground, background is not")
    func isForegroundReadsTheState() async {
        let source = UIKitAppStateSource()
        var read = [source.isForeground]
        await StandInSystem.resignActive()
        read.append(source.isForeground)
        await StandInSystem.enterBackground()
        read.append(source.isForeground)
        StandInSystem.suspend()
        read.append(source.isForeground)
        await StandInSystem.enterForeground()
        read.append(source.isForeground)
        #expect(read == [true, true, false, false, true])
    }

    @Test("background, suspension and return deliver exactly false, then true")
    func backgroundSuspensionAndReturn() async {
        let source = UIKitAppStateSource()
        let got = Deliveries<Bool>()
        source.start(got.deliver)
        defer { source.stop() }
        await StandInSystem.enterBackground()
        #expect(got.values == [false])
        StandInSystem.suspend()
        await StandInSystem.enterForeground()
        #expect(got.values == [false, true])
        await StandInSystem.enterBackground()
        await StandInSystem.enterForeground()
        #expect(got.values == [false, true, false, true])
        #expect(got.offMainQueue == 0)
    }

    @Test("an interruption (inactive and back) delivers nothing: the app stays in the foreground")
    func interruptionDeliversNothing() async {
        let source = UIKitAppStateSource()
        let got = Deliveries<Bool>()
        source.start(got.deliver)
        defer { source.stop() }
        await StandInSystem.resignActive()
        await StandInSystem.becomeActive()
        #expect(got.values == [])
    }

    @Test("stop leaves no notification token; a restart delivers each change once, to the new run")
    func stopLeavesNothingBehind() async {
        let source = UIKitAppStateSource()
        let first = Deliveries<Bool>()
        source.start(first.deliver)
        source.stop()
        await StandInSystem.enterBackground()
        let second = Deliveries<Bool>()
        source.start(second.deliver)
        let third = Deliveries<Bool>()
        source.start(third.deliver)
        await StandInSystem.enterForeground()
        source.stop()
        await StandInSystem.enterBackground()
        #expect(first.values == [])
        #expect(second.values == [])
        #expect(third.values == [true])
    }
}

// CallKitCallSource, the file the phones run (Sources/hnb/Apple/CallKitCallSource.swift), driven
// through the CallKit and UIKit stand-ins: the exact batches it delivers, when, and what it leaves
// behind when stopped.

import CallKit
import Dispatch
import Foundation
import Testing
import UIKit
import hnbTesting

@MainActor
@Suite("CallKitCallSource on the stand-in device", .appleWorld)
struct CallKitCallSourceTests {
    let phone = StandInPhone.shared

    @Test("start delivers the complete list CallKit holds, at once, on the main queue")
    func startDeliversTheList() {
        let live = StandInPhone.Call(uuid: callUUID(1), hasConnected: true)
        phone.update(live)
        let source = CallKitCallSource()
        let got = Deliveries<CallBatch>()
        source.start(got.deliver)
        defer { source.stop() }
        #expect(got.values == [.complete([snapshot(live)])])
        #expect(got.offMainQueue == 0)
    }

    @Test("a snapshot copies each of CXCall's five fields")
    func snapshotCopiesEveryField() {
        let calls = [
            StandInPhone.Call(uuid: callUUID(1), isOutgoing: true),
            StandInPhone.Call(uuid: callUUID(2), hasConnected: true),
            StandInPhone.Call(uuid: callUUID(3), hasConnected: true, isOnHold: true),
            StandInPhone.Call(uuid: callUUID(4), hasEnded: true),
        ]
        for call in calls { phone.update(call) }
        let source = CallKitCallSource()
        let got = Deliveries<CallBatch>()
        source.start(got.deliver)
        defer { source.stop() }
        #expect(got.values == [.complete([
            CallSnapshot(id: CallID(callUUID(1)), isOutgoing: true),
            CallSnapshot(id: CallID(callUUID(2)), hasConnected: true),
            CallSnapshot(id: CallID(callUUID(3)), hasConnected: true, isOnHold: true),
            CallSnapshot(id: CallID(callUUID(4)), hasEnded: true),
        ])])
    }

    @Test("each change CallKit tells is delivered as the whole list of that moment")
    func changeDeliversTheWholeList() async {
        let first = StandInPhone.Call(uuid: callUUID(1), hasConnected: true)
        phone.update(first)
        let source = CallKitCallSource()
        let got = Deliveries<CallBatch>()
        source.start(got.deliver)
        defer { source.stop() }
        let second = StandInPhone.Call(uuid: callUUID(2))
        phone.update(second)
        await got.wait(forCount: 2)
        await drainMain()
        #expect(got.values == [.complete([snapshot(first)]), .complete([snapshot(first), snapshot(second)])])
        #expect(got.offMainQueue == 0)
    }

    @Test("an end told after CallKit dropped the call from its list is still delivered, as ended")
    func endOfADroppedCallIsDelivered() async {
        let call = StandInPhone.Call(uuid: callUUID(1), hasConnected: true)
        phone.update(call)
        let source = CallKitCallSource()
        let got = Deliveries<CallBatch>()
        source.start(got.deliver)
        defer { source.stop() }
        phone.end(call.uuid, keptInList: false)
        await got.wait(forCount: 2)
        await drainMain()
        var ended = snapshot(call)
        ended.hasEnded = true
        #expect(got.values == [.complete([snapshot(call)]), .complete([ended])])
    }

    @Test("changes told while the main thread is busy are delivered once it is free, each as the list of then")
    func changesWhileMainIsBusy() async {
        let source = CallKitCallSource()
        let got = Deliveries<CallBatch>()
        source.start(got.deliver)
        defer { source.stop() }
        let a = StandInPhone.Call(uuid: callUUID(1))
        let b = StandInPhone.Call(uuid: callUUID(2), isOutgoing: true)
        // The main thread is held while the system's side changes the calls twice; CallKit tells
        // the delegate of each change on the main queue, so both wait until it is free.
        let changed = DispatchSemaphore(value: 0)
        let phone = phone
        DispatchQueue.global().async {
            phone.update(a)
            phone.update(b)
            changed.signal()
        }
        #expect(changed.wait(timeout: .now() + patience) == .success)
        #expect(got.values == [.complete([])])
        await got.wait(forCount: 3)
        await drainMain()
        #expect(got.values == [.complete([]), .complete([snapshot(a), snapshot(b)]), .complete([snapshot(a), snapshot(b)])])
        #expect(got.offMainQueue == 0)
    }

    @Test("an interruption's return (didBecomeActive) re-reads the list")
    func becomeActiveReReads() async {
        let source = CallKitCallSource()
        let got = Deliveries<CallBatch>()
        source.start(got.deliver)
        defer { source.stop() }
        await StandInSystem.resignActive()
        #expect(got.values == [.complete([])])
        let call = StandInPhone.Call(uuid: callUUID(1), hasConnected: true)
        StandInPhone.shared.setAppSuspended(true)   // a change not told, for any reason
        phone.update(call)
        StandInPhone.shared.setAppSuspended(false)
        await StandInSystem.becomeActive()
        #expect(got.values == [.complete([]), .complete([snapshot(call)])])
    }

    @Test("a call that began while the app was suspended is delivered on the return: willEnterForeground, then didBecomeActive")
    func resumeReReadsTheList() async {
        let source = CallKitCallSource()
        let got = Deliveries<CallBatch>()
        source.start(got.deliver)
        defer { source.stop() }
        await StandInSystem.enterBackground()
        StandInSystem.suspend()
        let call = StandInPhone.Call(uuid: callUUID(1), hasConnected: true)
        phone.update(call)
        await drainMain()
        #expect(got.values == [.complete([])])
        await StandInSystem.enterForeground()
        // What the app saw, in UIKit's order (nothing while it was suspended).
        #expect(StandInSystem.posted == [
            UIScene.willDeactivateNotification, UIApplication.willResignActiveNotification,
            UIScene.didEnterBackgroundNotification, UIApplication.didEnterBackgroundNotification,
            UIScene.willEnterForegroundNotification, UIApplication.willEnterForegroundNotification,
            UIScene.didActivateNotification, UIApplication.didBecomeActiveNotification,
        ])
        #expect(got.values == [.complete([]), .complete([snapshot(call)]), .complete([snapshot(call)])])
    }

    @Test("refresh delivers the list synchronously while running, and nothing once stopped")
    func refreshReadsNow() {
        let source = CallKitCallSource()
        let got = Deliveries<CallBatch>()
        source.start(got.deliver)
        let call = StandInPhone.Call(uuid: callUUID(1), isOutgoing: true)
        StandInPhone.shared.setAppSuspended(true)   // the change is not told: only a read sees it
        phone.update(call)
        StandInPhone.shared.setAppSuspended(false)
        source.refresh()
        #expect(got.values == [.complete([]), .complete([snapshot(call)])])
        source.stop()
        source.refresh()
        #expect(got.values == [.complete([]), .complete([snapshot(call)])])
    }

    @Test("stop leaves no delegate and no notification token; a restart observes once")
    func stopLeavesNothingBehind() async {
        let source = CallKitCallSource()
        let first = Deliveries<CallBatch>()
        source.start(first.deliver)
        #expect(phone.observersWithDelegate == 1)
        source.stop()
        #expect(phone.observersWithDelegate == 0)
        let call = StandInPhone.Call(uuid: callUUID(1))
        phone.update(call)
        await StandInSystem.resignActive()
        await StandInSystem.becomeActive()
        await drainMain()
        #expect(first.values == [.complete([])])

        let second = Deliveries<CallBatch>()
        source.start(second.deliver)
        // A start while running starts again: the first run's delegate and tokens go.
        let third = Deliveries<CallBatch>()
        source.start(third.deliver)
        #expect(phone.observersWithDelegate == 1)
        await StandInSystem.resignActive()
        await StandInSystem.becomeActive()
        await drainMain()
        source.stop()
        #expect(phone.observersWithDelegate == 0)
        #expect(first.values == [.complete([])])
        #expect(second.values == [.complete([snapshot(call)])])
        #expect(third.values == [.complete([snapshot(call)]), .complete([snapshot(call)])])
    }

    @Test("CallKitCallSource passes every conformance check, with the calls changed from another thread")
    func conformance() async {
        let phone = phone
        let next = Locked(100)
        let results = await CallSourceConformance.run(CallSourceConformance.Driver(
            makeSource: { CallKitCallSource() },
            placeCall: { _ in
                let uuid = callUUID(next.withLock { $0 += 1; return $0 })
                await Task.detached { phone.update(StandInPhone.Call(uuid: uuid, hasConnected: true)) }.value
                return CallID(uuid)
            },
            endCall: { _, id in
                let uuid = UUID(uuidString: id.rawValue)!
                await Task.detached { phone.end(uuid) }.value
            },
            patience: patience,
            quietPeriod: 0.05
        ))
        #expect(results.map(\.description) == [
            "PASS the first delivery after start is a complete list",
            "PASS start delivers the calls already in progress",
            "PASS a call placed and ended while started is reported",
            "PASS stop then start reports the calls in progress again",
            "PASS nothing is delivered after stop",
            "PASS deliveries never overlap",
        ])
    }
}

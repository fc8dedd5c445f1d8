// Split out of RiskTests.swift so that each file holds one suite, named as the file (issue 39).

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting

#if canImport(Observation)
import Observation

#endif
@MainActor
@Suite("Event streams", .nothingLeftScheduled)
struct EventStreamTests {
    @Test("Independent subscribers each get every event from the moment they subscribe, whatever the callback")
    func independentSubscribers() async throws {
        let h = Harness(logsOutcomes: true)
        h.monitor.setCallback(nil)
        let early = h.monitor.events
        h.monitor.startMonitoring(withAcknowledgeIn: 0)
        try h.calls.incoming("A")
        let late = h.monitor.events
        try h.calls.connect("A")
        try h.calls.end("A")
        var earlyEvents: [CallEvent] = []
        for await event in early {
            earlyEvents.append(event)
            if earlyEvents.count == 3 { break }
        }
        var lateEvents: [CallEvent] = []
        for await event in late {
            lateEvents.append(event)
            if lateEvents.count == 2 { break }
        }
        #expect(earlyEvents == [.ringing, .started, .ended])
        #expect(lateEvents == [.started, .ended])
    }

    @Test("A subscriber that stops is removed: cancelling the task, or dropping the stream")
    func cleanup() async throws {
        let h = Harness(logsOutcomes: true)
        let feed = h.monitor.core.eventFeed
        let task = Task { @MainActor in
            var seen = 0
            for await _ in h.monitor.events { seen += 1 }
            return seen
        }
        // Let the task subscribe and wait.
        while feed.subscriberCountForTesting == 0 { await Task.yield() }
        #expect(feed.subscriberCountForTesting == 1)
        task.cancel()
        #expect(await task.value == 0)
        #expect(feed.subscriberCountForTesting == 0)
        do {
            let dropped = h.monitor.events
            #expect(feed.subscriberCountForTesting == 1)
            _ = dropped
        }
        #expect(feed.subscriberCountForTesting == 0)
        let outcomes = h.monitor.core.outcomeFeed
        do { _ = h.monitor.outcomes }
        #expect(outcomes.subscriberCountForTesting == 0)
    }
}

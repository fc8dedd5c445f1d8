// `applyPolicy(document:)` runs its document now, through `CommandQueue.runNow`, and reads its
// answer from that step (issue 39). "Now" still means after what other threads sent before it:
// a key set or a call delivered from a background thread that waits in the mailbox is carried
// out first, or the document would be judged against a monitor that had not heard of it yet.

import Dispatch
import Foundation
import Testing
@testable import hnb

@MainActor
@Suite("Command queue: runNow comes after what other threads sent before it")
struct RunNowOrderTests {
    /// Runs `post` on a thread of its own and waits for it here, on the main thread, so the drain
    /// it schedules cannot run before this test's next line.
    func postWhileMainWaits(_ post: @escaping @Sendable () -> Void) {
        let posted = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            post()
            posted.signal()
        }
        posted.wait()
    }

    @Test("Commands waiting in the mailbox run before runNow's command, its answer is its own step's, and what the step posts follows it")
    func mailboxFirst() {
        let queue = CommandQueue()
        var applied: [String] = []
        queue.process = { applied.append($0.label) }
        postWhileMainWaits { queue.post(.callDetection(false)); queue.post(.stop) }
        #expect(applied == [])
        let answer = queue.runNow(.callDetection(true)) { command -> String in
            applied.append("now: " + command.label)
            // Posted from inside the step: it waits its turn, after the step.
            queue.post(.wake())
            return command.label
        }
        #expect(answer == "detection true")
        #expect(applied == ["detection false", "stop", "now: detection true", "wake 0"])
    }

    @Test("runNow from inside a command carries out nothing and answers nil")
    func busyAnswersNil() {
        let queue = CommandQueue()
        var applied: [String] = []
        var inner: String?? = .none
        queue.process = { command in
            applied.append(command.label)
            if case .stop = command {
                inner = .some(queue.runNow(.callDetection(true)) { $0.label })
            }
        }
        queue.submit(.stop)
        #expect(inner == .some(nil))
        #expect(applied == ["stop"])
    }
}

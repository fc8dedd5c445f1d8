// Each lock of the library, raced for real: threads that run free against one another for a
// while, with nothing between them but the code under test. CI runs this suite under Thread
// Sanitizer, and removing any one of these locks makes that step fail (scripts/mutate keeps the
// lock-removal mutants; CONTRIBUTING.md says how to run them).
//
// Why not through the monitor: the monitor's other locks (the scheduler's clock, the mailbox)
// and its main-queue hops order the threads' accesses, so a missing lock in one part is hidden
// by another. Here the worker threads share no lock, semaphore or queue during the race: each
// measures its own deadline, keeps its own tallies, and hands them over only after it stopped.

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting

/// One value per worker, each written by its own worker before it finishes and read after all
/// have. `@unchecked Sendable`: slot `i` is only written by worker `i`, and read once the
/// `DispatchGroup` the workers leave has been waited for (that wait orders the accesses). Each
/// slot is an object of its own: writing elements of one Swift array from two threads would be a
/// race on the array itself.
final class WorkerSlots<Value>: @unchecked Sendable {
    private final class Slot { var value: Value? }
    private let slots: [Slot]
    init(_ count: Int) { slots = (0..<count).map { _ in Slot() } }
    subscript(index: Int) -> Value? {
        get { slots[index].value }
        set { slots[index].value = newValue }
    }
}

/// When the race ends. `@unchecked Sendable`: `end` is written once by the coordinator before
/// it releases the workers (a semaphore signal), and only read after that.
final class RaceDeadline: @unchecked Sendable {
    fileprivate(set) var end: UInt64 = 0
    /// Whether the race is still on, read on the worker's own clock.
    var isOpen: Bool { DispatchTime.now().uptimeNanoseconds < end }
    /// Whether the race is 30 s past its end: a worker that goes on past the deadline until it has
    /// done its least (a loaded machine may starve it through the whole race) stops here, so that
    /// broken code fails the test's checks instead of hanging it.
    var isOverdue: Bool { DispatchTime.now().uptimeNanoseconds >= end &+ 30_000_000_000 }
}

/// Runs each body on a thread of its own, all released together, for `seconds`. A body loops
/// while `deadline.isOpen`. Plain threads, not tasks or the global queue: spinning bodies must not
/// wait for a pool that other suites keep busy.
func runFree(seconds: Double, _ bodies: [@Sendable (_ worker: Int, _ deadline: RaceDeadline) -> Void]) async {
    let deadline = RaceDeadline()
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for (index, body) in bodies.enumerated() {
        done.enter()
        let thread = Thread {
            ready.signal()
            go.wait()
            body(index, deadline)
            done.leave()
        }
        thread.start()
    }
    let count = bodies.count
    let coordinator = Thread {
        for _ in 0..<count { ready.wait() }
        deadline.end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        for _ in 0..<count { go.signal() }
    }
    coordinator.start()
    await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
        done.notify(queue: .global()) { finished.resume() }
    }
}

/// How long each race runs. Under Thread Sanitizer a loop turns some ten times slower; half a
/// second still gives each body thousands of rounds against the others.
private let raceSeconds = 0.5
/// The signal board's race runs longer: its torn read is the test's only evidence (see there).
private let boardRaceSeconds = 2.0

// Serialized: five races at once would put some twenty spinning threads on two cores, and a
// thread preempted while it holds a lock starves the others of the race.
@Suite("Lock races (run under Thread Sanitizer in CI)", .serialized, .nothingLeftScheduled)
struct LockRaceTests {
    // MARK: Signal board

    // Why this test checks torn reads itself instead of leaving the race to the Thread Sanitizer:
    // TSan stays silent when this lock is removed (mutant lock-removed-signal-board), though it
    // reports the other locks' races. `Locked<Value>` is generic and a debug build does not
    // specialize it, so every copy of the snapshot in and out of it goes through the value
    // witness of `RiskSnapshot`. That type is plain data, and for plain data the compiler's value
    // witness is a shared `__swift_memcpyN_M` helper emitted without the `sanitize_thread`
    // attribute: its copy is never instrumented, so TSan sees neither the write nor the read. The
    // other locks guard arrays and dictionaries, whose mutation runs in instrumented code.
    @Test("Signal board: readers that never wait see only whole snapshots, in order, while the writer publishes")
    func signalBoard() async {
        let board = SignalBoard(clock: nil)
        struct Seen { var reads = 0; var distinct = 0; var torn = 0; var backwards = 0; var recentWrong = 0 }
        let seen = WorkerSlots<Seen>(1)
        let published = WorkerSlots<Int64>(1)
        // The writer publishes at least 101 snapshots and until the reader has seen two, past the
        // deadline if it must; the reader reads while the writer writes. How much a thread does in
        // two seconds of real clock is not this test's to judge: a loaded machine can starve one.
        let writing = Locked(1)
        let readerSawTwo = Locked(false)
        let writer: @Sendable (Int, RaceDeadline) -> Void = { _, deadline in
            var step: Int64 = 0
            while deadline.isOpen || (step <= 100 || !readerSawTwo.value) && !deadline.isOverdue {
                step += 1
                // Every field derives from `step`: a reader that sees fields of two snapshots at
                // once can tell.
                board.publish(RiskSnapshot(
                    isMonitoring: step % 2 == 0, callState: step % 3 == 0 ? .idle : .started,
                    isScreenCaptured: step % 2 == 1, event: nil, lastSessionEndedAt: step, publishedAt: step
                ))
            }
            published[0] = step
            writing.withLock { $0 -= 1 }
        }
        let reader: @Sendable (Int, RaceDeadline) -> Void = { worker, deadline in
            var tally = Seen()
            var last: Int64 = -1
            while deadline.isOpen || writing.value > 0 {
                let snapshot = board.current
                let step = snapshot.publishedAt
                tally.reads += 1
                if step != last {
                    tally.distinct += 1
                    if tally.distinct == 2 { readerSawTwo.withLock { $0 = true } }
                }
                if step < last { tally.backwards += 1 }
                last = step
                if step > 0 {
                    let whole = snapshot.lastSessionEndedAt == step && snapshot.isMonitoring == (step % 2 == 0)
                        && snapshot.isScreenCaptured == (step % 2 == 1) && snapshot.callState == (step % 3 == 0 ? .idle : .started)
                    if !whole { tally.torn += 1 }
                }
                // A call live in a snapshot read before is live "within" any window after.
                if snapshot.callState != .idle, !board.wasCallLive(withinNanoseconds: 0) { tally.recentWrong += 1 }
            }
            seen[worker - 1] = tally
        }
        // One reader, not three, and a longer race: on two cores the writer and the reader then
        // run side by side nearly all the time, so a write without the lock tears a read within
        // the race (with three readers the writer ran half the time and a publish-only mutant
        // survived one run in three).
        await runFree(seconds: boardRaceSeconds, [writer, reader])
        let tallies = (0..<1).compactMap { seen[$0] }
        #expect(tallies.count == 1)
        #expect((published[0] ?? 0) > 100, "the writer published too little to race")
        for tally in tallies {
            #expect(tally.torn == 0)
            #expect(tally.backwards == 0)
            #expect(tally.recentWrong == 0)
            // Proof that the reader ran while the writer did: it saw the snapshot change.
            #expect(tally.distinct > 1, "a reader saw one snapshot only: the threads did not overlap")
        }
        #expect(board.current.publishedAt == published[0])
    }

    // MARK: Mailbox

    @Test("Mailbox: two posting threads and a draining one lose, repeat and reorder nothing")
    func mailbox() async {
        let box = Mailbox()
        struct Posted { var actions = 0; var callIDs: [String] = []; var drainRequests = 0 }
        struct Drained { var commands: [MonitorEngine.Input] = []; var nonEmptyTakes = 0 }
        let posted = WorkerSlots<Posted>(2)
        let drained = WorkerSlots<Drained>(1)
        // Each poster posts at least 101 actions and until the drainer has taken three bursts,
        // past the deadline if it must; the drainer takes while any poster posts (see the signal
        // board's race for why).
        let posting = Locked(2)
        let drainerTookThree = Locked(false)
        let poster: @Sendable (Int, RaceDeadline) -> Void = { worker, deadline in
            var mine = Posted()
            while deadline.isOpen || (mine.actions <= 100 || !drainerTookThree.value) && !deadline.isOverdue {
                // Distinct tokens: none coalesces with another, and a fold keeps each one.
                if box.post(.userAction(token: UInt64(worker) << 32 | UInt64(mine.actions))) { mine.drainRequests += 1 }
                mine.actions += 1
                if mine.actions % 16 == 0 {
                    let id = "\(worker)-\(mine.actions)"
                    mine.callIDs.append(id)
                    if box.post(calls: .changes([CallSnapshot(id: CallID(id))]), generation: 1) { mine.drainRequests += 1 }
                    if box.post(isForeground: mine.actions % 32 == 0, generation: 1) { mine.drainRequests += 1 }
                }
            }
            posted[worker] = mine
            posting.withLock { $0 -= 1 }
        }
        await runFree(seconds: raceSeconds, [
            poster, poster,
            { _, deadline in
                var mine = Drained()
                while deadline.isOpen || posting.value > 0 {
                    let taken = box.takeAll()
                    if !taken.isEmpty {
                        mine.nonEmptyTakes += 1
                        if mine.nonEmptyTakes == 3 { drainerTookThree.withLock { $0 = true } }
                    }
                    mine.commands += taken
                }
                drained[0] = mine
            },
        ])
        guard let first = posted[0], let second = posted[1], var drain = drained[0] else {
            Issue.record("a worker did not report")
            return
        }
        let rest = box.takeAll()
        if !rest.isEmpty { drain.nonEmptyTakes += 1 }
        drain.commands += rest
        var tokens: [[UInt64]] = [[], []]
        var callIDs: [Set<String>] = [[], []]
        for command in drain.commands {
            switch command {
            case .userAction(let token): tokens[Int(token >> 32)].append(token & 0xFFFF_FFFF)
            case .calls(let batch, _):
                for call in batch.calls { callIDs[Int(call.id.rawValue.prefix(1))!].insert(call.id.rawValue) }
            default: break
            }
        }
        // Every action exactly once, in the order posted; every call reported.
        #expect(tokens[0] == (0..<UInt64(first.actions)).map { $0 })
        #expect(tokens[1] == (0..<UInt64(second.actions)).map { $0 })
        #expect(callIDs[0] == Set(first.callIDs))
        #expect(callIDs[1] == Set(second.callIDs))
        // One drain is asked for per burst taken: never two for one burst, never none.
        #expect(first.drainRequests + second.drainRequests == drain.nonEmptyTakes)
        // Proof of overlap: the drainer took some bursts while the posters were still posting.
        #expect(drain.nonEmptyTakes > 2, "the drainer took everything at once: the threads did not overlap")
        #expect(first.actions > 100 && second.actions > 100, "the posters posted too little to race: \(first.actions), \(second.actions), \(drain.nonEmptyTakes) takes")
    }

    // MARK: External call source

    @MainActor
    @Test("External call source: two senders and a reader keep one list, delivered to the listener in the order it changed")
    func externalCallSource() async {
        let source = ExternalCallSource()
        /// The listener's picture of the calls, rebuilt from what it was delivered.
        /// `@unchecked Sendable`: the source hands batches over from one thread at a time (so
        /// that deliveries come in the order the list changed), which this test checks; under
        /// Thread Sanitizer an overlapping delivery is a race on these fields.
        final class Picture: @unchecked Sendable {
            var calls: [CallID: CallSnapshot] = [:]
            var batches = 0
            /// Each sender's highest call number delivered so far: a lower one later would be an
            /// older change after a newer one.
            var highest = [-1, -1]
            var backwards = 0
            func apply(_ batch: CallBatch) {
                batches += 1
                if batch.isComplete { calls = [:] }
                for call in batch.calls {
                    calls[call.id] = call.hasEnded ? nil : call
                    let parts = call.id.rawValue.split(separator: "-")
                    guard let worker = Int(parts[0]), let number = Int(parts[1]) else { continue }
                    if number < highest[worker] { backwards += 1 }
                    highest[worker] = max(highest[worker], number)
                }
            }
        }
        let picture = Picture()
        source.start { picture.apply($0) }
        let sent = WorkerSlots<Int>(2)
        let reads = WorkerSlots<(reads: Int, distinct: Int)>(1)
        // Each sender sends at least 101 calls, past the deadline if it must, and the reader reads
        // while any sender still sends: how much a thread gets done in half a second of real
        // clock is not this test's to judge (a loaded machine starved one sender once).
        let sending = Locked(2)
        let sender: @Sendable (Int, RaceDeadline) -> Void = { worker, deadline in
            var count = 0
            while deadline.isOpen || count <= 100 {
                let id = CallID("\(worker)-\(count)")
                source.send([CallSnapshot(id: id)])
                // Every odd call ends at once: the even ones stay live.
                if count % 2 == 1 { source.send([CallSnapshot(id: id, hasEnded: true)]) }
                count += 1
            }
            sent[worker] = count
            sending.withLock { $0 -= 1 }
        }
        let reader: @Sendable (Int, RaceDeadline) -> Void = { _, deadline in
            var count = 0
            var sizes: Set<Int> = []
            while deadline.isOpen || sending.value > 0 {
                sizes.insert(source.liveCalls.count)
                count += 1
            }
            reads[0] = (count, sizes.count)
        }
        await runFree(seconds: raceSeconds, [sender, sender, reader])
        source.stop()
        guard let first = sent[0], let second = sent[1], let read = reads[0] else {
            Issue.record("a worker did not report")
            return
        }
        var expected: Set<String> = []
        for (worker, count) in [(0, first), (1, second)] {
            for index in stride(from: 0, to: count, by: 2) { expected.insert("\(worker)-\(index)") }
        }
        let live = source.liveCalls.map(\.id.rawValue)
        #expect(Set(live) == expected)
        #expect(live.count == expected.count)
        // Each sender's calls are listed in the order it reported them.
        for worker in 0..<2 {
            let mine = live.filter { $0.hasPrefix("\(worker)-") }.map { Int($0.dropFirst(2))! }
            #expect(mine == mine.sorted())
        }
        // The listener's picture, built from the deliveries in the order they came, is the list.
        #expect(Set(picture.calls.keys.map(\.rawValue)) == expected)
        // One delivery a send at most, and the start's complete list: a sender never waits for
        // another thread's delivery, so what it sends meanwhile joins the next batch that thread
        // hands over (issue 27).
        #expect(picture.batches >= 1 && picture.batches <= 1 + first + first / 2 + second + second / 2)
        #expect(picture.backwards == 0)
        #expect(picture.highest == [first - 1, second - 1])
        #expect(first > 100 && second > 100, "the senders stopped before their 101st call: \(first), \(second), \(read.reads) reads")
        #expect(read.distinct > 1, "the reader saw one list only: the threads did not overlap")
    }

    // MARK: Broadcaster

    @Test("Broadcaster: subscribers come and go on one thread while another yields; each kept one gets every element from its start")
    func broadcaster() async {
        let broadcaster = Broadcaster<Int>()
        let yielded = WorkerSlots<Int>(1)
        let kept = WorkerSlots<[AsyncStream<Int>]>(1)
        let counted = WorkerSlots<Int>(1)
        // The yielder yields at least 101 elements and while the subscribing thread works, which
        // goes on until it has kept a subscriber, past the deadline if they must; the counter
        // reads while the yielder yields (see the signal board's race for why).
        let yielding = Locked(1)
        let subscribing = Locked(1)
        await runFree(seconds: raceSeconds, [
            { _, deadline in
                var next = 0
                while deadline.isOpen || (next <= 100 || subscribing.value > 0) && !deadline.isOverdue {
                    broadcaster.yield(next)
                    next += 1
                }
                yielded[0] = next
                yielding.withLock { $0 -= 1 }
            },
            { _, deadline in
                var streams: [AsyncStream<Int>] = []
                var made = 0
                while deadline.isOpen || streams.isEmpty && !deadline.isOverdue {
                    let stream = broadcaster.subscribe()
                    made += 1
                    // A few are kept and read afterwards; the rest are dropped at once, which
                    // unsubscribes them from this thread while the other yields.
                    if made % 500 == 0 && streams.count < 4 { streams.append(stream) }
                }
                kept[0] = streams
                subscribing.withLock { $0 -= 1 }
            },
            { _, deadline in
                var reads = 0
                while deadline.isOpen || yielding.value > 0 { reads += broadcaster.subscriberCountForTesting }
                counted[0] = reads
            },
        ])
        guard let total = yielded[0], let streams = kept[0], counted[0] != nil else {
            Issue.record("a worker did not report")
            return
        }
        #expect(total > 100, "the yielding thread yielded too little to race")
        #expect(streams.count >= 1, "no subscriber was kept")
        #expect(broadcaster.subscriberCountForTesting == streams.count)
        // A last element from here, so that a stream kept after the last yield still ends.
        broadcaster.yield(total)
        for stream in streams {
            let received = await firstElements(of: stream, through: total, waitingAtMost: Patience.seconds)
            // From its first element on, nothing missing, nothing repeated, nothing out of order.
            // Compared as a count and a check, not as arrays: a failure would otherwise print a
            // diff of tens of thousands of elements, which takes minutes.
            let start = received.first ?? total
            let missing = received.count != total - start + 1 || !zip(received, start...).allSatisfy { $0 == $1 }
            #expect(!missing, "a kept subscriber got \(received.count) elements from \(start), not \(start) through \(total)")
        }
    }

    // MARK: Exit watchdog

    @Test("Exit watchdog: a disarm racing the firing queue decides exactly once per watchdog")
    func exitWatchdog() async throws {
        /// Counts firings. `@unchecked Sendable`: `count` is only touched under `lock`; the
        /// disarming thread never takes it, so it orders nothing between the racing threads.
        final class Firings: @unchecked Sendable {
            private let lock = NSLock()
            private var count = 0
            func add() { lock.withLock { count += 1 } }
            var value: Int { lock.withLock { count } }
        }
        let firings = Firings()
        let results = WorkerSlots<(made: Int, disarmed: Int)>(2)
        let disarmer: @Sendable (Int, RaceDeadline) -> Void = { worker, deadline in
            var made = 0
            var disarmed = 0
            // At least 101 watchdogs and until both orders happened on this thread (a disarm that
            // came first, one that came too late), past the deadline if it must; never more
            // than 20,000, whose firings the test then waits for.
            while made < 20_000, deadline.isOpen || (made <= 100 || disarmed == 0 || disarmed == made) && !deadline.isOverdue {
                // Budget 0: the firing block is queued at once and races the disarm below.
                let watchdog = ExitWatchdog(budgetNanoseconds: 0) { firings.add() }
                made += 1
                // A short spin of varying length, so that both orders happen.
                for _ in 0..<(made % 64) { _ = DispatchTime.now() }
                if watchdog.disarm() { disarmed += 1 }
            }
            results[worker] = (made, disarmed)
        }
        await runFree(seconds: raceSeconds, [disarmer, disarmer])
        guard let first = results[0], let second = results[1] else {
            Issue.record("a worker did not report")
            return
        }
        let made = first.made + second.made
        let disarmed = first.disarmed + second.disarmed
        // Every watchdog that was not disarmed in time fires exactly once; wait for the last.
        await Patience.wait(every: 0.001) { firings.value >= made - disarmed }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(firings.value == made - disarmed)
        #expect(made > 100, "too few watchdogs to race")
        // Both orders happened: some disarms came first, some firings did.
        #expect(disarmed > 0 && disarmed < made, "one side always won: the threads did not overlap")
    }
}

/// The elements of `stream` up to and including `last`, or those that came within `seconds` (a
/// broken broadcaster must fail the test, not hang it). The reader is cancelled, not awaited: a
/// stream that never ends must not keep the test waiting either.
func firstElements(of stream: AsyncStream<Int>, through last: Int, waitingAtMost seconds: Double) async -> [Int] {
    /// What the reader received. `@unchecked Sendable`: only touched under `lock`.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var elements: [Int] = []
        private var complete = false
        func add(_ element: Int, isLast: Bool) { lock.withLock { elements.append(element); complete = complete || isLast } }
        var snapshot: (elements: [Int], complete: Bool) { lock.withLock { (elements, complete) } }
    }
    let received = Received()
    let reader = Task {
        for await element in stream {
            received.add(element, isLast: element == last)
            if element == last { break }
        }
    }
    let deadline = Date().addingTimeInterval(seconds)
    while !received.snapshot.complete && Date() < deadline { try? await Task.sleep(nanoseconds: 1_000_000) }
    reader.cancel()
    return received.snapshot.elements
}

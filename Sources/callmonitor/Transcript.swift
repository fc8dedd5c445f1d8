// The transcript of a simulation (Simulation.swift): lines stamped with the virtual time, handed
// on as soon as they are final, with room to put a tap's line ahead of the effects it caused.

import hnbTesting

extension JSONLine {
    /// A transcript line: the virtual time in seconds, then the kind, then the fields of its kind.
    init(t: Int64, kind: String) {
        self.init()
        add("t", seconds: t)
        add("kind", kind)
    }
}

/// Collects transcript lines stamped with the virtual time, and hands each to `sink` as soon as
/// it is final, so a long scenario runs in flat memory and can be followed as it goes. Without a
/// sink, the lines are kept (for callers that want them all at the end).
@MainActor
final class Transcript {
    let scheduler: ManualScheduler
    /// Lines recorded and not yet handed to the sink (all of them when there is none).
    private var pending: [String] = []
    /// How many lines the sink has been given.
    private var handedOver = 0
    /// While set, lines wait in `pending`: a line may still be recorded ahead of them.
    private var holding = false
    private let sink: ((String) -> Void)?

    init(scheduler: ManualScheduler, sink: ((String) -> Void)? = nil) {
        self.scheduler = scheduler
        self.sink = sink
    }

    /// The lines kept, when there is no sink.
    var lines: [String] { pending }

    /// How many lines have been recorded so far.
    var count: Int { handedOver + pending.count }

    func record(_ kind: String, _ fill: (inout JSONLine) -> Void = { _ in }) {
        record(kind, at: count, fill)
    }

    /// Records a line before the ones recorded from `index` on, which must still be held (see
    /// ``holdingLines(_:)``): a tap is written ahead of the effects it caused, though whether it
    /// had any is known only afterwards.
    func record(_ kind: String, at index: Int, _ fill: (inout JSONLine) -> Void = { _ in }) {
        var line = JSONLine(t: scheduler.now, kind: kind)
        fill(&line)
        pending.insert(line.text, at: index - handedOver)
        flush()
    }

    /// Runs `body` with the lines it records held back, so that a line can still be put in front
    /// of them; hands them over afterwards.
    func holdingLines(_ body: () -> Void) {
        holding = true
        body()
        holding = false
        flush()
    }

    private func flush() {
        guard let sink, !holding, !pending.isEmpty else { return }
        for line in pending { sink(line) }
        handedOver += pending.count
        pending.removeAll(keepingCapacity: true)
    }
}

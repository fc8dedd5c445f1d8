// `callmonitor bench`: its option table and help; the report is Bench.swift's, the measurements are in
// BenchMeasurements.swift and BenchStorm.swift.

import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// What `bench`'s option says.
struct BenchOptions: CommandOptions {
    /// A few-second smoke run instead of the full measurement (`--quick`).
    var quick = false
}

struct BenchCommand: ToolCommand {
    let name = "bench"

    var options: OptionTable<BenchOptions> {
        OptionTable(words: .none("bench takes no arguments besides --quick"), [
            .flag("--quick", "a few-second smoke run (CI uses it to prove the tool works)") { $0.quick = true },
        ])
    }

    let summary = """
        Measures countdown precision, detection latency, engine throughput and idle cost with the
        production engine (build with -c release for real figures; --quick is a few-second smoke run).
        """

    let about = """
        Measures the production engine: countdown precision on the live scheduler against a naive chain
        of one-second delays, detection latency across threads, engine throughput, peak memory of this
        process, and idle cost. Prints a table and a last line 'BENCH {...}' with the figures as JSON.
        Build with -c release for real figures.
        """

    @MainActor
    func run(_ arguments: ArraySlice<String>) -> Never {
        let quick = parse(arguments).options.quick
        Task { @MainActor in
            await Bench.run(plan: quick ? .quick : .full, quick: quick)
            exit(0)
        }
        dispatchMain()
    }
}

// What the bench reports of a sample: median, p99 and maximum, and the rounding of a figure.

/// Milliseconds statistics of a sample.
struct Stats {
    let median: Double
    let p99: Double
    let max: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        func at(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            return sorted[Swift.min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))]
        }
        median = at(0.5)
        p99 = at(0.99)
        max = sorted.last ?? .nan
    }
}

/// A figure for the table, rounded as the BENCH line rounds it; `n/a` when it could not be measured.
func format(_ value: Double, _ digits: Int = 3) -> String {
    value.isFinite ? String(rounded(value, places: digits)) : "n/a"
}

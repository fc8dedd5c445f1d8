// "Did you mean …?" for misspelt subcommands, options and scenario words: the nearest known word
// by edit distance, offered only when it is close enough to be a typo rather than a guess.

package enum Suggestions {
    /// The candidate nearest to `word`, or nil when none is within a typo's reach.
    ///
    /// A typo is at most one edit in a short word and two in a longer one (more than five
    /// letters), so `ring` suggests nothing while `incomming` suggests `incoming`; an abbreviation
    /// of three letters or more that begins exactly one candidate (`ack`) suggests it.
    package static func nearest(to word: String, in candidates: [String]) -> String? {
        // An abbreviation (`ack`) is a typo of intent, not of spelling: three letters or more that
        // begin exactly one candidate name it.
        if word.count >= 3 {
            let prefixed = candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) && $0.count > word.count }
            if prefixed.count == 1 { return prefixed[0] }
        }
        let allowed = word.count > 5 ? 2 : 1
        var best: (word: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            guard distance <= allowed else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.word
    }

    /// `"; did you mean X?"`-style tail for an error message, or an empty string.
    package static func hint(for word: String, in candidates: [String]) -> String {
        nearest(to: word, in: candidates).map { ": did you mean \($0)?" } ?? ""
    }

    /// Edit distance with adjacent transpositions counted as one edit (optimal string alignment),
    /// because swapped letters (`--langauge`) are the commonest typo.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}

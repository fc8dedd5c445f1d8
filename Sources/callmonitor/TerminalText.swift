// Text as a terminal shows it: columns, ANSI colours left out, words wrapped to a width. Pure.

/// Word wrapping by terminal columns.
public enum TerminalText {
    /// The columns `text` takes in a terminal: one per character, none for ANSI escape
    /// sequences (colours). Every shipped language is written in scripts one column wide, and
    /// combining marks belong to their character already.
    public static func width(_ text: String) -> Int { stripped(text).count }

    /// `text` without its ANSI escape sequences (`ESC [ … final-letter`).
    public static func stripped(_ text: String) -> String {
        guard text.contains("\u{1B}") else { return text }
        var out = ""
        var inEscape = false
        var sawBracket = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if !sawBracket { sawBracket = scalar == "["; if !sawBracket { inEscape = false }; continue }
                if (0x40...0x7E).contains(scalar.value) { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" { inEscape = true; sawBracket = false; continue }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// `text` broken into lines at most `width` columns wide, at spaces; a word longer than a
    /// whole line is cut, since nothing else fits. Always at least one line.
    ///
    /// - Parameters:
    ///   - text: The text; runs of spaces between words collapse to one at a break.
    ///   - width: The line width; values below 1 are treated as 1.
    public static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            if current.isEmpty {
                // fallthrough to the cutting loop below
            } else if self.width(current) + 1 + self.width(word) <= width {
                current += " " + word
                continue
            } else {
                lines.append(current)
                current = ""
            }
            while self.width(word) > width {
                lines.append(String(word.prefix(width)))
                word = String(word.dropFirst(width))
            }
            current = word
        }
        lines.append(current)
        return lines
    }
}

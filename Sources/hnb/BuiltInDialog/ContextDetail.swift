// The cleaning of an app's context detail before it is drawn (issue 30). The detail can hold text
// the bank did not write (a payee name typed by whoever set up the transfer), so nothing in it may
// change how the sentence around it reads: no bidirectional control may reverse it, no invisible
// character may hide part of it, no line break may push the warning off the dialog.

/// Cleans a context detail: pure, and the same on every platform.
enum ContextDetail {
    /// The most characters (grapheme clusters) a cleaned detail has, its ellipsis included.
    static let maxCharacters = 200

    /// `raw` as it may be drawn, or `nil` when nothing is left.
    ///
    /// 1. White space (every scalar with the Unicode White_Space property, line and paragraph
    ///    separators and tabs included) becomes a space.
    /// 2. Control characters (general category Cc) and format characters (Cf: the bidirectional
    ///    embeddings, overrides, isolates and marks, the zero-width space, joiners and no-break
    ///    space, the soft hyphen, tag characters) are removed.
    /// 3. Runs of spaces become one; the ends are trimmed.
    /// 4. Past ``maxCharacters`` characters, the first `maxCharacters - 1` are kept (trailing
    ///    space trimmed) and "…" is added.
    ///
    /// Removing every format character, rather than a list of them, also removes those a later
    /// Unicode version adds. The joiners go with them: an emoji sequence joined by U+200D is drawn
    /// as its parts, which still reads, while a kept joiner could glue a hidden scalar to a
    /// visible one.
    static func clean(_ raw: String) -> String? {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in raw.unicodeScalars {
            let properties = scalar.properties
            if properties.isWhitespace {
                pendingSpace = !scalars.isEmpty
                continue
            }
            switch properties.generalCategory {
            case .control, .format: continue
            default: break
            }
            if pendingSpace {
                scalars.append(" ")
                pendingSpace = false
            }
            scalars.append(scalar)
        }
        let cleaned = String(scalars)
        guard !cleaned.isEmpty else { return nil }
        guard cleaned.count > maxCharacters else { return cleaned }
        var kept = cleaned.prefix(maxCharacters - 1)
        while kept.last == " " { kept = kept.dropLast() }
        return kept + "…"
    }
}

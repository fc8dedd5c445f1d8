// The package's one JSON string writer: the key set's and the policy store's JSON, the recorder's
// output lines and every line the callmonitor tool writes quote their strings here, so escaping
// is decided once (and an app's binary holds one copy of it).

/// JSON string quoting.
package enum JSONText {
    /// `text` as a JSON string: quote, backslash and every control character escaped (the common
    /// ones by letter, the rest as `\u00XX`), everything else as it is, in UTF-8.
    package static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

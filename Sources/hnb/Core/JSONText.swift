// The package's one JSON writer: the outcome's evidence record, the key set's and the policy
// store's JSON, the recorder's output lines and every line the callmonitor tool writes are built
// here, so escaping and number formats are decided once (and an app's binary holds one copy).
// It writes; it never reads (the package's readers are listed in CONTRIBUTING).

/// JSON text: strings, numbers, and objects written in the order their members are added.
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

    /// `value` as a JSON number: the shortest text that reads back as the same `Double`, without a
    /// trailing `.0` (`1700000000`, `1.5`, `1e+16`); `nil` when it is not finite, as JSON has no
    /// word for NaN or infinity.
    package static func number(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// JSON values as an array: `[a,b]`.
    package static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }

    /// A JSON object under construction, its members in the order they are added, no spaces: the
    /// same calls give the same bytes.
    package struct Object: Sendable {
        private var members = ""

        /// An object with no members yet.
        package init() {}

        /// A member whose value is JSON text already written (a number, an array, an object).
        package mutating func add(_ key: String, json: String) {
            if !members.isEmpty { members += "," }
            members += JSONText.quoted(key) + ":" + json
        }

        /// A string member, `null` for nil.
        package mutating func add(_ key: String, _ value: String?) {
            add(key, json: value.map(JSONText.quoted) ?? "null")
        }

        /// An integer member, `null` for nil.
        package mutating func add(_ key: String, _ value: Int64?) {
            add(key, json: value.map { String($0) } ?? "null")
        }

        /// A Boolean member.
        package mutating func add(_ key: String, _ value: Bool) {
            add(key, json: value ? "true" : "false")
        }

        /// The object's JSON text.
        package var text: String { "{" + members + "}" }
    }
}

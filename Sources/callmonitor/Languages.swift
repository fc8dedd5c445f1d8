// The languages the tool can show the default UI in.

import hnb

enum Languages {
    static let available = ["en"]

    static func strings(for code: String) -> CallMonitorStrings? {
        code.lowercased() == "en" ? .english : nil
    }
}

// The file that keeps the signed policy across launches (issue 28, rule 27): the accepted
// document as it arrived, the highest version accepted and the wall clock's high-water mark, in
// one small JSON file written atomically. What to write is the engine's decision; this only
// writes and reads. Read back, the document is verified again before it is used.

import Foundation
import hnb

/// The policy file in a directory.
package struct PolicyFileStore: Sendable {
    /// The file's name inside the directory.
    static let fileName = "hnb-policy.json"

    package let directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    /// The platform's place for state an app keeps: Application Support on Apple platforms,
    /// `$XDG_STATE_HOME` (or `~/.local/state`) on Linux, each in an `hnb` folder.
    package static var defaultDirectory: URL? {
        #if os(Linux)
        let environment = ProcessInfo.processInfo.environment
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("hnb", isDirectory: true)
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/state/hnb", isDirectory: true)
        #else
        return FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first?
            .appendingPathComponent("hnb", isDirectory: true)
        #endif
    }

    private var file: URL { directory.appendingPathComponent(Self.fileName) }

    /// Writes the record; a failure is not fatal (the policy in force stays, and the next launch
    /// starts from the code's policy: fail towards the code, never towards nothing).
    func save(_ record: MonitorEngine.PolicyRecord) {
        var text = "{\"highestVersion\":\(record.highestVersion)"
        if record.clockMark.isFinite { text += ",\"clockMark\":\(Int64(record.clockMark.rounded(.down)))" }
        if let document = record.text { text += ",\"document\":" + JSONText.quoted(String(decoding: document, as: UTF8.self)) }
        text += "}\n"
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file, options: .atomic)
        } catch {
            // Nothing to do but go on: see above.
        }
    }

    /// The record kept, or `nil` when there is none or it is not one (a damaged file is
    /// ignored: its document would be verified anyway, and its version counts for nothing).
    func load() -> (text: [UInt8]?, highestVersion: Int64, clockMark: Double)? {
        guard let data = try? Data(contentsOf: file), data.count <= 2 * PolicyKeySet.maximumLength,
              let json = try? StrictJSON.parse(Array(data)), case .integer(let highest)? = json["highestVersion"] else { return nil }
        var mark = -Double.infinity
        if case .integer(let seconds)? = json["clockMark"] { mark = Double(seconds) }
        var text: [UInt8]?
        if case .string(let document)? = json["document"] { text = Array(document.utf8) }
        return (text, max(0, highest), mark)
    }
}

// The privacy manifest: exactly what it declares, that it ships in the library's bundle, and that
// it names a required-reason category for every such API the library's code calls.

import Foundation
import Testing
@testable import hnb
import hnbTesting

@Suite("Privacy manifest", .nothingLeftScheduled)
struct PrivacyManifestTests {
    static let manifestURL = resourcesDirectory.appendingPathComponent("PrivacyInfo.xcprivacy")

    static func manifest() throws -> [String: Any] {
        let data = try Data(contentsOf: manifestURL)
        return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    /// The categories the manifest declares, with their reasons.
    static func declaredCategories() throws -> [String: [String]] {
        let entries = try #require(try manifest()["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        var result: [String: [String]] = [:]
        for entry in entries {
            let category = try #require(entry["NSPrivacyAccessedAPIType"] as? String)
            result[category] = try #require(entry["NSPrivacyAccessedAPITypeReasons"] as? [String])
        }
        return result
    }

    @Test("No tracking, no tracking domains, no data collected, and only the boot-time clock with reason 35F9.1")
    func declaresExactly() throws {
        let manifest = try Self.manifest()
        #expect(Set(manifest.keys) == ["NSPrivacyTracking", "NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes", "NSPrivacyAccessedAPITypes"])
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        #expect((manifest["NSPrivacyTrackingDomains"] as? [Any])?.isEmpty == true)
        #expect((manifest["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
        #expect(try Self.declaredCategories() == ["NSPrivacyAccessedAPICategorySystemBootTime": ["35F9.1"]])
    }

    @Test("SwiftPM copies the manifest into the library's bundle, next to the translations")
    func shipsInBundle() throws {
        let bundle = try #require(CallMonitorStrings.libraryBundle)
        let url = try #require(bundle.url(forResource: "PrivacyInfo", withExtension: "xcprivacy"))
        #expect(try Data(contentsOf: url) == Data(contentsOf: Self.manifestURL))
    }

    /// Names by which the library's code could reach each required-reason category (Apple's list
    /// for Swift and C; `clock_gettime` reads the same boot-relative clocks as `mach_absolute_time`).
    static let requiredReasonAPIs: [String: [String]] = [
        "NSPrivacyAccessedAPICategorySystemBootTime": ["systemUptime", "mach_absolute_time", "clock_gettime"],
        "NSPrivacyAccessedAPICategoryFileTimestamp": ["creationDate", "modificationDate", "ModificationDateKey", "CreationDateKey", "getattrlist", "fstat(", "lstat(", " stat("],
        "NSPrivacyAccessedAPICategoryDiskSpace": ["volumeAvailableCapacity", "volumeTotalCapacity", "systemFreeSize", "systemSize", "statfs(", "statvfs("],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": ["activeInputModes"],
        "NSPrivacyAccessedAPICategoryUserDefaults": ["UserDefaults"],
    ]

    @Test("Every required-reason category the library's code uses is declared, and none that it does not use")
    func declarationsMatchTheCode() throws {
        let sources = resourcesDirectory.deletingLastPathComponent()
        var code = ""
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let url as URL in files where url.pathExtension == "swift" {
            // Comments may name an API without calling it.
            let text = try String(contentsOf: url, encoding: .utf8)
            code += text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
        }
        let used = Set(Self.requiredReasonAPIs.filter { _, names in names.contains { code.contains($0) } }.keys)
        #expect(used == ["NSPrivacyAccessedAPICategorySystemBootTime"])
        #expect(Set(try Self.declaredCategories().keys) == used)
    }
}

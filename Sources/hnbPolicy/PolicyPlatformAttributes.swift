// The library's own attributes of the device for the signed policy's rules (issue 28): `os`,
// `osVersion` and `appVersion` (the main bundle's short version). Read from the process, so kept
// apart from the pure parts; the rules only compare them (hnb, Engine/RemotePolicyDocument.swift).

import Foundation
import hnb

extension PolicyAttributes {
    /// `os`, `osVersion` and `appVersion` of this process.
    static var library: [String: String] {
        #if targetEnvironment(macCatalyst)
        let os = "macCatalyst"
        #elseif os(iOS)
        let os = "iOS"
        #elseif os(visionOS)
        let os = "visionOS"
        #elseif os(macOS)
        let os = "macOS"
        #elseif os(Linux)
        let os = "Linux"
        #else
        let os = "unknown"
        #endif
        let version = ProcessInfo.processInfo.operatingSystemVersion
        var attributes = ["os": os, "osVersion": "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"]
        if let app = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String { attributes["appVersion"] = app }
        return attributes
    }
}

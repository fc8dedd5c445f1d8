// Fuzz target: the override chain of the built-in dialog's texts. An app's bundle supplies
// `Localizable.strings` and `Localizable.stringsdict` files the library does not control; each
// input is read as both, the tables go into the chain in front of the library's English, and
// every text and countdown of the dialog is rendered from them, for a few plural languages.
// Built by scripts/fuzz (compiled into module hnb, so internal parsers are reachable).

import Foundation

/// Languages whose plural rules differ (one/few/many/other, Portugal's 0), picked by the input.
private let fuzzLanguages = ["en", "ru", "pl", "cs", "pt-PT", "fr", "xx"]
private let fuzzCounts: [Int32] = [0, 1, 2, 3, 5, 11, 21, 22, 25, 101, -1, .max, .min]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStringsOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    let strings = StringsTable.parse(data)
    let plurals = StringsTable.parsePlurals(data)
    // As StringsTable.load merges them: a key's plural rule wins over its .strings entry.
    let table = (strings ?? [:]).merging(plurals ?? [:]) { _, plural in plural }
    let language = fuzzLanguages[size % fuzzLanguages.count]
    let chain = CallMonitorStrings(language: language, tables: [{ table[$0] }])
    for key in CallMonitorStrings.Key.allCases {
        _ = chain.text(key)
        for count in fuzzCounts { _ = chain.countdown(key, remaining: count) }
    }
    for flow in [CallMonitorFlow.terminate, .acknowledge] {
        for count in fuzzCounts {
            _ = SecurityAlert(flow: flow, remaining: count, strings: chain, acknowledgementRefused: count % 2 == 0)
        }
    }
    // The template itself, straight into the count formatter.
    if let template = String(data: data, encoding: .utf8) {
        for count in [0, 1, -7, Int.max, Int.min] { _ = CountFormatter.format(template, count: count) }
    }
    return 0
}

// Fuzz target: the signed policy's readers (issue 28). A document and a key set come from the
// bank's server and bundle, which the library does not control; each input is read as JSON, as a
// JWK Set, as a compact document, and as a payload wrapped in a document, with a signature check
// that accepts anything, so every reader after the signature (claims, rules, when, policy) and
// the engine's handling of the result are reached. Built by scripts/fuzz (compiled into module
// hnb, so internal parsers are reachable).

import Foundation

/// Made for each input, not kept in a global: LeakSanitizer reports the key bytes of a global
/// enum payload as leaked (a false positive that would fail every run).
private func fuzzKeys() -> PolicyKeySet {
    PolicyKeySet(keys: [
        PolicyKeySet.Key(kid: "scenario-ed", material: .ed25519([UInt8](repeating: 1, count: 32))),
        PolicyKeySet.Key(kid: "scenario-ec", material: .p256([4] + [UInt8](repeating: 2, count: 64))),
    ])
}
private let acceptAll = PolicyCrypto { _, _, _ in true }
private let header = Base64URL.encode(Array(#"{"alg":"EdDSA","kid":"scenario-ed","typ":"hnb-policy+jwt"}"#.utf8))
private let signature = Base64URL.encode([UInt8](repeating: 0, count: 64))
private let devices: [[String: String]] = [
    [:], ["os": "iOS", "osVersion": "26.1", "appVersion": "1.0"], ["os": "Linux", "osVersion": "6.1", "region": "DE"],
]

/// Applies a document the way the monitor would, through the pure engine, around a call.
private func exercise(_ document: PolicyDocument, text: [UInt8], relax: Bool) {
    var engine = MonitorEngine()
    let wall = Date(timeIntervalSince1970: 1_767_225_600)
    let sensors = { MonitorEngine.Sensors(isForeground: true, isCaptured: false) }
    var steps: [MonitorEngine.Input] = [
        .policyKeys(.init(allowsRelaxation: relax, restored: nil)),
        .start(MonitorPolicy(flow: .terminate, requestedSeconds: 10)),
        .beginProtection(id: 1, MonitorPolicy(flow: .acknowledge, requestedSeconds: 5), name: "transfer"),
        .applyPolicy(document, text: text),
        .calls(.changes([CallSnapshot(id: CallID("A"), hasConnected: true)])),
    ]
    steps += devices.map { .policyAttributes($0) }
    steps += [.policyWake(), .wake(), .wallClockChanged]
    for (index, input) in steps.enumerated() {
        _ = engine.handle(input, now: Int64(index) * 1_000_000_000, wallClock: wall.addingTimeInterval(Double(index)), sensors: sensors)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPolicyOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = bytes.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = try? StrictJSON.parse(input)
    if let set = try? PolicyKeySet.parse(input) { _ = try? PolicyKeySet.parse(Array(set.json.utf8)) }
    let wrapped = Array((header + "." + Base64URL.encode(input) + "." + signature).utf8)
    let keys = fuzzKeys()
    for text in [input, wrapped] {
        guard case .success(let document) = PolicyDocument.verify(text, keys: keys, issuer: "com.bank.app", crypto: acceptAll) else { continue }
        for device in devices { _ = document.rule(for: device) }
        _ = MonitorEngine.Guards().weakens(document, codeDetection: true, codeCoaching: CallMonitor.CoachingPolicy())
        exercise(document, text: text, relax: size % 2 == 0)
    }
    return 0
}

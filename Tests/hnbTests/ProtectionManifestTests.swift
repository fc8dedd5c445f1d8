// The open protections are one record each, kept in the order they began (Guards.swift); the
// manifest's screens read them (issue 38): under one name the strictest counts, whichever of them
// began first, and a protection that ends leaves the name to the others.

import Testing
@testable import hnb

@Suite("The manifest's screen: the strictest protection of a name, in either order")
struct ProtectionManifestTests {
    static func terminate(_ seconds: Int32) -> MonitorPolicy { MonitorPolicy(flow: .terminate, requestedSeconds: seconds) }

    @Test("Two protections of one name: the manifest names the stricter whichever began first, and the other once it ends",
          arguments: [(first: Int32(5), second: Int32(8)), (first: Int32(8), second: Int32(5))])
    func strictestOfAName(first: Int32, second: Int32) {
        var engine = MonitorEngine()
        _ = engine.handle(.beginProtection(id: 1, Self.terminate(first), name: "transfer"), now: 0)
        _ = engine.handle(.beginProtection(id: 2, Self.terminate(second), name: "transfer"), now: 0)
        _ = engine.handle(.beginProtection(id: 3, Self.terminate(2)), now: 0)
        #expect(engine.codeManifest().screens == ["transfer": Self.terminate(5)])
        // The stricter ends: the name keeps the other; the unnamed one is never a screen.
        _ = engine.handle(.endProtection(id: first == 5 ? 1 : 2), now: 0)
        #expect(engine.codeManifest().screens == ["transfer": Self.terminate(8)])
        _ = engine.handle(.endProtection(id: first == 5 ? 2 : 1), now: 0)
        #expect(engine.codeManifest().screens == [:])
    }
}

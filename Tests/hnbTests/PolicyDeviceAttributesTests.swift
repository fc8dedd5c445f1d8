// Attribute precedence for the signed policy's rules (rule 26, issue 39): decided once, beside
// the rules' matching, not in the facade.

import Testing
@testable import hnb

@Suite("The device the policy's rules read: the library's attributes over the app's")
struct PolicyDeviceAttributesTests {
    @Test("The library's os, osVersion and appVersion win over the app's of the same name; the app's others are kept, and so is one the library does not report (no bundle version)")
    func libraryWins() {
        let device = PolicyCondition.device(
            library: ["os": "iOS", "osVersion": "26.1.0", "appVersion": "4.2"],
            app: ["os": "Android", "appVersion": "99", "region": "DE"]
        )
        #expect(device == ["os": "iOS", "osVersion": "26.1.0", "appVersion": "4.2", "region": "DE"])
        #expect(PolicyCondition.device(library: ["os": "Linux"], app: ["appVersion": "1.0"]) == ["os": "Linux", "appVersion": "1.0"])
    }
}

// Rules 18 to 22 of the behaviour contract (issue 19) and the changed rules 4 and 6: protections
// and the strictest policy, the app's own calls, observe-only monitoring, the session's terminate
// deadline, the detection switch, and acknowledgements that cover only the calls they saw. Every
// test asserts the exact outputs with their times.

import Foundation
import Testing
@testable import hnb
import hnbTesting

/// Protections kept by the threads of ``ProtectionTests/rule18_fromOtherThreads()``.
///
/// `@unchecked Sendable`: `items` is only touched under `lock`.
final class ProtectionBox: @unchecked Sendable {
    let lock = NSLock()
    var items: [CallMonitorProtection] = []
    func append(_ item: CallMonitorProtection) { lock.withLock { items.append(item) } }
    var all: [CallMonitorProtection] { lock.withLock { items } }
}

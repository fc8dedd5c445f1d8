// Rules 16 and 17 and the risk signals: the getters, the recent-call window, one outcome per
// event with exact fields, the event and outcome streams, the capture rule, and the observable
// state object. Every expected value is exact, with virtual times.

import Dispatch
import Foundation
import Testing
@testable import hnb
import hnbTesting

#if canImport(Observation)
import Observation

#endif
/// Nanoseconds from seconds, for exact expected instants.
func ns(_ seconds: Double) -> Int64 { Int64((seconds * 1e9).rounded()) }

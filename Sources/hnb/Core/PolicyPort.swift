// The core's one seam for the signed remote policy (issue 39): the policy product (hnbPolicy)
// plugs a port in here, where the engine's policy record is written (rule 27) and where the
// product keeps its own state for this monitor (the pinned keys, the attributes). hnb holds no
// verifier and no file store: with nothing plugged in, no record is written and no document
// ever reaches the engine, which then keeps the code's policy.

/// Where the policy product plugs into a monitor's core.
package protocol PolicyPort: AnyObject, Sendable {
    /// Writes `record` as the engine said to (rule 27), on the main actor; a failure is the
    /// port's to absorb (the policy in force stays).
    func persist(_ record: MonitorEngine.PolicyRecord)
}

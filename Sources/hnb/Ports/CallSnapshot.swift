// The engine's view of one phone call: a Sendable copy of the fields CallKit's CXCall carries.

import Foundation

/// Identifies one call for as long as it lasts.
///
/// CallKit identifies calls by `UUID`; simulated and test calls use any string.
public struct CallID: Hashable, Sendable, CustomStringConvertible {
    /// The identifier's text.
    public let rawValue: String

    /// An identifier made of any string, for simulated calls.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The identifier of a CallKit call.
    public init(_ uuid: UUID) { self.rawValue = uuid.uuidString }

    /// The identifier as text, as it appears in logs and transcripts.
    public var description: String { rawValue }
}

/// The state of one call at one moment, as a call source reports it.
///
/// The fields mirror `CXCall`, so a CallKit adapter copies them one to one.
public struct CallSnapshot: Hashable, Sendable {
    /// Which call this is.
    public var id: CallID
    /// Whether the user placed the call (dialing) rather than received it (ringing).
    public var isOutgoing: Bool
    /// Whether the call has connected at some point. It stays `true` while the call is on hold.
    public var hasConnected: Bool
    /// Whether the call is on hold.
    public var isOnHold: Bool
    /// Whether the call is over. An ended call no longer counts.
    public var hasEnded: Bool

    /// A snapshot with every field given.
    public init(id: CallID, isOutgoing: Bool = false, hasConnected: Bool = false, isOnHold: Bool = false, hasEnded: Bool = false) {
        self.id = id
        self.isOutgoing = isOutgoing
        self.hasConnected = hasConnected
        self.isOnHold = isOnHold
        self.hasEnded = hasEnded
    }

    /// Whether the call counts as a conversation in progress. A held call has connected, even if a
    /// source forgot to set `hasConnected`.
    package var countsAsConnected: Bool { hasConnected || isOnHold }
}

/// One delivery from a call source: either the complete list of the device's calls at one
/// moment, or changes to some of them.
///
/// A complete list is the truth: a call the monitor knows of that is missing from it has ended,
/// and a call in it is live unless its snapshot says it ended. CallKit's `CXCallObserver.calls`
/// is such a list, and it is what a source should deliver whenever it can, because a change
/// notification can be lost (while the app is suspended, or when a daemon restarts) and a
/// complete list repairs the monitor's view either way: no phantom call keeps a countdown
/// running, and no missed call goes unseen.
///
/// ```swift
/// deliver(.complete(observer.calls.map(CallSnapshot.init)))   // at start, on foreground
/// deliver(.changes([snapshot]))                               // one call changed
/// ```
package struct CallBatch: Sendable, Equatable {
    /// The snapshots delivered. In a complete batch, ended snapshots may be included; they change
    /// nothing beyond what leaving them out would.
    package var calls: [CallSnapshot]
    /// Whether ``calls`` is the complete list of the device's calls at this moment.
    package var isComplete: Bool

    /// A batch with every field given.
    package init(calls: [CallSnapshot], isComplete: Bool) {
        self.calls = calls
        self.isComplete = isComplete
    }

    /// The complete list of calls right now: what ``CallSource/start(_:)`` delivers first.
    package static func complete(_ calls: [CallSnapshot]) -> CallBatch {
        CallBatch(calls: calls, isComplete: true)
    }

    /// Changes to some calls; calls not mentioned are unchanged.
    package static func changes(_ calls: [CallSnapshot]) -> CallBatch {
        CallBatch(calls: calls, isComplete: false)
    }

    /// What a call observer reports when one call changed: its whole list, which is the truth,
    /// with the changed call added if the list no longer holds it (CallKit may drop an ended call
    /// from `calls` before it tells of the end; adding it changes nothing then). Keeping the
    /// changed call is also the fail-closed choice should a live call be missing from the list.
    static func observed(list: [CallSnapshot], changed: CallSnapshot) -> CallBatch {
        .complete(list.contains { $0.id == changed.id } ? list : list + [changed])
    }
}

extension CallBatch {
    /// `self` followed by `next`, as one batch: a complete list replaces everything before it;
    /// changes update the calls they name, in place, and add the others.
    func merged(with next: CallBatch) -> CallBatch {
        if next.isComplete { return next }
        var result = self
        for snapshot in next.calls {
            if let index = result.calls.firstIndex(where: { $0.id == snapshot.id }) {
                result.calls[index] = snapshot
            } else {
                result.calls.append(snapshot)
            }
        }
        return result
    }
}

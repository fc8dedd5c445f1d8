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
    var countsAsConnected: Bool { hasConnected || isOnHold }
}

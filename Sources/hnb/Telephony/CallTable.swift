// The modems and calls a telephony tracker knows, shared by the ModemManager and oFono trackers:
// both daemons name modems and calls by object path and both end a modem's calls with the modem.

// Linux only: no Apple build compiles the D-Bus telephony code.
#if os(Linux)

/// Voice modems and their calls, by D-Bus object path.
struct CallTable {
    /// The voice modems and the paths of their calls.
    private var modems: [String: Set<String>] = [:]
    /// The calls, by object path; each knows its modem ("" when its modem is not known yet).
    private var calls: [String: (modem: String, snapshot: CallSnapshot)] = [:]

    /// Whether a modem that can carry voice calls is known.
    var hasVoiceModem: Bool { !modems.isEmpty }

    /// Every call's latest snapshot.
    var snapshots: [CallSnapshot] { calls.values.map(\.snapshot) }

    func hasModem(_ path: String) -> Bool { modems[path] != nil }

    func hasCall(_ path: String) -> Bool { calls[path] != nil }

    /// The call's snapshot as known, or a fresh (ringing) one for a call first seen now.
    func snapshot(of path: String) -> CallSnapshot { calls[path]?.snapshot ?? CallSnapshot(id: CallID(path)) }

    /// Forgets everything, before a complete read.
    mutating func removeAll() {
        modems = [:]
        calls = [:]
    }

    /// Knows `path` as a voice modem, with no calls yet if it is new.
    mutating func addModem(_ path: String) {
        if modems[path] == nil { modems[path] = [] }
    }

    /// Lists `calls` under `modem` (known as a voice modem from now on).
    mutating func listCalls<S: Sequence<String>>(_ paths: S, on modem: String) { modems[modem, default: []].formUnion(paths) }

    /// Stores the call's snapshot; a non-empty `modem` also lists the call under it.
    mutating func setCall(_ path: String, modem: String, _ snapshot: CallSnapshot) {
        if !modem.isEmpty { modems[modem, default: []].insert(path) }
        calls[path] = (modem, snapshot)
    }

    /// Updates the snapshot of a known call, keeping its modem; a call not known yet is stored
    /// with no modem (its modem's signal was missed, but a call object that exists is a call).
    mutating func updateCall(_ path: String, _ body: (inout CallSnapshot) -> Void) {
        var entry = calls[path] ?? (modem: "", snapshot: CallSnapshot(id: CallID(path)))
        body(&entry.snapshot)
        calls[path] = entry
    }

    /// The call object is gone.
    mutating func removeCall(_ path: String, from modem: String) {
        modems[modem]?.remove(path)
        calls[path] = nil
    }

    /// The modem is gone (or can no longer carry voice calls): its calls end with it, also those
    /// that were stored before their modem was listed.
    mutating func removeModem(_ path: String) {
        for call in modems[path] ?? [] { calls[call] = nil }
        for (call, entry) in calls where entry.modem == path { calls[call] = nil }
        modems[path] = nil
    }
}
#endif

// Where the shared instance's ports come from; `LivePorts+Platform.swift` says which they are on
// each platform.

/// Makes the live ports for ``CallMonitor/sharedInstance()`` and ``CallMonitor/Ports/live``.
enum LivePorts {}

// The stand-ins are for this target's files only. SwiftPM puts every module of the package on
// every target's import path, so a stand-in module named CallKit or UIKit would make
// `canImport(UIKit)` true inside hnb's own Linux build and ship the Apple adapters, with the
// stand-ins, in the Linux library. Ours are CallKitStandIn and UIKitStandIn, reached only through
// this target's `-module-alias`; this suite checks the result from the library's side.

import Testing

@Suite("The stand-ins stay out of hnb's own build")
struct StandInIsolationTests {
    @Test("hnb's live ports on Linux are its Linux ones, not the Apple adapters")
    func liveLinuxPorts() {
        let ports = CallMonitor.Ports.live
        #expect(String(reflecting: type(of: ports.appState)) == "hnb.ProcessAppState")
        #expect(String(reflecting: type(of: ports.screenCapture)) == "hnb.NoScreenCapture")
        #expect(String(reflecting: type(of: ports.alertRenderer)) == "hnb.StandardErrorAlertRenderer")
        #expect(String(reflecting: type(of: ports.callSource)).hasPrefix("hnb."))
        #expect(!String(reflecting: type(of: ports.callSource)).contains("CallKit"))
    }
}

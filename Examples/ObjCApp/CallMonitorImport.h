// One place that imports hnb: from the XCFramework as the API reference spells it, or from the
// Swift package as a module (SwiftPM generates no <hnb/CallMonitor.h>).

#if __has_include(<hnb/CallMonitor.h>)
#import <hnb/CallMonitor.h>
#else
@import hnb;
#endif

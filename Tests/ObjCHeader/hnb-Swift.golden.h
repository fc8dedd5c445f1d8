typedef SWIFT_ENUM_NAMED(NSInteger, CallEvent, "CallEvent", closed) {
  CallEventRinging = 0,
  CallEventStarted = 1,
  CallEventEnded = 2,
};

@protocol CallMonitorDelegate;
SWIFT_CLASS_NAMED("CallMonitor")
@interface CallMonitor : NSObject
+ (nonnull instancetype)sharedInstance SWIFT_WARN_UNUSED_RESULT;
- (void)startMonitoringWithTerminateIn:(int)seconds;
- (void)startMonitoringWithAcknowledgeIn:(int)seconds;
- (void)stopMonitoring;
- (void)setDelegate:(id <CallMonitorDelegate> _Nullable)delegate;
- (void)setCallback:(void (^ _Nullable)(enum CallEvent))callback;
- (null_unspecified instancetype)init SWIFT_UNAVAILABLE;
+ (nonnull instancetype)new SWIFT_UNAVAILABLE_MSG("-init is unavailable");
@end

SWIFT_ENUM_FWD_DECL(NSInteger, CallMonitorFlow)
SWIFT_PROTOCOL_NAMED("CallMonitorDelegate")
@protocol CallMonitorDelegate
- (void)callMonitorDidDetectCallWithFlow:(enum CallMonitorFlow)flow initialRemaining:(int)initialRemaining onUserAction:(void (^ _Nonnull)(void))onUserAction;
- (void)callMonitorCountdownTick:(int)remaining;
- (void)callMonitorDidEndCall;
@end

typedef SWIFT_ENUM_NAMED(NSInteger, CallMonitorFlow, "CallMonitorFlow", closed) {
  CallMonitorFlowTerminate = 0,
  CallMonitorFlowAcknowledge = 1,
};


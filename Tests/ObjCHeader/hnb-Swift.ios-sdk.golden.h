typedef SWIFT_ENUM_NAMED(NSInteger, CallEvent, "CallEvent", closed) {
  CallEventRinging = 0,
  CallEventStarted = 1,
  CallEventEnded = 2,
};

@protocol CallMonitorDelegate;
SWIFT_CLASS_NAMED("CallMonitor")
@interface CallMonitor : NSObject
+ (nonnull instancetype)sharedInstance SWIFT_WARN_UNUSED_RESULT SWIFT_AVAILABILITY(ios_app_extension,unavailable);
- (void)startMonitoringWithTerminateIn:(int)seconds;
- (void)startMonitoringWithAcknowledgeIn:(int)seconds;
- (void)stopMonitoring;
- (void)setDelegate:(id <CallMonitorDelegate> _Nullable)delegate;
- (void)setCallback:(void (^ _Nullable)(enum CallEvent))callback;
- (nonnull instancetype)init SWIFT_UNAVAILABLE;
+ (nonnull instancetype)new SWIFT_UNAVAILABLE_MSG("-init is unavailable");
@end

@interface CallMonitor (SWIFT_EXTENSION(hnb))
@end

typedef SWIFT_ENUM_NAMED(NSInteger, CallMonitorCoachingLevel, "CoachingLevel", closed) {
  CallMonitorCoachingLevelUnknown = 0,
  CallMonitorCoachingLevelMedium = 1,
  CallMonitorCoachingLevelHigh = 2,
};

typedef SWIFT_ENUM_NAMED(NSInteger, CallMonitorCoachingSource, "CoachingSource", closed) {
  CallMonitorCoachingSourceApp = 0,
  CallMonitorCoachingSourceTrustInsights = 1,
};

typedef SWIFT_ENUM_NAMED(NSInteger, CallMonitorCoachingConsumption, "CoachingConsumption", closed) {
  CallMonitorCoachingConsumptionUsedReducedFriction = 0,
  CallMonitorCoachingConsumptionUsedUnchangedFriction = 1,
  CallMonitorCoachingConsumptionUsedIncreasedFriction = 2,
  CallMonitorCoachingConsumptionNotUsedNotNeeded = 3,
  CallMonitorCoachingConsumptionNotUsedError = 4,
  CallMonitorCoachingConsumptionUsedEvaluationOnly = 5,
};

SWIFT_ENUM_FWD_DECL(NSInteger, CallMonitorCoachingResponseKind)
@class NSString;
@interface CallMonitor (SWIFT_EXTENSION(hnb))
- (void)setCoachingBudget:(double)seconds;
- (void)setCoachingPolicyMedium:(enum CallMonitorCoachingResponseKind)medium mediumSeconds:(int)mediumSeconds high:(enum CallMonitorCoachingResponseKind)high highSeconds:(int)highSeconds;
- (void)setCoachingSource:(void (^ _Nullable)(NSString * _Nonnull, NSString * _Nullable, void (^ _Nonnull)(enum CallMonitorCoachingLevel)))source report:(void (^ _Nullable)(NSString * _Nullable, enum CallMonitorCoachingConsumption))report;
@end

typedef SWIFT_ENUM_NAMED(NSInteger, CallMonitorCoachingResponseKind, "CoachingResponseKind", closed) {
  CallMonitorCoachingResponseKindOff = 0,
  CallMonitorCoachingResponseKindEvaluate = 1,
  CallMonitorCoachingResponseKindAcknowledge = 2,
};

SWIFT_ENUM_FWD_DECL(NSInteger, CallMonitorCallVerdict)
@interface CallMonitor (SWIFT_EXTENSION(hnb))
- (void)setCallVerifierBudget:(double)seconds;
- (void)setCallVerifier:(void (^ _Nullable)(void (^ _Nonnull)(enum CallMonitorCallVerdict)))verifier;
@end

@class CallMonitorProtection;
@class NSUUID;
@interface CallMonitor (SWIFT_EXTENSION(hnb))
- (void)startMonitoring;
- (CallMonitorProtection * _Nonnull)protectNamed:(NSString * _Nullable)name withTerminateIn:(int)seconds contextKind:(NSString * _Nullable)kind detail:(NSString * _Nullable)detail SWIFT_WARN_UNUSED_RESULT;
- (CallMonitorProtection * _Nonnull)protectNamed:(NSString * _Nullable)name withAcknowledgeIn:(int)seconds contextKind:(NSString * _Nullable)kind detail:(NSString * _Nullable)detail SWIFT_WARN_UNUSED_RESULT;
- (CallMonitorProtection * _Nonnull)protectNamed:(NSString * _Nullable)name withTerminateIn:(int)seconds contextKind:(NSString * _Nullable)kind detail:(NSString * _Nullable)detail operationID:(NSString * _Nullable)operationID SWIFT_WARN_UNUSED_RESULT;
- (CallMonitorProtection * _Nonnull)protectNamed:(NSString * _Nullable)name withAcknowledgeIn:(int)seconds contextKind:(NSString * _Nullable)kind detail:(NSString * _Nullable)detail operationID:(NSString * _Nullable)operationID SWIFT_WARN_UNUSED_RESULT;
- (void)protectWhileScreenCapturedWithTerminateIn:(int)seconds;
- (void)protectWhileScreenCapturedWithAcknowledgeIn:(int)seconds;
- (void)stopProtectingWhileScreenCaptured;
- (void)exemptCallWithUUID:(NSUUID * _Nonnull)uuid;
- (void)removeExemptionForUUID:(NSUUID * _Nonnull)uuid;
@end

SWIFT_ENUM_FWD_DECL(NSInteger, CallMonitorCallState)
@class CallMonitorSecurityEvent;
@class CallMonitorOutcomeRecord;
@interface CallMonitor (SWIFT_EXTENSION(hnb))
@property (nonatomic, readonly) enum CallMonitorCallState callState;
@property (nonatomic, readonly) BOOL isMonitoring;
@property (nonatomic, readonly) BOOL isScreenCaptured;
@property (nonatomic, readonly, strong) CallMonitorSecurityEvent * _Nullable currentSecurityEvent;
- (BOOL)wasCallLiveWithinLast:(double)seconds SWIFT_WARN_UNUSED_RESULT;
- (void)setOutcomeHandler:(void (^ _Nullable)(CallMonitorOutcomeRecord * _Nonnull))handler;
- (void)setRefusesAcknowledgementWhileScreenCaptured:(BOOL)refuses;
@end

typedef SWIFT_ENUM_NAMED(NSInteger, CallMonitorCallState, "CallMonitorCallState", closed) {
  CallMonitorCallStateIdle = 0,
  CallMonitorCallStateRinging = 1,
  CallMonitorCallStateStarted = 2,
};

typedef SWIFT_ENUM_NAMED(NSInteger, CallMonitorCallVerdict, "CallMonitorCallVerdict", closed) {
  CallMonitorCallVerdictUnknown = 0,
  CallMonitorCallVerdictBankIsCalling = 1,
  CallMonitorCallVerdictBankIsNotCalling = 2,
};

SWIFT_CLASS_NAMED("CallMonitorContext")
@interface CallMonitorContext : NSObject
@property (nonatomic, readonly, copy) NSString * _Nullable detail;
@property (nonatomic, readonly, copy) NSString * _Nullable operationID;
@property (nonatomic, readonly, copy) NSString * _Nonnull kindName;
- (BOOL)isEqual:(id _Nullable)object SWIFT_WARN_UNUSED_RESULT;
@property (nonatomic, readonly) NSUInteger hash;
@property (nonatomic, readonly, copy) NSString * _Nonnull description;
- (nonnull instancetype)init SWIFT_UNAVAILABLE;
+ (nonnull instancetype)new SWIFT_UNAVAILABLE_MSG("-init is unavailable");
@end

SWIFT_PROTOCOL_NAMED("CallMonitorContextDelegate")
@protocol CallMonitorContextDelegate
- (void)callMonitorDidChangeContext:(CallMonitorContext * _Nullable)context;
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

typedef SWIFT_ENUM_NAMED(NSInteger, CallMonitorOutcomeEnding, "CallMonitorOutcomeEnding", closed) {
  CallMonitorOutcomeEndingCallEnded = 0,
  CallMonitorOutcomeEndingAcknowledged = 1,
  CallMonitorOutcomeEndingForceExit = 2,
  CallMonitorOutcomeEndingMonitoringStopped = 3,
  CallMonitorOutcomeEndingPolicyChanged = 4,
  CallMonitorOutcomeEndingCallExempted = 5,
  CallMonitorOutcomeEndingCallDetectionDisabled = 6,
};

SWIFT_CLASS_NAMED("CallMonitorProtection")
@interface CallMonitorProtection : NSObject
- (void)end;
- (nonnull instancetype)init SWIFT_UNAVAILABLE;
+ (nonnull instancetype)new SWIFT_UNAVAILABLE_MSG("-init is unavailable");
@end

SWIFT_CLASS_NAMED("CallMonitorSecurityEvent")
@interface CallMonitorSecurityEvent : NSObject
@property (nonatomic, readonly) enum CallMonitorFlow flow;
@property (nonatomic, readonly) int remaining;
@property (nonatomic, readonly) int seconds;
@property (nonatomic, readonly) int64_t startedAt;
@property (nonatomic, readonly) BOOL isActionAvailable;
@property (nonatomic, readonly) BOOL isAcknowledgementRefused;
@property (nonatomic, readonly) BOOL wasScreenCaptured;
@property (nonatomic, readonly) enum CallMonitorCallVerdict verdict;
@property (nonatomic, readonly, strong) CallMonitorContext * _Nullable context;
@property (nonatomic, readonly) enum CallMonitorCoachingLevel coachingLevel;
- (BOOL)isEqual:(id _Nullable)object SWIFT_WARN_UNUSED_RESULT;
@property (nonatomic, readonly) NSUInteger hash;
@property (nonatomic, readonly, copy) NSString * _Nonnull description;
- (nonnull instancetype)init SWIFT_UNAVAILABLE;
+ (nonnull instancetype)new SWIFT_UNAVAILABLE_MSG("-init is unavailable");
@end

SWIFT_PROTOCOL_NAMED("CallMonitorVerdictDelegate")
@protocol CallMonitorVerdictDelegate
- (void)callMonitorDidReceiveVerdict:(enum CallMonitorCallVerdict)verdict;
@end

SWIFT_CLASS_NAMED("_CallMonitorCoachingRecord")
@interface CallMonitorCoachingRecord : NSObject
@property (nonatomic, readonly) uint64_t questionID;
@property (nonatomic, readonly) int64_t at;
@property (nonatomic, readonly) enum CallMonitorCoachingLevel level;
@property (nonatomic, readonly) enum CallMonitorCoachingSource source;
@property (nonatomic, readonly, copy) NSString * _Nullable evaluationID;
@property (nonatomic, readonly, copy) NSString * _Nullable modelVersion;
@property (nonatomic, readonly, copy) NSString * _Nullable operationID;
@property (nonatomic, readonly) enum CallMonitorCoachingConsumption consumption;
- (nonnull instancetype)init SWIFT_UNAVAILABLE;
+ (nonnull instancetype)new SWIFT_UNAVAILABLE_MSG("-init is unavailable");
@end

SWIFT_CLASS_NAMED("_CallMonitorOutcomeRecord")
@interface CallMonitorOutcomeRecord : NSObject
@property (nonatomic, readonly) enum CallMonitorOutcomeEnding ending;
@property (nonatomic, readonly) enum CallMonitorFlow flow;
@property (nonatomic, readonly) int seconds;
@property (nonatomic, readonly) int64_t startedAt;
@property (nonatomic, readonly) int64_t endedAt;
@property (nonatomic, readonly) double startedTimeIntervalSince1970;
@property (nonatomic, readonly) double endedTimeIntervalSince1970;
@property (nonatomic, readonly) int lowestRemaining;
@property (nonatomic, readonly) BOOL wasShownOnDelegate;
@property (nonatomic, readonly) BOOL wasShownOnBuiltInDialog;
@property (nonatomic, readonly) NSInteger presentationCount;
@property (nonatomic, readonly) BOOL wasScreenCaptured;
@property (nonatomic, readonly) enum CallMonitorCallVerdict verdict;
@property (nonatomic, readonly) int64_t verdictArrivedAt;
@property (nonatomic, readonly) int64_t policyVersion;
@property (nonatomic, readonly) uint64_t outcomeID;
@property (nonatomic, readonly) NSInteger coachingCount;
- (CallMonitorCoachingRecord * _Nullable)coachingAtIndex:(NSInteger)index SWIFT_WARN_UNUSED_RESULT;
- (nonnull instancetype)init SWIFT_UNAVAILABLE;
+ (nonnull instancetype)new SWIFT_UNAVAILABLE_MSG("-init is unavailable");
@end


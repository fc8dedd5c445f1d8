SWIFT_AVAILABILITY(ios,introduced=27.0)
@interface CallMonitor (SWIFT_EXTENSION(hnbTrustInsights))
- (void)useTrustInsightsWithEvidence:(void (^ _Nullable)(CallMonitorTrustInsightsEvidence * _Nonnull))evidence;
@end

SWIFT_CLASS_NAMED("_CallMonitorTrustInsightsEvidence")
@interface CallMonitorTrustInsightsEvidence : NSObject
@property (nonatomic, readonly, copy) NSString * _Nonnull insightID;
@property (nonatomic, readonly, copy) NSString * _Nullable operationID;
@property (nonatomic, readonly) enum CallMonitorCoachingConsumption consumption;
@property (nonatomic, readonly, strong) NSData * _Nonnull signedPayload;
@property (nonatomic, readonly, strong) NSDate * _Nonnull serverTimestamp;
@property (nonatomic, readonly) BOOL hasOutcomeID;
@property (nonatomic, readonly) uint64_t outcomeID;
- (null_unspecified instancetype)init SWIFT_UNAVAILABLE;
+ (nonnull instancetype)new SWIFT_UNAVAILABLE_MSG("-init is unavailable");
@end

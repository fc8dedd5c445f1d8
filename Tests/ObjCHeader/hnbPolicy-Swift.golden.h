@interface CallMonitor (SWIFT_EXTENSION(hnbPolicy))
- (void)setPolicyAttributes:(NSDictionary * _Nonnull)attributes;
- (CallMonitorPolicyResult * _Nonnull)applyPolicyDocument:(NSData * _Nonnull)document SWIFT_WARN_UNUSED_RESULT;
@end

@interface CallMonitor (SWIFT_EXTENSION(hnbPolicy))
- (NSData * _Nonnull)policyManifestWithAppVersion:(NSString * _Nullable)appVersion SWIFT_WARN_UNUSED_RESULT;
@end

SWIFT_CLASS_NAMED("_CallMonitorPolicyResult")
@interface CallMonitorPolicyResult : NSObject
@property (nonatomic, readonly) BOOL applied;
@property (nonatomic, readonly) int64_t version;
- (null_unspecified instancetype)init SWIFT_UNAVAILABLE;
+ (nonnull instancetype)new SWIFT_UNAVAILABLE_MSG("-init is unavailable");
@end

@interface CallMonitorPolicyResult (SWIFT_EXTENSION(hnbPolicy))
@property (nonatomic, readonly, strong) NSString * _Nullable reason;
@property (nonatomic, readonly, strong) NSString * _Nullable detail;
@end

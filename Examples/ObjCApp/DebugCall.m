// Debug builds only: a release build compiles none of this (see AccountViewController.m).
#if DEBUG
#import "DebugCall.h"
#import <CallKit/CallKit.h>

@interface DebugCall () <CXProviderDelegate>
@property (nonatomic, strong) CXProvider *provider;
@property (nonatomic, strong) CXCallController *callController;
@property (nonatomic, strong, nullable) NSUUID *callUUID;
@end

@implementation DebugCall

- (instancetype)init {
    self = [super init];
    if (self) {
        CXProviderConfiguration *configuration;
        if (@available(iOS 14.0, *)) {
            configuration = [[CXProviderConfiguration alloc] init];
        } else {
            configuration = [[CXProviderConfiguration alloc] initWithLocalizedName:@"CallMonitor Example"];
        }
        configuration.maximumCallGroups = 1;
        configuration.maximumCallsPerCallGroup = 1;
        configuration.supportedHandleTypes = [NSSet setWithObject:@(CXHandleTypeGeneric)];
        _provider = [[CXProvider alloc] initWithConfiguration:configuration];
        // nil: the delegate is called on the main queue.
        [_provider setDelegate:self queue:nil];
        _callController = [[CXCallController alloc] init];
    }
    return self;
}

- (void)dealloc {
    [_provider invalidate];
}

- (void)startWithCompletion:(void (^)(NSError *_Nullable))completion {
    if (self.callUUID != nil) {
        completion(nil);
        return;
    }
    NSUUID *uuid = [NSUUID UUID];
    self.callUUID = uuid;
    CXHandle *handle = [[CXHandle alloc] initWithType:CXHandleTypeGeneric value:@"Debug call"];
    CXStartCallAction *start = [[CXStartCallAction alloc] initWithCallUUID:uuid handle:handle];
    __weak DebugCall *weakSelf = self;
    // CallKit calls the completion on a private queue.
    [self.callController requestTransaction:[[CXTransaction alloc] initWithAction:start]
                                 completion:^(NSError *_Nullable error) {
        dispatch_async(dispatch_get_main_queue(), ^{
            if (error != nil && [weakSelf.callUUID isEqual:uuid]) {
                weakSelf.callUUID = nil;
            }
            completion(error);
        });
    }];
}

- (void)end {
    NSUUID *uuid = self.callUUID;
    if (uuid == nil) {
        return;
    }
    CXEndCallAction *endAction = [[CXEndCallAction alloc] initWithCallUUID:uuid];
    [self.callController requestTransaction:[[CXTransaction alloc] initWithAction:endAction]
                                 completion:^(NSError *_Nullable error) {
        if (error != nil) {
            NSLog(@"DebugCall: ending the call failed: %@", error);
        }
    }];
}

#pragma mark - CXProviderDelegate

- (void)providerDidReset:(CXProvider *)provider {
    self.callUUID = nil;
}

- (void)provider:(CXProvider *)provider performStartCallAction:(CXStartCallAction *)action {
    [action fulfill];
    // Connected at once: CallMonitor acts on a connected call.
    [provider reportOutgoingCallWithUUID:action.callUUID startedConnectingAtDate:nil];
    [provider reportOutgoingCallWithUUID:action.callUUID connectedAtDate:nil];
}

- (void)provider:(CXProvider *)provider performEndCallAction:(CXEndCallAction *)action {
    if ([action.callUUID isEqual:self.callUUID]) {
        self.callUUID = nil;
    }
    [action fulfill];
}

@end
#endif

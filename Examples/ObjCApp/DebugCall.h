// Debug builds only: a release build compiles none of this (see AccountViewController.m).
#if DEBUG
#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

/// A real call for debugging, placed through the app's own CallKit provider: CallMonitor's
/// CallKit observer sees it like any other call, so the shared monitor reacts to it.
///
/// Why not the simulated call source the Swift examples use: SimulatedCallSource and the other
/// ports are Swift classes, not exposed to Objective-C, so an Objective-C app cannot build a
/// CallMonitor of its own. This path needs no Swift. It works on a device; the iOS Simulator's
/// CallKit support is limited, so demonstrate there with the Swift examples. Remove it from a
/// shipping app (Apple does not accept CallKit use in apps for the China storefront).
@interface DebugCall : NSObject

/// Places an outgoing call that connects at once. `completion` runs on the main thread with the
/// error CallKit reported, or nil.
- (void)startWithCompletion:(void (^)(NSError *_Nullable error))completion;

/// Ends the call placed by -startWithCompletion:, if any.
- (void)end;

@end

NS_ASSUME_NONNULL_END
#endif

#import <UIKit/UIKit.h>

NS_ASSUME_NONNULL_BEGIN

/// Posted on the main thread with every call event; the event (a CallEvent) is the
/// notification's object, as an NSNumber. Every window's account screen shows it.
extern NSNotificationName const AppCallEventNotification;

/// Starts call monitoring at launch, before any screen exists, and gives every scene a
/// SceneDelegate.
@interface AppDelegate : UIResponder <UIApplicationDelegate>
@end

NS_ASSUME_NONNULL_END

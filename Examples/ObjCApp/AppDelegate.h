#import <UIKit/UIKit.h>

NS_ASSUME_NONNULL_BEGIN

/// Starts call monitoring at launch, before any screen exists, and gives every scene a
/// SceneDelegate.
@interface AppDelegate : UIResponder <UIApplicationDelegate>
@end

NS_ASSUME_NONNULL_END

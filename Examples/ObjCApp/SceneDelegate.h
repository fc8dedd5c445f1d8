#import <UIKit/UIKit.h>

NS_ASSUME_NONNULL_BEGIN

/// One window per scene, showing the account screen.
@interface SceneDelegate : UIResponder <UIWindowSceneDelegate>
@property (nonatomic, strong, nullable) UIWindow *window;
@end

NS_ASSUME_NONNULL_END

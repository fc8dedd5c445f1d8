#import <UIKit/UIKit.h>

NS_ASSUME_NONNULL_BEGIN

/// The app's one screen, as a bank's account overview might look: the balance and a "Send money"
/// button, plus a debug section that places a call and chooses the policy.
@interface AccountViewController : UIViewController
@end

NS_ASSUME_NONNULL_END

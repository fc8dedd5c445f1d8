// The transfer screen: guarded on its own while it is on screen (rule 18).

#import <UIKit/UIKit.h>

NS_ASSUME_NONNULL_BEGIN

@interface TransferViewController : UIViewController
@end

NS_ASSUME_NONNULL_END

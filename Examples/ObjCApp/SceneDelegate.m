#import "SceneDelegate.h"
#import "AccountViewController.h"

@implementation SceneDelegate

- (void)scene:(UIScene *)scene
    willConnectToSession:(UISceneSession *)session
                 options:(UISceneConnectionOptions *)connectionOptions {
    if (![scene isKindOfClass:[UIWindowScene class]]) {
        return;
    }
    UIWindow *window = [[UIWindow alloc] initWithWindowScene:(UIWindowScene *)scene];
    window.rootViewController =
        [[UINavigationController alloc] initWithRootViewController:[[AccountViewController alloc] init]];
    [window makeKeyAndVisible];
    self.window = window;
}

@end

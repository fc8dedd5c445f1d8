#import "AppDelegate.h"
#import "CallMonitorImport.h"
#import "SceneDelegate.h"

NSNotificationName const AppCallEventNotification = @"AppCallEventNotification";

@implementation AppDelegate

- (BOOL)application:(UIApplication *)application
    didFinishLaunchingWithOptions:(NSDictionary<UIApplicationLaunchOptionsKey, id> *)launchOptions {
    // The monitor has one callback; it is set once here and fanned out to every window.
    [[CallMonitor sharedInstance] setCallback:^(CallEvent event) {
        [[NSNotificationCenter defaultCenter] postNotificationName:AppCallEventNotification object:@(event)];
    }];
    // Every warning leaves one record; a force exit's comes before the exit, so it can be kept.
    [[CallMonitor sharedInstance] setOutcomeHandler:^(CallMonitorOutcomeRecord *outcome) {
        NSLog(@"call warning ended (%ld) after %.1f s, lowest %d, screen captured: %d",
              (long)outcome.ending, (outcome.endedAt - outcome.startedAt) / 1e9, outcome.lowestRemaining,
              outcome.wasScreenCaptured);
    }];
    // A call already in progress is caught as soon as the app is in the foreground.
    [[CallMonitor sharedInstance] startMonitoringWithTerminateIn:10];
    return YES;
}

- (UISceneConfiguration *)application:(UIApplication *)application
    configurationForConnectingSceneSession:(UISceneSession *)connectingSceneSession
                                   options:(UISceneConnectionOptions *)options {
    UISceneConfiguration *configuration =
        [[UISceneConfiguration alloc] initWithName:nil sessionRole:connectingSceneSession.role];
    configuration.delegateClass = [SceneDelegate class];
    return configuration;
}

@end

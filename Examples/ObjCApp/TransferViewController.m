// The transfer screen guards itself more strictly than the rest of the app: a protection begun in
// -viewWillAppear: and ended in -viewDidDisappear:, so a screen pushed on top (which appears
// before this one disappears) never leaves a gap. The strictest open policy is in force.

#import "TransferViewController.h"
#import "CallMonitorImport.h"

@interface TransferViewController ()
@property (nonatomic, strong, nullable) CallMonitorProtection *protection;
@end

@implementation TransferViewController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.title = @"Send money";
    self.view.backgroundColor = [UIColor systemGroupedBackgroundColor];
    UILabel *text = [[UILabel alloc] init];
    text.text = @"While a call is live, this screen closes the app after 5 seconds, whatever the policy of the rest of the app. (This example app does not send money.)";
    text.numberOfLines = 0;
    text.font = [UIFont preferredFontForTextStyle:UIFontTextStyleBody];
    text.adjustsFontForContentSizeCategory = YES;
    text.translatesAutoresizingMaskIntoConstraints = NO;
    [self.view addSubview:text];
    UILayoutGuide *margins = self.view.layoutMarginsGuide;
    [NSLayoutConstraint activateConstraints:@[
        [text.topAnchor constraintEqualToAnchor:self.view.safeAreaLayoutGuide.topAnchor constant:24],
        [text.leadingAnchor constraintEqualToAnchor:margins.leadingAnchor],
        [text.trailingAnchor constraintEqualToAnchor:margins.trailingAnchor],
    ]];
}

- (void)viewWillAppear:(BOOL)animated {
    [super viewWillAppear:animated];
    self.protection = [[CallMonitor sharedInstance] protectNamed:nil withTerminateIn:5 contextKind:nil detail:nil];
}

- (void)viewDidDisappear:(BOOL)animated {
    [super viewDidDisappear:animated];
    [self.protection end];
    self.protection = nil;
}

@end

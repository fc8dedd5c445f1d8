#import "AccountViewController.h"
#import "AppDelegate.h"
#import "CallMonitorImport.h"
#if DEBUG
// The debug call, like everything behind `#if DEBUG` here, is left out of release builds: it uses
// the app's own CallKit provider, which a shipping banking app should not carry.
#import "DebugCall.h"
#endif
#import "TransferViewController.h"

@interface AccountViewController ()
@property (nonatomic, strong) UILabel *eventLabel;
@property (nonatomic, strong) UISwitch *callSwitch;
#if DEBUG
@property (nonatomic, strong) DebugCall *debugCall;
#endif
@end

@implementation AccountViewController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.title = @"Accounts";
    self.view.backgroundColor = [UIColor systemGroupedBackgroundColor];
    NSMutableArray<UIView *> *sections = [NSMutableArray arrayWithObjects:[self accountCard], [self sendMoneyButton], nil];
#if DEBUG
    self.debugCall = [[DebugCall alloc] init];
    [sections addObject:[self debugSection]];
#endif

    UIStackView *stack = [[UIStackView alloc] initWithArrangedSubviews:sections];
    stack.axis = UILayoutConstraintAxisVertical;
    stack.spacing = 24;
    stack.translatesAutoresizingMaskIntoConstraints = NO;
    [self.view addSubview:stack];
    UILayoutGuide *margins = self.view.layoutMarginsGuide;
    [NSLayoutConstraint activateConstraints:@[
        [stack.topAnchor constraintEqualToAnchor:self.view.safeAreaLayoutGuide.topAnchor constant:24],
        [stack.leadingAnchor constraintEqualToAnchor:margins.leadingAnchor],
        [stack.trailingAnchor constraintEqualToAnchor:margins.trailingAnchor],
    ]];

    [[NSNotificationCenter defaultCenter] addObserver:self
                                             selector:@selector(callEvent:)
                                                 name:AppCallEventNotification
                                               object:nil];
}

- (UIView *)accountCard {
    UILabel *balance = [self labelWithText:@"€ 2,481.09" style:UIFontTextStyleLargeTitle color:[UIColor labelColor]];
    balance.accessibilityLabel = @"Balance: 2,481 euros 9 cents";
    UIStackView *card = [[UIStackView alloc] initWithArrangedSubviews:@[
        [self labelWithText:@"Everyday Account" style:UIFontTextStyleHeadline color:[UIColor labelColor]],
        [self labelWithText:@"DE89 3704 0044 0532 0130 00" style:UIFontTextStyleSubheadline color:[UIColor secondaryLabelColor]],
        balance,
        [self labelWithText:@"Available balance" style:UIFontTextStyleFootnote color:[UIColor secondaryLabelColor]],
    ]];
    card.axis = UILayoutConstraintAxisVertical;
    card.spacing = 6;
    card.layoutMarginsRelativeArrangement = YES;
    card.layoutMargins = UIEdgeInsetsMake(16, 16, 16, 16);
    card.backgroundColor = [UIColor secondarySystemGroupedBackgroundColor];
    card.layer.cornerRadius = 12;
    return card;
}

- (UIButton *)sendMoneyButton {
    UIButton *button = [UIButton buttonWithType:UIButtonTypeSystem];
    [button setTitle:@"Send money" forState:UIControlStateNormal];
    [button setTitleColor:[UIColor whiteColor] forState:UIControlStateNormal];
    button.titleLabel.font = [UIFont preferredFontForTextStyle:UIFontTextStyleHeadline];
    button.backgroundColor = [UIColor systemBlueColor];
    button.layer.cornerRadius = 12;
    [button.heightAnchor constraintGreaterThanOrEqualToConstant:50].active = YES;
    [button addTarget:self action:@selector(sendMoney) forControlEvents:UIControlEventTouchUpInside];
    return button;
}

#if DEBUG
/// Debug builds only.
- (UIView *)debugSection {
    UISegmentedControl *policy =
        [[UISegmentedControl alloc] initWithItems:@[ @"Close app in 10 s", @"Warn, acknowledge in 5 s" ]];
    policy.selectedSegmentIndex = 0;
    [policy addTarget:self action:@selector(policyChanged:) forControlEvents:UIControlEventValueChanged];

    self.callSwitch = [[UISwitch alloc] init];
    self.callSwitch.accessibilityLabel = @"Simulate a call";
    [self.callSwitch addTarget:self action:@selector(simulateCallChanged:) forControlEvents:UIControlEventValueChanged];
    UIStackView *switchRow = [[UIStackView alloc] initWithArrangedSubviews:@[
        [self labelWithText:@"Simulate a call" style:UIFontTextStyleBody color:[UIColor labelColor]],
        self.callSwitch,
    ]];
    switchRow.spacing = 8;

    self.eventLabel = [self labelWithText:@"Last call event: none" style:UIFontTextStyleFootnote color:[UIColor secondaryLabelColor]];

    UIStackView *section = [[UIStackView alloc] initWithArrangedSubviews:@[
        [self labelWithText:@"DEBUG" style:UIFontTextStyleCaption1 color:[UIColor secondaryLabelColor]],
        policy, switchRow, self.eventLabel,
    ]];
    section.axis = UILayoutConstraintAxisVertical;
    section.spacing = 12;
    return section;
}
#endif

- (UILabel *)labelWithText:(NSString *)text style:(UIFontTextStyle)style color:(UIColor *)color {
    UILabel *label = [[UILabel alloc] init];
    label.text = text;
    label.font = [UIFont preferredFontForTextStyle:style];
    label.adjustsFontForContentSizeCategory = YES;
    label.textColor = color;
    label.numberOfLines = 0;
    return label;
}

- (void)callEvent:(NSNotification *)notification {
    NSNumber *value = notification.object;
    switch ((CallEvent)value.integerValue) {
        case CallEventRinging: self.eventLabel.text = @"Last call event: ringing"; break;
        case CallEventStarted: self.eventLabel.text = @"Last call event: started"; break;
        case CallEventEnded: self.eventLabel.text = @"Last call event: ended"; break;
    }
}

- (void)sendMoney {
    // The risk check at the moment of the payment: a call live now, or one that ended within the
    // last two minutes (the caller may have hung up just before), or a shared screen.
    CallMonitor *monitor = [CallMonitor sharedInstance];
    BOOL risky = [monitor wasCallLiveWithinLast:120] || monitor.isScreenCaptured;
    if (!risky) {
        // The transfer screen guards itself (TransferViewController).
        [self.navigationController pushViewController:[[TransferViewController alloc] init] animated:YES];
        return;
    }
    UIAlertController *alert = [UIAlertController alertControllerWithTitle:@"Send money"
                                                                   message:@"A call was live in the last two minutes: this payment would be held for review. (This example app does not send money.)"
                                                            preferredStyle:UIAlertControllerStyleAlert];
    [alert addAction:[UIAlertAction actionWithTitle:@"OK" style:UIAlertActionStyleDefault handler:nil]];
    [self presentViewController:alert animated:YES completion:nil];
}

#if DEBUG
- (void)policyChanged:(UISegmentedControl *)control {
    // Starting again with a new policy replaces the running one.
    if (control.selectedSegmentIndex == 0) {
        [[CallMonitor sharedInstance] startMonitoringWithTerminateIn:10];
    } else {
        [[CallMonitor sharedInstance] startMonitoringWithAcknowledgeIn:5];
    }
}

- (void)simulateCallChanged:(UISwitch *)control {
    if (!control.isOn) {
        [self.debugCall end];
        return;
    }
    __weak AccountViewController *weakSelf = self;
    [self.debugCall startWithCompletion:^(NSError *_Nullable error) {
        if (error == nil) {
            return;
        }
        [weakSelf.callSwitch setOn:NO animated:YES];
        UIAlertController *alert = [UIAlertController alertControllerWithTitle:@"No debug call"
                                                                       message:error.localizedDescription
                                                                preferredStyle:UIAlertControllerStyleAlert];
        [alert addAction:[UIAlertAction actionWithTitle:@"OK" style:UIAlertActionStyleDefault handler:nil]];
        [weakSelf presentViewController:alert animated:YES completion:nil];
    }];
}
#endif

@end

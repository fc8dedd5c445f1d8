// The transfer screen: guarded on its own, more strictly than the rest of the app. Its protection
// begins in viewWillAppear and ends in viewDidDisappear, so a screen pushed on top of it (which
// appears before this one disappears) can never leave a gap, and going back never resets a
// countdown (rules 18 and 21 of the behaviour contract).

import UIKit
import hnb

final class TransferViewController: UIViewController {
    /// Open while the screen is on screen; `end()` is safe to call more than once.
    private var protection: CallMonitorProtection?

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Send money"
        view.backgroundColor = .systemGroupedBackground
        let text = UILabel()
        text.text = "While a call is live, this screen closes the app after 5 seconds, whatever the policy of the rest of the app. (This example app does not send money.)"
        text.numberOfLines = 0
        text.font = .preferredFont(forTextStyle: .body)
        text.adjustsFontForContentSizeCategory = true
        text.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(text)
        let margins = view.layoutMarginsGuide
        NSLayoutConstraint.activate([
            text.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 24),
            text.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
            text.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
        ])
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        protection = Monitoring.shared.protectTransferScreen()
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        protection?.end()
        protection = nil
    }
}

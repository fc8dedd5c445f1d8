// The app's one screen, as a bank's account overview might look: the balance and a "Send money"
// button, plus a debug section that scripts a phone call.

import UIKit
import hnb

final class AccountViewController: UIViewController {
    private let eventLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Accounts"
        view.backgroundColor = .systemGroupedBackground

        var sections = [accountCard(), sendMoneyButton()]
        #if DEBUG
        sections.append(debugSection())
        #endif
        let stack = UIStackView(arrangedSubviews: sections)
        stack.axis = .vertical
        stack.spacing = 24
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        let margins = view.layoutMarginsGuide
        NSLayoutConstraint.activate([
            stack.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 24),
            stack.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
            stack.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
        ])

        NotificationCenter.default.addObserver(self, selector: #selector(callEvent(_:)), name: Monitoring.callEventNotification, object: nil)
    }

    private func accountCard() -> UIView {
        let name = label("Everyday Account", style: .headline)
        let number = label("DE89 3704 0044 0532 0130 00", style: .subheadline, color: .secondaryLabel)
        let balance = label("€ 2,481.09", style: .largeTitle)
        balance.accessibilityLabel = "Balance: 2,481 euros 9 cents"
        let caption = label("Available balance", style: .footnote, color: .secondaryLabel)
        let card = UIStackView(arrangedSubviews: [name, number, balance, caption])
        card.axis = .vertical
        card.spacing = 6
        card.isLayoutMarginsRelativeArrangement = true
        card.layoutMargins = UIEdgeInsets(top: 16, left: 16, bottom: 16, right: 16)
        card.backgroundColor = .secondarySystemGroupedBackground
        card.layer.cornerRadius = 12
        return card
    }

    private func sendMoneyButton() -> UIButton {
        let button = UIButton(type: .system)
        button.setTitle("Send money", for: .normal)
        button.titleLabel?.font = .preferredFont(forTextStyle: .headline)
        button.backgroundColor = .systemBlue
        button.setTitleColor(.white, for: .normal)
        button.layer.cornerRadius = 12
        button.heightAnchor.constraint(greaterThanOrEqualToConstant: 50).isActive = true
        button.addTarget(self, action: #selector(sendMoney), for: .touchUpInside)
        return button
    }

    #if DEBUG
    /// Debug builds only (a release build has no way to stop the shared monitor). Switching on starts a connected call on the
    /// app's own simulated monitor; the built-in dialog appears at once.
    private func debugSection() -> UIView {
        let header = label("DEBUG", style: .caption1, color: .secondaryLabel)

        let policy = UISegmentedControl(items: Monitoring.Policy.allCases.map(\.title))
        policy.selectedSegmentIndex = Monitoring.shared.policy.rawValue
        policy.addTarget(self, action: #selector(policyChanged(_:)), for: .valueChanged)

        let callSwitch = UISwitch()
        callSwitch.accessibilityLabel = "Simulate a call"
        callSwitch.addTarget(self, action: #selector(simulateCallChanged(_:)), for: .valueChanged)
        let switchRow = UIStackView(arrangedSubviews: [label("Simulate a call", style: .body), callSwitch])
        switchRow.spacing = 8

        eventLabel.text = "Last call event: none"
        eventLabel.font = .preferredFont(forTextStyle: .footnote)
        eventLabel.textColor = .secondaryLabel

        let section = UIStackView(arrangedSubviews: [header, policy, switchRow, eventLabel])
        section.axis = .vertical
        section.spacing = 12
        return section
    }
    #endif

    private func label(_ text: String, style: UIFont.TextStyle, color: UIColor = .label) -> UILabel {
        let label = UILabel()
        label.text = text
        label.font = .preferredFont(forTextStyle: style)
        label.adjustsFontForContentSizeCategory = true
        label.textColor = color
        label.numberOfLines = 0
        return label
    }

    @objc private func callEvent(_ notification: Notification) {
        guard let event = notification.object as? CallEvent else { return }
        eventLabel.text = "Last call event: \(event)"
    }

    @objc private func sendMoney() {
        guard Monitoring.shared.paymentLooksRisky else {
            // The transfer screen guards itself (TransferViewController).
            navigationController?.pushViewController(TransferViewController(), animated: true)
            return
        }
        let message = "A call was live in the last two minutes: this payment would be held for review. (This example app does not send money.)"
        let alert = UIAlertController(title: "Send money", message: message, preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "OK", style: .default))
        present(alert, animated: true)
    }

    #if DEBUG
    @objc private func policyChanged(_ control: UISegmentedControl) {
        guard let policy = Monitoring.Policy(rawValue: control.selectedSegmentIndex) else { return }
        Monitoring.shared.setPolicy(policy)
    }

    @objc private func simulateCallChanged(_ control: UISwitch) {
        Monitoring.shared.setSimulatingCall(control.isOn)
    }
    #endif
}

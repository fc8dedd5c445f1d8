// The string keys of the built-in dialog, their English defaults, and a formatter that puts the
// countdown number into a string the host app may have overridden, without trusting that string.

extension CallMonitorStrings {
    /// A string of the built-in security dialog. The raw value is the key an app uses in its own
    /// `Localizable.strings` to override the text.
    public enum Key: String, Sendable, CaseIterable {
        /// The dialog's title, in both flows.
        case alertTitle = "call_monitor_alert_title"
        /// The dialog's body in the terminate flow.
        case alertMessage = "call_monitor_alert_message"
        /// The dialog's body in the acknowledge flow.
        case alertMessageWarning = "call_monitor_alert_message_warning"
        /// The dialog's body for a coaching warning (rule 32): an acknowledge warning begun by a
        /// coaching signal with no call live, so it says nothing of a call. Not in the reference.
        case alertMessageCoaching = "call_monitor_alert_message_coaching"
        /// The button of the terminate flow.
        case buttonClose = "call_monitor_button_close"
        /// The button of the acknowledge flow.
        case buttonAcknowledge = "call_monitor_button_acknowledge"
        /// The countdown line of the terminate flow; `%d` is the number of seconds.
        case closeCountdown = "call_monitor_close_countdown"
        /// The countdown line of the acknowledge flow; `%d` is the number of seconds.
        case acknowledgeCountdown = "call_monitor_acknowledge_countdown"
        /// The acknowledge flow's button while the acknowledgement is refused because the screen is
        /// captured (rule 17, opt-in): it says why. Not in the reference.
        case buttonRefusedWhileCaptured = "call_monitor_button_refused_screen_captured"
        /// The dialog's verdict line when the bank's backend says it is not calling the user
        /// (rule 24): plain words that the bank is not calling and to hang up. Not in the reference.
        case verdictBankIsNotCalling = "call_monitor_verdict_bank_not_calling"
        /// The dialog's verdict line when the bank's backend says one of its agents is on a call with
        /// the user now (rule 24). Not in the reference.
        case verdictBankIsCalling = "call_monitor_verdict_bank_calling"
        /// The line a ``CallMonitorContext/Kind/payment`` context adds under the message (issue 30).
        /// Not in the reference.
        case contextPayment = "call_monitor_context_payment"
        /// The line a ``CallMonitorContext/Kind/credentials`` context adds. Not in the reference.
        case contextCredentials = "call_monitor_context_credentials"
        /// The line a ``CallMonitorContext/Kind/deviceChange`` context adds. Not in the reference.
        case contextDeviceChange = "call_monitor_context_device_change"
        /// The line a ``CallMonitorContext/Kind/accountChange`` context adds. Not in the reference.
        case contextAccountChange = "call_monitor_context_account_change"
        /// The line a ``CallMonitor/CoachingLevel/medium`` coaching answer adds to the dialog
        /// (rule 34): what is known (some signs of someone guiding the person), what a bank never
        /// asks, and that the signal alone does not stop the person. Shown in every flow, so it
        /// says nothing of a call or of acknowledging. Not in the reference.
        case alertCoachingMedium = "call_monitor_alert_coaching_medium"
        /// The line a ``CallMonitor/CoachingLevel/high`` coaching answer adds (rule 34): as
        /// ``alertCoachingMedium``, with strong signs. Not in the reference.
        case alertCoachingHigh = "call_monitor_alert_coaching_high"

        /// The hard-coded English text, the last step of the fallback chain.
        public var englishDefault: String {
            switch self {
            case .alertTitle: "Security Policy"
            case .alertMessage: "Application access is disabled during active calls for your protection."
            case .alertMessageWarning: "Using this application during an active call may expose sensitive information."
            case .alertMessageCoaching:
                "Someone may be guiding you through this right now. Your bank will never ask you to move money, share codes or change your details for someone else. You can go on once you have read this."
            case .buttonClose: "Close App"
            case .buttonAcknowledge: "Acknowledge"
            case .closeCountdown: "App will close in %d seconds."
            case .acknowledgeCountdown: "Acknowledge in %d seconds."
            case .buttonRefusedWhileCaptured: "Stop screen sharing to acknowledge"
            case .verdictBankIsNotCalling: "Your bank is not calling you. Hang up now."
            case .verdictBankIsCalling: "Your bank is on a call with you right now."
            case .contextPayment: "Your bank will never ask you to move money while you are on a call."
            case .contextCredentials: "Your bank will never ask for your PIN, passwords or codes on a call."
            case .contextDeviceChange: "Your bank will never ask you to install an app or add a device on a call."
            case .contextAccountChange: "Your bank will never ask you to change your account details on a call."
            case .alertCoachingMedium:
                "A security check found some signs that someone may be guiding you. Your bank will never ask you to move money or share codes for someone else. This check alone does not stop you from going on."
            case .alertCoachingHigh:
                "A security check found strong signs that someone may be guiding you. Your bank will never ask you to move money or share codes for someone else. This check alone does not stop you from going on."
            }
        }

        /// The English default for a count: countdown lines say "1 second", other counts "seconds".
        func englishDefault(count: Int) -> String {
            switch (self, count) {
            case (.closeCountdown, 1): "App will close in %d second."
            case (.acknowledgeCountdown, 1): "Acknowledge in %d second."
            default: englishDefault
            }
        }
    }
}

/// Substitutes a count into a countdown template without handing the template to a C formatter.
///
/// The template may come from the host app's bundle, so it is untrusted: `%d`, `%i`, `%1$d`
/// (and the `l`/`ll` length forms such as `%ld`) become the number, `%%` becomes `%`, and every
/// other specifier (`%@`, `%s`, `%n`, `%x`, a lone `%`) stays in the text as written. No input
/// can crash, read memory or write memory.
enum CountFormatter {
    static func format(_ template: String, count: Int) -> String {
        let chars = Array(template.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < chars.count {
            guard chars[i] == "%" else {
                out.append(chars[i])
                i += 1
                continue
            }
            if let end = endOfNumberSpecifier(chars, from: i + 1) {
                out.append(contentsOf: String(count).unicodeScalars)
                i = end
            } else if i + 1 < chars.count, chars[i + 1] == "%" {
                out.append("%")
                i += 2
            } else {
                out.append("%")
                i += 1
            }
        }
        return String(out)
    }

    /// If `chars[start...]` continues a `%` into an integer specifier for the first argument,
    /// returns the index just past it.
    private static func endOfNumberSpecifier(_ chars: [Unicode.Scalar], from start: Int) -> Int? {
        var j = start
        // Optional positional form `1$`; any other position names an argument that does not exist.
        if j + 1 < chars.count, chars[j] == "1", chars[j + 1] == "$" { j += 2 }
        // Optional length modifiers `l` or `ll`.
        var lengths = 0
        while j < chars.count, chars[j] == "l", lengths < 2 {
            j += 1
            lengths += 1
        }
        guard j < chars.count, chars[j] == "d" || chars[j] == "i" else { return nil }
        return j + 1
    }
}

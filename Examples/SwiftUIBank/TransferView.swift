// The transfer screen: guarded with the terminate flow while it is on screen, and the warning says
// what is at stake. The modifier begins the protection on appear (once, however often SwiftUI
// calls onAppear) and ends it on disappear.

import SwiftUI
import hnb
import hnbSwiftUI

struct TransferView: View {
    let amount: String
    let payee: String
    @State private var sent = false

    var body: some View {
        Form {
            Section(header: Text("Transfer")) {
                Text("€\(amount) to \(payee)")
                Button(sent ? "Sent" : "Confirm") { sent = true }
                    .disabled(sent)
            }
        }
        .navigationBarTitle("Review")
        // The payee's name comes from the user (or a scammer dictating it): the library cleans it
        // before the dialog draws it, so no character in it can reorder or hide the sentence.
        .callMonitorProtection(
            terminateIn: 10,
            context: CallMonitorContext(kind: .payment, detail: "You are sending €\(amount) to \(payee)."))
    }
}

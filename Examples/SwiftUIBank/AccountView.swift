// The account screen: a balance and a way to the transfer screen. It is guarded by the app-wide
// policy only (AppDelegate): a call shows the acknowledge warning here.

import SwiftUI

struct AccountView: View {
    @State private var amount = "2000"
    @State private var payee = "M. Mustermann"

    var body: some View {
        NavigationView {
            Form {
                Section(header: Text("Balance")) {
                    Text("€12,480.00")
                }
                Section(header: Text("Send money")) {
                    TextField("Payee", text: $payee)
                    TextField("Amount in euros", text: $amount)
                    NavigationLink(destination: TransferView(amount: amount, payee: payee)) {
                        Text("Review transfer")
                    }
                }
            }
            .navigationBarTitle("Account")
        }
        .navigationViewStyle(StackNavigationViewStyle())
    }
}

// Rule 35 in the verifier: a document's `coaching` member is read strictly. Each level's response is
// `code`, `off`, `evaluate` or an acknowledge warning; an unknown level, an unknown member, a
// terminate flow or seconds outside Int32 refuse the whole document with a detail that names the
// path and quotes at most a short value; seconds within Int32 are clamped as the API clamps them.

import Foundation
import Testing
@testable import hnb
@testable import hnbPolicy

@Suite("Remote policy: the coaching member is read strictly (rule 35)")
struct RemoteCoachingDocumentTests {
    let signer = PolicyTestSigner.shared

    func explained(_ coaching: String) -> Result<PolicyDocument, PolicyRefusal> {
        let bytes = signer.document(rules: #"[{"policy":{"coaching":\#(coaching)}}]"#)
        return PolicyDocument.verifyExplained(bytes, keys: signer.keys, issuer: "com.bank.app", crypto: PolicyTestSigner.crypto)
    }

    func refusal(_ coaching: String) -> PolicyRefusal? {
        if case .failure(let refusal) = explained(coaching) { refusal } else { nil }
    }

    func coaching(_ coaching: String) -> [String: RemoteCoaching]? {
        if case .success(let document) = explained(coaching) { document.rules.first?.policy.coaching } else { nil }
    }

    @Test("Rule 35: each response form is read; code and an absent level are the code's; negative seconds are 0")
    func responsesRead() {
        #expect(coaching(#"{"screens":{"transfer":{"medium":"off","high":"evaluate"},"login":{"medium":{"flow":"acknowledge","seconds":8},"high":"code"}}}"#)
            == ["transfer": RemoteCoaching(medium: .off, high: .evaluate), "login": RemoteCoaching(medium: .acknowledge(seconds: 8), high: nil)])
        #expect(coaching(#"{"screens":{"transfer":{"high":{"flow":"acknowledge","seconds":-7}}}}"#)
            == ["transfer": RemoteCoaching(medium: nil, high: .acknowledge(seconds: 0))])
        #expect(coaching(#"{"screens":{"transfer":{"high":{"flow":"acknowledge","seconds":2147483647}}}}"#)
            == ["transfer": RemoteCoaching(medium: nil, high: .acknowledge(seconds: Int32.max))])
        #expect(coaching(#"{}"#) == [:])
    }

    @Test("Rule 35: an unknown level is refused whole (unknownField), naming the screen and the level")
    func unknownLevelRefused() {
        #expect(refusal(#"{"screens":{"transfer":{"medium":"off","unknown":"off"}}}"#) == PolicyRefusal(.unknownField,
            #"rules[0].policy.coaching.screens.transfer: "unknown" is not a level: expected only medium and high (unknown is never set: it changes nothing)"#))
        #expect(refusal(#"{"screens":{"transfer":{"low":{"flow":"acknowledge","seconds":3}}}}"#) == PolicyRefusal(.unknownField,
            #"rules[0].policy.coaching.screens.transfer: "low" is not a level: expected only medium and high (unknown is never set: it changes nothing)"#))
    }

    @Test("Rule 35: an unknown member is refused whole (unknownField), and a long one is cut, never echoed whole")
    func unknownMemberRefused() {
        #expect(refusal(#"{"screens":{},"appWide":{"medium":"off"}}"#)
            == PolicyRefusal(.unknownField, "rules[0].policy.coaching.appWide: expected only screens"))
        #expect(refusal(#"{"screens":{"transfer":{"medium":{"flow":"acknowledge","seconds":3,"button":"hidden"}}}}"#)
            == PolicyRefusal(.unknownField, "rules[0].policy.coaching.screens.transfer.medium.button: expected only flow and seconds"))
        let long = String(repeating: "x", count: 500)
        #expect(refusal(#"{"screens":{},"\#(long)":1}"#)
            == PolicyRefusal(.unknownField, "rules[0].policy.coaching.\(String(repeating: "x", count: 40))…: expected only screens"))
    }

    @Test("Rule 35: a response that is not one is refused whole (invalidPolicy): a terminate flow, another word, the wrong type")
    func badResponsesRefused() {
        let expected = #"expected "code", "off", "evaluate" or {"flow": "acknowledge", "seconds": N}"#
        #expect(refusal(#"{"screens":{"transfer":{"high":{"flow":"terminate","seconds":3}}}}"#) == PolicyRefusal(.invalidPolicy,
            #"rules[0].policy.coaching.screens.transfer.high.flow: expected "acknowledge" (a coaching signal never starts a countdown to exit), got "terminate""#))
        #expect(refusal(#"{"screens":{"transfer":{"high":"block"}}}"#)
            == PolicyRefusal(.invalidPolicy, #"rules[0].policy.coaching.screens.transfer.high: \#(expected), got "block""#))
        #expect(refusal(#"{"screens":{"transfer":"off"}}"#) == PolicyRefusal(.invalidPolicy,
            #"rules[0].policy.coaching.screens.transfer: expected an object of levels {"medium": …, "high": …}, got "off""#))
        #expect(refusal(#"{"screens":["transfer"]}"#)
            == PolicyRefusal(.invalidPolicy, "rules[0].policy.coaching.screens: expected an object of screen names, got an array"))
        #expect(refusal(#""off""#) == PolicyRefusal(.invalidPolicy, #"rules[0].policy.coaching: expected an object {"screens": {…}}, got "off""#))
    }

    @Test("Rule 35: seconds outside Int32 are refused (secondsOutOfRange) as a screen's are; a fraction is invalidPolicy")
    func secondsOutOfRangeRefused() {
        let range = "expected an integer from -2147483648 to 2147483647"
        #expect(refusal(#"{"screens":{"transfer":{"medium":{"flow":"acknowledge","seconds":2147483648}}}}"#) == PolicyRefusal(.secondsOutOfRange,
            "rules[0].policy.coaching.screens.transfer.medium.seconds: \(range), got 2147483648"))
        #expect(refusal(#"{"screens":{"transfer":{"medium":{"flow":"acknowledge","seconds":1e30}}}}"#) == PolicyRefusal(.secondsOutOfRange,
            "rules[0].policy.coaching.screens.transfer.medium.seconds: \(range), got 1e30"))
        #expect(refusal(#"{"screens":{"transfer":{"medium":{"flow":"acknowledge","seconds":2.5}}}}"#) == PolicyRefusal(.invalidPolicy,
            "rules[0].policy.coaching.screens.transfer.medium.seconds: \(range), got 2.5"))
        #expect(refusal(#"{"screens":{"transfer":{"medium":{"flow":"acknowledge"}}}}"#) == PolicyRefusal(.invalidPolicy,
            "rules[0].policy.coaching.screens.transfer.medium.seconds: \(range), got none"))
    }
}

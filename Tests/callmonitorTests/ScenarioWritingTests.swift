// The scenario language written and read in one place (issue 39): what the recorder writes with
// ScenarioWriter reads back, through the parser, as the value it was written from.

import Testing
import hnb
@testable import ScenarioLanguage

@Suite("Scenario writing")
struct ScenarioWritingTests {
    @Test("Every verdict's written word parses back to that verdict", arguments: CallMonitorCallVerdict.allCases)
    func verdictWords(verdict: CallMonitorCallVerdict) throws {
        let steps = try ScenarioParser.parse("0 verdict answer 1 \(ScenarioWriter.word(verdict))\n")
        #expect(steps.map(\.command) == [.verdictAnswer(question: 1, verdict)])
    }

    @Test("The parser's verdict words are the writer's, in the order its messages name them")
    func verdictWordList() {
        #expect(ScenarioParser.verdictWords == ["bank", "notbank", "unknown"])
    }

    @Test("A written time reads back to the same nanosecond", arguments: [Int64(0), 1, 999_999_999, 1_000_000_000, 1_500_000_000, 3_600_000_000_001])
    func times(nanoseconds: Int64) {
        #expect(ScenarioParser.parseTime(ScenarioWriter.seconds(nanoseconds)) == nanoseconds)
    }

    @Test("A quoted detail with quotes and backslashes splits back to one word, the detail itself")
    func quotedDetail() throws {
        let detail = #"You are sending "€2,000" to M\N # not a comment"#
        #expect(try ScenarioWords.split(Substring("0 protect P1 terminate 3 payment \(ScenarioWriter.quoted(detail))")) ==
            ["0", "protect", "P1", "terminate", "3", "payment", detail])
    }

    @Test("A call's written state reads back as the snapshot's state")
    func callStates() throws {
        let snapshots = [
            CallSnapshot(id: CallID("r")), CallSnapshot(id: CallID("d"), isOutgoing: true),
            CallSnapshot(id: CallID("c"), hasConnected: true), CallSnapshot(id: CallID("h"), hasConnected: true, isOnHold: true),
            CallSnapshot(id: CallID("e"), hasEnded: true),
        ]
        let words = snapshots.map { "\($0.id):\(ListedCallState($0).rawValue)" }
        #expect(words == ["r:ringing", "d:dialing", "c:connected", "h:held", "e:ended"])
        let steps = try ScenarioParser.parse("0 changes \(words.joined(separator: " "))\n")
        #expect(steps.map(\.command) == [.callChanges(snapshots.map { ListedCall(id: "\($0.id)", state: ListedCallState($0)) })])
    }

    @Test("A protect line's operation id follows the context as `operation \"ID\"`, with or without a detail; a detail that reads \"operation\" stays a detail")
    func protectOperationID() throws {
        let steps = try ScenarioParser.parse("""
            0 protect a terminate 5 payment operation "TX 1"
            0 protect b acknowledge 3 credentials "Your code" operation "LOGIN-7"
            0 protect c terminate 2 payment "operation"
            0 protect d terminate 2 accountChange "Change" operation "operation"

            """)
        #expect(steps.map(\.command) == [
            .protect("a", .terminate, seconds: 5, context: CallMonitorContext(kind: .payment, operationID: "TX 1")),
            .protect("b", .acknowledge, seconds: 3, context: CallMonitorContext(kind: .credentials, detail: "Your code", operationID: "LOGIN-7")),
            .protect("c", .terminate, seconds: 2, context: CallMonitorContext(kind: .payment, detail: "operation")),
            .protect("d", .terminate, seconds: 2, context: CallMonitorContext(kind: .accountChange, detail: "Change", operationID: "operation")),
        ])
    }
}

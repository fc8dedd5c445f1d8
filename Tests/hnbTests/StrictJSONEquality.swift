// Equality of parsed JSON values, for the tests that compare what the reader produced with what
// they expect. The library has no use for it (it reads values, never compares two), so it lives
// here rather than in every app's binary (issue 27).

@testable import hnb
@testable import hnbPolicy

extension StrictJSON: Equatable {
    /// Same shape, same members in the same order, same scalars. Numbers compare by value, not by
    /// their literal, as the reader keeps the literal only for messages.
    public static func == (lhs: StrictJSON, rhs: StrictJSON) -> Bool {
        switch (lhs, rhs) {
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(a), .array(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.number(a, _), .number(b, _)): a == b
        case let (.bool(a), .bool(b)): a == b
        case (.null, .null): true
        default: false
        }
    }
}

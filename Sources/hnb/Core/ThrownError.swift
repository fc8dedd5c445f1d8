// Why the products' throwing functions (hnbPolicy's reader, ScenarioLanguage's parser,
// hnbRecording's file) are untyped, `throws` and not `throws(PolicyRefusal)`, though each throws
// one type only: a typed `throw` is lowered through a standard-library hook (`_willThrowTyped`)
// that Swift 5.9's library, the one of the iOS 17 SDK the Apple kit checks against, does not
// have, and the compiler crashes on it. So the one error type each reader throws is pinned by
// tests instead (Tests/hnbTests/ThrownErrorTests.swift), and the catching side narrows what it
// caught with `narrowed(or:)`, giving the fallback a caller must act on when the impossible
// happens: a refusal, never an acceptance.

extension Error {
    /// This error as `E`, the one type the function that threw it throws; `fallback` when it is
    /// anything else, which only a bug can cause, so each caller's fallback refuses.
    package func narrowed<E: Error>(or fallback: @autoclosure () -> E) -> E {
        (self as? E) ?? fallback()
    }
}

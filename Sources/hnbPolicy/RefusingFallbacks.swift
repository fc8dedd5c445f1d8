// What the policy product's catches narrow an error of another type to (`Error.narrowed(or:)`,
// Sources/hnb/Core/ThrownError.swift says why its throws are untyped): always a refusal, since
// such an error can only be a bug, and a bug must refuse the document, never accept it.

import hnb

extension PolicyRefusal {
    /// What a reader's catch narrows an error of another type to: a refusal of the document.
    static let unexpected = PolicyRefusal(.malformed, "the reader failed unexpectedly; the document is refused")
}

extension StrictJSON.Failure {
    /// What a catch narrows an error of another type to: not JSON, so refused by every caller.
    static var unexpected: Self { .syntax(at: 0) }
}

extension PolicyKeySet.Failure {
    /// What a catch narrows an error of another type to: a key set that is not read.
    static var unexpected: Self { Self("the key set could not be read") }
}

extension PolicyManifest.ReadError {
    /// What a catch narrows an error of another type to: a manifest that is not read.
    package static var unexpected: Self { Self(message: "the manifest could not be read") }
}

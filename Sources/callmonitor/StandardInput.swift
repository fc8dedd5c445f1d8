// Standard input as it comes, for the interactive demo's keys and watch's taps: one reader both
// share, so the end of input and an interrupted read are handled the same way in each.

import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

enum StandardInput {
    /// Reads standard input on a queue of its own, named `label`, and hands each burst of bytes to
    /// `handle` on the main queue; the end of input (or a read error) comes as an empty burst,
    /// the last one.
    ///
    /// A blocking reader rather than a read source: it sees every byte of a burst (a pipe
    /// delivers "iahq" at once) and the end of input.
    static func readBursts(label: String, _ handle: @escaping @Sendable @MainActor ([UInt8]) -> Void) {
        DispatchQueue(label: label).async {
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                let bytes = count > 0 ? Array(buffer[0..<count]) : []
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { handle(bytes) }
                }
                if count <= 0 { return }
            }
        }
    }
}

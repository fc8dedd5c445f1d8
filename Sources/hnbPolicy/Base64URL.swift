// Base64url without padding (RFC 4648 section 5, as RFC 7515 uses it), decoded strictly: one
// text gives one byte string and one byte string has one text. A lenient decoder (padding
// accepted, stray bits ignored, other alphabets mixed in) lets many texts stand for one
// signature, which is how malleability bugs start; the issue asks for the strict reading.

package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// The bytes `text` encodes, or `nil` when it is not canonical unpadded base64url: a
    /// character outside the alphabet (padding included), a length that leaves one character
    /// over, or bits set past the last byte.
    package static func decode<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in text {
            guard let value = sextet(byte) else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        // The leftover bits must be zero, or two texts would decode to the same bytes.
        guard buffer == 0 else { return nil }
        return out
    }

    /// The canonical unpadded base64url text of `bytes`.
    package static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                out.append(alphabet[Int(buffer >> UInt32(bits) & 0x3F)])
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 { out.append(alphabet[Int(buffer << UInt32(6 - bits) & 0x3F)]) }
        return String(decoding: out, as: UTF8.self)
    }
}

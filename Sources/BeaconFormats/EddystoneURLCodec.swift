/// Eddystone-URL compression (github.com/google/eddystone, eddystone-url/README.md): a scheme
/// prefix byte, then URL bytes where 0x00-0x0D stand for common domain endings.
///
/// The URL comes from the air and may hold any byte. Decision: bytes the spec reserves (0x0E-0x20,
/// 0x7F-0xFF) are percent-escaped as `%XX` (upper-case hex), so a decoded URL is always printable
/// ASCII and can never carry a terminal escape sequence or break an NDJSON line; a space becomes
/// `%20`, its usual URL spelling. `%` itself passes through as sent. Encoding undoes the escapes of
/// reserved bytes, so decode-then-encode gives back the bytes sent.
public enum EddystoneURLCodec {
    /// Scheme prefixes by code (0x00...0x03).
    public static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    /// Expansions by code (0x00...0x0D).
    public static let expansions = [
        ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
        ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
    ]
    public static let maximumEncodedLength = 17

    /// The URL for a scheme code and compressed body; nil for a reserved scheme code.
    public static func decode(scheme: UInt8, body: ArraySlice<UInt8>) -> String? {
        guard Int(scheme) < schemes.count else { return nil }
        var utf8 = Array(schemes[Int(scheme)].utf8)
        for byte in body {
            if Int(byte) < expansions.count {
                utf8.append(contentsOf: expansions[Int(byte)].utf8)
            } else if isPrintable(byte) {
                utf8.append(byte)
            } else {
                utf8.append(UInt8(ascii: "%"))
                utf8.append(hexDigit(byte >> 4))
                utf8.append(hexDigit(byte & 0xF))
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Scheme code followed by the compressed URL: the inverse of `decode`. Domain endings are
    /// replaced by expansion codes (longest match first). Throws for a scheme other than http(s)
    /// (with or without `www.`), a character that is not printable ASCII (other than a `%XX` escape
    /// of a reserved byte), or a result longer than 17 bytes.
    public static func encode(_ url: String) throws(EddystoneURLEncodingError) -> [UInt8] {
        let utf8 = Array(url.utf8)
        // Longest prefixes first, so "http://www." wins over "http://".
        let order = schemes.indices.sorted { schemes[$0].utf8.count > schemes[$1].utf8.count }
        guard let scheme = order.first(where: { hasPrefix(utf8, at: 0, Array(schemes[$0].utf8), ignoringCase: true) }) else {
            throw .unsupportedScheme
        }
        var encoded: [UInt8] = [UInt8(scheme)]
        var i = schemes[scheme].utf8.count
        while i < utf8.count {
            if let code = longestExpansion(in: utf8, at: i) {
                encoded.append(UInt8(code))
                i += expansions[code].utf8.count
            } else if let escaped = reservedEscape(in: utf8, at: i) {
                encoded.append(escaped)
                i += 3
            } else if isPrintable(utf8[i]) {
                encoded.append(utf8[i])
                i += 1
            } else {
                throw .unencodableCharacter(offset: i)
            }
        }
        guard encoded.count - 1 <= maximumEncodedLength else {
            throw .tooLong(encodedLength: encoded.count - 1)
        }
        return encoded
    }

    static func isPrintable(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    private static func longestExpansion(in utf8: [UInt8], at index: Int) -> Int? {
        var best: Int?
        for (code, text) in expansions.enumerated() where hasPrefix(utf8, at: index, Array(text.utf8), ignoringCase: false) {
            if best.map({ expansions[$0].utf8.count < text.utf8.count }) ?? true { best = code }
        }
        return best
    }

    /// `%XX` standing for a byte the spec reserves, as `decode` writes it.
    private static func reservedEscape(in utf8: [UInt8], at index: Int) -> UInt8? {
        guard index + 2 < utf8.count, utf8[index] == UInt8(ascii: "%"),
              let value = UInt8(String(decoding: utf8[(index + 1)...(index + 2)], as: UTF8.self), radix: 16),
              value >= UInt8(expansions.count), !isPrintable(value)
        else { return nil }
        return value
    }

    private static func hasPrefix(_ utf8: [UInt8], at index: Int, _ prefix: [UInt8], ignoringCase: Bool) -> Bool {
        guard index + prefix.count <= utf8.count else { return false }
        for (offset, byte) in prefix.enumerated() {
            let candidate = utf8[index + offset]
            let folded = ignoringCase && candidate >= 0x41 && candidate <= 0x5A ? candidate + 0x20 : candidate
            if folded != byte { return false }
        }
        return true
    }
}

/// Why a URL cannot be sent as an Eddystone-URL frame.
public enum EddystoneURLEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Only `http://` and `https://`, with or without `www.`, have scheme codes.
    case unsupportedScheme
    /// The byte at this UTF-8 offset is not printable ASCII (escape reserved bytes as `%XX`).
    case unencodableCharacter(offset: Int)
    /// The compressed URL needs more than the 17 bytes a frame holds.
    case tooLong(encodedLength: Int)

    public var description: String {
        switch self {
        case .unsupportedScheme: "the URL must start with http:// or https://"
        case .unencodableCharacter(let offset): "the character at byte \(offset) is not printable ASCII"
        case .tooLong(let length): "the URL compresses to \(length) bytes; an Eddystone-URL frame holds 17"
        }
    }
}

/// A 128-bit identifier as two big-endian halves: hashable and comparable without allocating,
/// which matters when a million reports a second each carry one.
public struct UUIDBytes: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var high: UInt64
    public var low: UInt64

    @inlinable
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Reads 16 bytes in transmission order (big-endian, as iBeacon and AltBeacon send them).
    public init<C: Collection>(bigEndian bytes: C) where C.Element == UInt8 {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var index = 0
        for byte in bytes.prefix(16) {
            if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
            index += 1
        }
        self.init(high: high, low: low)
    }

    /// Parses `E2C56DB5-DFFB-48D2-B060-D0F5A71096E4` (dashes optional, any case). Walks the UTF-8
    /// bytes once with no allocation: a venue view parses one per broker message (an ESPresense id),
    /// and the Character-based parse it replaces was 40% of a venue replay's CPU. Any byte that is
    /// not an ASCII hex digit or a dash (a multi-byte or combining character included) is refused.
    public init?(_ text: some StringProtocol) {
        self.init(hexDigits: text.utf8)
    }

    /// The same parse on UTF-8 bytes already at hand (an ESPresense id's first 36 bytes): 32 hex
    /// digits, dashes anywhere between them. Inlinable: it runs once per venue message, and an
    /// unspecialised generic would cost a witness call a byte.
    @inlinable
    public init?<Bytes: Sequence<UInt8>>(hexDigits utf8: Bytes) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        for byte in utf8 where byte != UInt8(ascii: "-") {
            guard digits < 32, let nibble = Self.nibble(byte) else { return nil }
            if digits < 16 { high = high << 4 | UInt64(nibble) } else { low = low << 4 | UInt64(nibble) }
            digits += 1
        }
        guard digits == 32 else { return nil }
        self.init(high: high, low: low)
    }

    /// The value of one ASCII hex digit, either case.
    @inline(__always) @usableFromInline
    static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Any even number of hex digits as bytes (nil for anything else): UUIDs, advertising data and
    /// Eddystone ids written as text.
    public static func hexBytes(_ text: Substring) -> [UInt8]? {
        // On the UTF-8 bytes: only ASCII hex digits count (a fullwidth or combined digit is refused),
        // and a venue view reads an Eddystone id's two parts this way once per broker message.
        let utf8 = text.utf8
        guard utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var high: UInt8?
        for byte in utf8 {
            guard let value = nibble(byte) else { return nil }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }

    public var bytes: [UInt8] {
        (0..<16).map { index in
            let half = index < 8 ? high : low
            return UInt8(truncatingIfNeeded: half >> UInt64(8 * (7 - index % 8)))
        }
    }

    /// Upper-case 8-4-4-4-12 form, as CoreLocation prints a proximity UUID.
    public var description: String {
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var utf8: [UInt8] = []
        utf8.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { utf8.append(UInt8(ascii: "-")) }
            utf8.append(hex[Int(byte >> 4)])
            utf8.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    public static func < (lhs: UUIDBytes, rhs: UUIDBytes) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }
}

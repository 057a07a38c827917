/// Appends JSON tokens to a UTF-8 byte buffer by hand: no Foundation, no reflection, no
/// intermediate dictionaries, because a replay writes a line per tick per second of capture time
/// and must keep up with millions of reports a second.
///
/// Strings are escaped as RFC 8259 section 7 requires (quote, backslash and every control
/// character below U+0020); numbers are written in fixed point with a bounded number of decimals
/// and trailing zeros trimmed; non-finite numbers become `null` (JSON has no NaN).
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func byte(_ value: UInt8) { bytes.append(value) }

    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Copy runs of bytes that need no escape in one go; most ids and names are one run.
            var runStart = 0
            for index in 0..<utf8.count {
                let unit = utf8[index]
                guard unit < 0x20 || unit == UInt8(ascii: "\"") || unit == UInt8(ascii: "\\") else { continue }
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                escape(unit)
                runStart = index + 1
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ unit: UInt8) {
        switch unit {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        default:
            raw("\\u00")
            bytes.append(Self.hexDigit(unit >> 4))
            bytes.append(Self.hexDigit(unit & 0xF))
        }
    }

    public mutating func integer(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            unsigned(value.magnitude)
        } else {
            unsigned(UInt(value))
        }
    }

    /// Writes `value` rounded to `decimals` (0...9) places, trailing zeros trimmed but at least
    /// one decimal kept when `keepPoint` (so `1700000000.0` stays recognisably a time).
    public mutating func number(_ value: Double, decimals: Int, keepPoint: Bool = false) {
        guard value.isFinite else { raw("null"); return }
        let places = min(max(decimals, 0), 9)
        let scale = Self.powersOfTen[places]
        let magnitude = abs(value)
        // Beyond 2^53 / scale fixed point loses precision; such values are nonsense here anyway.
        guard magnitude * Double(scale) < 9.0e15 else { raw("null"); return }
        let scaled = UInt64((magnitude * Double(scale)).rounded())
        var whole = scaled / scale
        var fraction = scaled % scale
        if scaled == 0 { whole = 0; fraction = 0 }
        if value < 0, scaled != 0 { bytes.append(UInt8(ascii: "-")) }
        unsigned(UInt(whole))
        var digits = places
        while digits > 0, fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        if digits == 0 {
            if keepPoint { raw(".0") }
            return
        }
        bytes.append(UInt8(ascii: "."))
        var divisor = Self.powersOfTen[digits - 1]
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8((fraction / divisor) % 10))
            divisor /= 10
        }
    }

    public mutating func null() { raw("null") }

    private mutating func unsigned(_ value: UInt) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) {
                bytes.append(buffer[index])
            }
        }
    }

    private static let powersOfTen: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

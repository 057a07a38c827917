/// Appends JSON tokens to a UTF-8 byte buffer by hand: no Foundation, no reflection, no
/// intermediate dictionaries, because a replay writes a line per tick per second of capture time
/// and must keep up with millions of reports a second.
///
/// Strings are escaped as RFC 8259 section 7 requires (quote, backslash and every control
/// character below U+0020); numbers are written in fixed point with a bounded number of decimals
/// and trailing zeros trimmed; non-finite numbers become `null` (JSON has no NaN).
///
/// Each token is written through one pointer into spare room at the end of the buffer (`write`),
/// not appended a byte at a time: an `Array.append` checks uniqueness and capacity per byte, and
/// that was most of the encoding time (callgrind, `beacontop-bench replay-stages`).
public struct JSONWriter: Sendable {
    /// Written bytes, then spare room (zeros).
    private var storage: [UInt8]
    private var count = 0

    public init(capacity: Int = 4096) {
        storage = [UInt8](repeating: 0, count: max(capacity, 64))
    }

    /// What has been written.
    public var bytes: ArraySlice<UInt8> { storage[0..<count] }

    public mutating func removeAll() { count = 0 }

    /// Runs `body` on room for at least `maximum` bytes at the end; it returns how many it wrote.
    @inline(__always)
    private mutating func write(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if storage.count - count < maximum {
            storage.append(contentsOf: repeatElement(0, count: max(storage.count, maximum)))
        }
        let start = count
        count += storage.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
    }

    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { text in
            write(atMost: text.count) { out in
                out.update(from: text.baseAddress!, count: text.count)
                return text.count
            }
        }
    }

    public mutating func byte(_ value: UInt8) {
        write(atMost: 1) { out in
            out[0] = value
            return 1
        }
    }

    public mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            // At worst every byte becomes a six-byte \u00XX escape.
            write(atMost: utf8.count * 6 + 2) { out in
                var written = 0
                out[written] = UInt8(ascii: "\""); written += 1
                for unit in utf8 {
                    if unit >= 0x20 && unit != UInt8(ascii: "\"") && unit != UInt8(ascii: "\\") {
                        out[written] = unit
                        written += 1
                    } else {
                        written += Self.escape(unit, into: out + written)
                    }
                }
                out[written] = UInt8(ascii: "\""); written += 1
                return written
            }
        }
    }

    private static func escape(_ unit: UInt8, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let short: UInt8? = switch unit {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        case 0x0A: UInt8(ascii: "n")
        case 0x0D: UInt8(ascii: "r")
        case 0x09: UInt8(ascii: "t")
        case 0x08: UInt8(ascii: "b")
        case 0x0C: UInt8(ascii: "f")
        default: nil
        }
        out[0] = UInt8(ascii: "\\")
        if let short {
            out[1] = short
            return 2
        }
        out[1] = UInt8(ascii: "u")
        out[2] = UInt8(ascii: "0")
        out[3] = UInt8(ascii: "0")
        out[4] = hexDigit(unit >> 4)
        out[5] = hexDigit(unit & 0xF)
        return 6
    }

    public mutating func integer(_ value: Int) {
        write(atMost: 20) { out in
            if value < 0 {
                out[0] = UInt8(ascii: "-")
                return 1 + Self.digits(UInt64(value.magnitude), into: out + 1)
            }
            return Self.digits(UInt64(value), into: out)
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
        guard magnitude * scale < 9.0e15 else { raw("null"); return }
        let scaled = UInt64((magnitude * scale).rounded())
        write(atMost: 24) { out in
            var written = 0
            if value < 0, scaled != 0 {
                out[0] = UInt8(ascii: "-")
                written = 1
            }
            // All the digits of the scaled value, at least places + 1 of them (leading zeros), then
            // the point goes `places` from the right and the fraction loses its trailing zeros.
            let digitStart = out + written
            var count = Self.digits(scaled, into: digitStart)
            if count <= places {
                let pad = places + 1 - count
                (digitStart + pad).update(from: digitStart, count: count)
                digitStart.update(repeating: UInt8(ascii: "0"), count: pad)
                count = places + 1
            }
            var fraction = places
            while fraction > 0, digitStart[count - places + fraction - 1] == UInt8(ascii: "0") { fraction -= 1 }
            let wholeCount = count - places
            written += wholeCount
            if fraction > 0 {
                // Shift the kept fraction one place right to make room for the point.
                (out + written + 1).update(from: out + written, count: fraction)
                out[written] = UInt8(ascii: ".")
                written += 1 + fraction
            } else if keepPoint {
                out[written] = UInt8(ascii: ".")
                out[written + 1] = UInt8(ascii: "0")
                written += 2
            }
            return written
        }
    }

    public mutating func null() { raw("null") }

    /// Writes the decimal digits of `value` at `out` and returns how many (1...20). Division by the
    /// constant 10 compiles to a multiply.
    private static func digits(_ value: UInt64, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 1
        var probe = value
        while probe >= 10 {
            probe /= 10
            count += 1
        }
        var rest = value
        var index = count - 1
        while index >= 0 {
            out[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            index -= 1
        }
        return count
    }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

/// Writes JSON tokens through a pointer into room a `JSONWriter` reserved; valid only inside
/// `JSONWriter.withCursor`. Each token checks it fits in the reservation (one compare, then
/// unchecked stores).
public struct JSONCursor {
    private let start: UnsafeMutablePointer<UInt8>
    /// Bytes reserved; writing more traps.
    public let limit: Int
    public private(set) var written = 0

    init(start: UnsafeMutablePointer<UInt8>, limit: Int) {
        self.start = start
        self.limit = limit
    }

    /// The most bytes `string(text)` writes: quotes, and at worst a six-byte `\u00XX` per byte.
    public static func maximumLength(of text: String) -> Int { text.utf8.count * 6 + 2 }
    public static let maximumIntegerLength = 20
    public static let maximumNumberLength = 24

    @inline(__always)
    private mutating func room(_ needed: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(written + needed <= limit, "JSON token past the reserved room")
        return start + written
    }

    public mutating func raw(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        // Keys are a few bytes: a loop, not a memmove call.
        let out = room(length)
        let source = text.utf8Start
        for index in 0..<length { out[index] = source[index] }
        written += length
    }

    public mutating func byte(_ value: UInt8) {
        room(1)[0] = value
        written += 1
    }

    public mutating func null() { raw("null") }

    public mutating func string(_ text: String) {
        let out = room(Self.maximumLength(of: text))
        out[0] = UInt8(ascii: "\"")
        var length = 1
        if let contiguous = text.utf8.withContiguousStorageIfAvailable({ Self.escaped($0, into: out + 1) }) {
            length += contiguous
        } else {
            length += Array(text.utf8).withUnsafeBufferPointer { Self.escaped($0, into: out + 1) }
        }
        out[length] = UInt8(ascii: "\"")
        written += length + 1
    }

    /// Writes `units` escaped for a JSON string at `out`; returns how many bytes. Ids, addresses and
    /// names rarely need an escape: they are scanned, then copied in one go.
    private static func escaped(_ units: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var clean = 0
        while clean < units.count, needsNoEscape(units[clean]) { clean += 1 }
        if clean > 0 { out.update(from: units.baseAddress!, count: clean) }
        var length = clean
        for unit in units[clean...] {
            if needsNoEscape(unit) {
                out[length] = unit
                length += 1
            } else {
                length += escape(unit, into: out + length)
            }
        }
        return length
    }

    @inline(__always)
    private static func needsNoEscape(_ unit: UInt8) -> Bool {
        unit >= 0x20 && unit != UInt8(ascii: "\"") && unit != UInt8(ascii: "\\")
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
        let out = room(Self.maximumIntegerLength)
        if value < 0 {
            out[0] = UInt8(ascii: "-")
            written += 1 + Self.digits(UInt64(value.magnitude), into: out + 1)
        } else {
            written += Self.digits(UInt64(value), into: out)
        }
    }

    public mutating func unsigned(_ value: UInt64) {
        written += Self.digits(value, into: room(Self.maximumIntegerLength))
    }

    /// Two upper-case hex digits (addresses and UUIDs, as their text forms print them).
    public mutating func upperHex(_ byte: UInt8) {
        let out = room(2)
        out[0] = Self.upperHexDigit(byte >> 4)
        out[1] = Self.upperHexDigit(byte & 0xF)
        written += 2
    }

    /// Writes `value` rounded to `decimals` (0...9) places, trailing zeros trimmed but at least
    /// one decimal kept when `keepPoint`.
    public mutating func number(_ value: Double, decimals: Int, keepPoint: Bool = false) {
        decimal(value, places: decimals, trimmingZeros: true, keepPoint: keepPoint)
    }

    /// Writes `value` with exactly `decimals` (0...9) places, trailing zeros kept.
    public mutating func fixed(_ value: Double, decimals: Int) {
        decimal(value, places: decimals, trimmingZeros: false, keepPoint: false)
    }

    @inline(__always)
    private mutating func decimal(_ value: Double, places decimals: Int, trimmingZeros: Bool, keepPoint: Bool) {
        guard value.isFinite else { return null() }
        let places = min(max(decimals, 0), 9)
        let scale = Self.powersOfTen[places]
        let magnitude = abs(value)
        // Beyond 2^53 / scale fixed point loses precision; such values are nonsense here anyway.
        guard magnitude * scale < 9.0e15 else { return null() }
        let scaled = UInt64((magnitude * scale).rounded())
        let out = room(Self.maximumNumberLength)
        var length = 0
        if value < 0, scaled != 0 {
            out[0] = UInt8(ascii: "-")
            length = 1
        }
        // All the digits of the scaled value, at least places + 1 of them (leading zeros); the
        // point goes `places` from the right and the fraction may lose its trailing zeros.
        let digitStart = out + length
        var count = Self.digits(scaled, into: digitStart)
        if count <= places {
            let pad = places + 1 - count
            (digitStart + pad).update(from: digitStart, count: count)
            digitStart.update(repeating: UInt8(ascii: "0"), count: pad)
            count = places + 1
        }
        var fraction = places
        while trimmingZeros, fraction > 0, digitStart[count - places + fraction - 1] == UInt8(ascii: "0") { fraction -= 1 }
        length += count - places
        if fraction > 0 {
            // Shift the kept fraction one place right to make room for the point.
            var index = fraction
            while index > 0 {
                out[length + index] = out[length + index - 1]
                index -= 1
            }
            out[length] = UInt8(ascii: ".")
            length += 1 + fraction
        } else if keepPoint {
            out[length] = UInt8(ascii: ".")
            out[length + 1] = UInt8(ascii: "0")
            length += 2
        }
        written += length
    }

    /// Writes the decimal digits of `value` at `out` and returns how many (1...20). Two digits per
    /// step, from the end of a scratch buffer, then one copy: each step waits on the division
    /// before it (a multiply by the constant's inverse), so halving the steps halves the wait.
    private static func digits(_ value: UInt64, into out: UnsafeMutablePointer<UInt8>) -> Int {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            let pairs = digitPairs.utf8Start
            var rest = value
            var start = 20
            while rest >= 100 {
                let pair = Int(truncatingIfNeeded: rest % 100) &* 2
                rest /= 100
                start -= 2
                scratch[start] = pairs[pair]
                scratch[start + 1] = pairs[pair + 1]
            }
            if rest >= 10 {
                let pair = Int(truncatingIfNeeded: rest) &* 2
                start -= 2
                scratch[start] = pairs[pair]
                scratch[start + 1] = pairs[pair + 1]
            } else {
                start -= 1
                scratch[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
            }
            // A byte loop: at most 20 bytes, where a memmove call cost more than the copy.
            let count = 20 - start
            for index in 0..<count { out[index] = scratch[start + index] }
            return count
        }
    }

    /// "00" "01" ... "99", each pair of digits at twice its value.
    private static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private static func upperHexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}

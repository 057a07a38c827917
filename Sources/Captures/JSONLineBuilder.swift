/// Builds one NDJSON object at a time straight into UTF-8 bytes, reusing its buffer: a
/// `JSONEncoder` per line costs far more than decoding the packet did.
///
/// Strings are escaped per RFC 8259 section 7: quote, backslash and every control character
/// (U+0000 to U+001F) are escaped; everything else is copied as UTF-8.
public struct JSONLineBuilder: Sendable {
    public internal(set) var bytes: [UInt8] = []
    private var needsComma = false

    public init() { bytes.reserveCapacity(256) }

    /// Starts a new line, discarding the previous one.
    public mutating func begin() {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes the object and appends the newline.
    public mutating func end() {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "\n"))
    }

    public mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func field(_ name: StaticString, _ value: String) { key(name); string(value) }
    public mutating func field(_ name: StaticString, _ value: Int) { key(name); integer(value) }
    public mutating func field(_ name: StaticString, _ value: Int?) {
        key(name)
        if let value { integer(value) } else { null() }
    }

    /// Seconds with exactly six decimals (microseconds, the resolution of btsnoop and pcap).
    public mutating func field(_ name: StaticString, seconds: Double) { key(name); fixedSixDecimals(seconds) }

    public mutating func null() { bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

    public mutating func raw(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }

    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
                case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
                case 0x00..<0x20:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, minimumDigits: 1)
    }

    /// A number with one decimal when it has a fractional part (medians of two samples).
    public mutating func number(_ value: Double) {
        guard value.isFinite, value.magnitude < 1e15 else { null(); return }
        if value == value.rounded() { integer(Int(value)); return }
        let tenths = Int((value * 10).rounded())
        if tenths < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(tenths.magnitude / 10, minimumDigits: 1)
        bytes.append(UInt8(ascii: "."))
        appendDigits(tenths.magnitude % 10, minimumDigits: 1)
    }

    /// Null when the microseconds would not fit an Int64 (|value| >= 9.2e12 s, 290,000 years): the
    /// readers refuse such times (`TimestampPolicy`), but a caller's own number must not trap here.
    public mutating func fixedSixDecimals(_ value: Double) {
        guard value.isFinite, value.magnitude < 9e12 else { null(); return }
        let micros = Int64((value * 1e6).rounded())
        if micros < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(UInt(micros.magnitude / 1_000_000), minimumDigits: 1)
        bytes.append(UInt8(ascii: "."))
        appendDigits(UInt(micros.magnitude % 1_000_000), minimumDigits: 6)
    }

    private mutating func appendDigits(_ value: UInt, minimumDigits: Int) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0 || count < minimumDigits
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }
}

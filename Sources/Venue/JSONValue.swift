/// A JSON document read from bytes that came over the network: RFC 8259 strictly, with a depth
/// limit, so a hostile payload costs at most its length and cannot recurse the stack away.
/// Written here rather than through Foundation's `JSONSerialization` because a venue view parses
/// 20,000 small messages a second (`beacontop-bench venue`) and bridging every object through
/// `NSDictionary` cost more than the presence logic itself.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Keys in document order; a repeated key keeps its last value when looked up.
    case object([(key: String, value: JSONValue)])

    public static let maximumDepth = 16

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    public init(parsing bytes: some Collection<UInt8>) throws(JSONValueError) {
        let array = Array(bytes)
        var parser = JSONParser(bytes: array)
        self = try parser.document()
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    public var number: Double? { if case .number(let value) = self { value } else { nil } }
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
}

/// Where a JSON document is malformed: the byte offset and what was expected.
public struct JSONValueError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var problem: String

    public var description: String { "JSON byte \(offset): \(problem)" }
}

public struct JSONParser {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() throws(JSONValueError) -> JSONValue {
        let value = try self.value(depth: 0)
        skipSpace()
        guard index == bytes.count else { throw fail("text after the document") }
        return value
    }

    func fail(_ problem: String) -> JSONValueError { JSONValueError(offset: index, problem: problem) }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    mutating func value(depth: Int) throws(JSONValueError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw fail("nested deeper than \(JSONValue.maximumDepth)") }
        skipSpace()
        guard index < bytes.count else { throw fail("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("unexpected character")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONValueError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("unexpected end") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw fail("expected \(word)")
        }
        index += count
    }

    mutating func object(depth: Int) throws(JSONValueError) -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key") }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw fail("expected ',' or '}'")
            }
        }
    }

    mutating func array(depth: Int) throws(JSONValueError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw fail("expected ',' or ']'")
            }
        }
    }

    /// A string's UTF-8 bytes, checked as `string()` checks them, without making a String (a
    /// venue recording's payload is wanted as bytes, and has escapes).
    mutating func stringBytes() throws(JSONValueError) -> [UInt8] {
        // ASCII text, escapes included, unescapes to valid UTF-8 (a \u escape is checked as it
        // is read), so only other text needs the String's check.
        var end = index + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] < 0x80 {
            end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return Array(try string().utf8) }
        if let utf8 = Self.simplyUnescaped(bytes, (index + 1)..<end) {
            index = end + 1
            return utf8
        }
        index += 1
        var utf8: [UInt8] = []
        utf8.reserveCapacity(end - index)
        try unescape(into: &utf8)
        return utf8
    }

    mutating func string() throws(JSONValueError) -> String {
        index += 1
        // Most strings have no escape: made straight from the bytes, without a scratch array.
        var end = index
        var ascii = true
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
            if bytes[end] >= 0x80 { ascii = false }
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let start = index
            // From a buffer pointer, and ASCII without the check: the ArraySlice path and the
            // check went through generic code, a tenth of a venue replay.
            guard let text = bytes.withUnsafeBufferPointer({ buffer -> String? in
                let run = UnsafeBufferPointer(rebasing: buffer[start..<end])
                return ascii ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
            }) else {
                throw fail("string is not UTF-8")
            }
            index = end + 1
            return text
        }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(end - index + 16)
        try unescape(into: &utf8)
        guard let text = String(validating: utf8, as: UTF8.self) else { throw fail("string is not UTF-8") }
        return text
    }

    /// The ASCII text in `range` with its one-character escapes resolved, in one pass over the
    /// buffer (a recording's payload has one per quote in it); nil when it holds a \u escape or
    /// a control character, which `unescape` reads and judges.
    private static func simplyUnescaped(_ bytes: [UInt8], _ range: Range<Int>) -> [UInt8]? {
        bytes.withUnsafeBufferPointer { buffer -> [UInt8]? in
            var failed = false
            let utf8 = [UInt8](unsafeUninitializedCapacity: range.count) { out, count in
                var offset = range.lowerBound
                while offset < range.upperBound {
                    var byte = buffer[offset]
                    if byte == UInt8(ascii: "\\") {
                        offset += 1
                        switch buffer[offset] {
                        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte = buffer[offset]
                        case UInt8(ascii: "b"): byte = 0x08
                        case UInt8(ascii: "f"): byte = 0x0C
                        case UInt8(ascii: "n"): byte = 0x0A
                        case UInt8(ascii: "r"): byte = 0x0D
                        case UInt8(ascii: "t"): byte = 0x09
                        default: failed = true
                        }
                    } else if byte < 0x20 {
                        failed = true
                    }
                    if failed { break }
                    out[count] = byte
                    count += 1
                    offset += 1
                }
            }
            return failed ? nil : utf8
        }
    }

    /// The rest of a string from `index` into `utf8`, escapes resolved, up to and past its
    /// closing quote.
    private mutating func unescape(into utf8: inout [UInt8]) throws(JSONValueError) {
        while true {
            // The plain run up to the next quote, escape or control character, in one copy.
            var plain = index
            while plain < bytes.count, bytes[plain] != UInt8(ascii: "\""), bytes[plain] != UInt8(ascii: "\\"), bytes[plain] >= 0x20 { plain += 1 }
            utf8.append(contentsOf: bytes[index..<plain])
            index = plain
            guard index < bytes.count else { throw fail("unterminated string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw fail("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): try unicodeEscape(into: &utf8)
                default: throw fail("bad escape")
                }
            default:
                throw fail("control character in a string")
            }
        }
    }

    mutating func hex4() throws(JSONValueError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("bad \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func unicodeEscape(into utf8: inout [UInt8]) throws(JSONValueError) {
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
            guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw fail("lone surrogate")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("lone surrogate") }
            code = 0x10000 + (code - 0xD800) << 10 + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(code) {
            throw fail("lone surrogate")
        }
        guard let scalar = Unicode.Scalar(code) else { throw fail("bad \\u escape") }
        utf8.append(contentsOf: String(Character(scalar)).utf8)
    }

    mutating func number() throws(JSONValueError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("bad number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("bad number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("bad number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if let exact = Self.exactValue(bytes[start..<index]) { return exact }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw fail("number out of range") }
        return value
    }

    /// Clinger's fast path: a mantissa up to 2^53 and a power of ten within 10^±22 are both exact
    /// in a Double, so one multiplication or division rounds correctly, as the standard library's
    /// correctly rounded parse does. Readings are all like that (-69.5, a recording's
    /// 1795411724.123456, 16 digits: the 15-digit bound this had sent every recorded line's time
    /// through a String and strtod); anything else goes through the standard library. Public for the
    /// venue recording's length, which reads every line's time.
    public static func exactValue(_ text: ArraySlice<UInt8>) -> Double? {
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var negative = false
        var index = text.startIndex
        if text[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var afterPoint = false
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                afterPoint = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if mantissa > 0 || byte != UInt8(ascii: "0") { digits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                if afterPoint { scale -= 1 }
            } else {
                return nil // an exponent: the slow path
            }
            index += 1
        }
        guard digits <= 19, mantissa <= 1 << 53, scale >= -22 else { return nil }
        let magnitude = scale == 0 ? Double(mantissa) : Double(mantissa) / powersOfTen[-scale]
        return negative ? -magnitude : magnitude
    }

    static let powersOfTen: [Double] = (0...22).map { power in
        var value = 1.0
        for _ in 0..<power { value *= 10 }
        return value
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

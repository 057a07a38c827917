/// The members a caller asked for in a JSON object whose values are all scalars, read in one pass
/// without building a `JSONValue` document: no array of members, no String per key, no String for
/// a value nobody asked for. A venue replay reads two such objects per message (the recording's
/// line and the ESPresense payload in it), and the document parser's allocations and key look-ups
/// were most of its time (docs/benchmarks.md "Venue messages").
///
/// It is a fast path only: anything it does not read the way `JSONValue(parsing:)` would gives nil
/// (a nested value, a key with an escape or a non-ASCII byte, a syntax error, a string that is
/// not UTF-8), and the caller then parses with `JSONValue`, which accepts what it accepts and
/// names what is wrong. So on every input it either agrees with the document parser or steps
/// aside: a repeated key keeps its last value, as `JSONValue`'s subscript does.
public struct JSONFlatObject {
    /// A member's value. A string is where its text lies in the input (it had no escape); kept as
    /// a range, not a String, so the values hold no references and cost nothing to drop.
    public enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        case number(Double)
        case string(Range<Int>)
        /// The string of `utf8Key`, whose bytes are in `utf8`.
        case utf8
    }

    private let bytes: [UInt8]
    /// The last value of `keys[index]`, nil when the object has no such member.
    private var values: [Value?]
    /// The UTF-8 bytes of `keys[utf8Key]`'s string, escapes resolved.
    public private(set) var utf8: [UInt8] = []

    /// The object in `bytes`, keeping the members named in `keys`; the string value of
    /// `keys[utf8Key]` may have escapes and is kept as bytes (`utf8`). Another key's string with
    /// an escape gives nil (the fast path is for what beacontop and ESPresense write).
    public init?(_ bytes: [UInt8], keys: [StaticString], utf8Key: Int? = nil) {
        self.bytes = bytes
        values = Array(repeating: nil, count: keys.count)
        var parser = JSONParser(bytes: bytes)
        do {
            guard try parser.flatObject(keys: keys, utf8Key: utf8Key, into: &values, utf8: &utf8) else { return nil }
        } catch {
            return nil
        }
    }

    public subscript(index: Int) -> Value? { values[index] }

    public func number(_ index: Int) -> Double? { if case .number(let value)? = values[index] { value } else { nil } }
    public func bool(_ index: Int) -> Bool? { if case .bool(let value)? = values[index] { value } else { nil } }

    /// A string member as a String (its bytes were checked as it was read).
    public func string(_ index: Int) -> String? {
        guard case .string(let range)? = values[index] else { return nil }
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }
}

extension JSONParser {
    /// Reads the whole input as one object of scalar members into `values`; false (or a throw)
    /// for anything the document parser has to judge.
    mutating func flatObject(
        keys: [StaticString], utf8Key: Int?, into values: inout [JSONFlatObject.Value?], utf8: inout [UInt8]
    ) throws(JSONValueError) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return false }
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return atEnd()
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
            guard let key = plainKey() else { return false }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipSpace()
            guard index < bytes.count else { return false }
            let wanted = keys.firstIndex { Self.equal(key, $0, in: bytes) }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                if let wanted, wanted == utf8Key {
                    utf8 = try stringBytes()
                    values[wanted] = .utf8
                } else if let wanted {
                    guard let range = try plainString() else { return false }
                    values[wanted] = .string(range)
                } else {
                    try skipString()
                }
            case UInt8(ascii: "t"):
                try literal("true")
                if let wanted { values[wanted] = .bool(true) }
            case UInt8(ascii: "f"):
                try literal("false")
                if let wanted { values[wanted] = .bool(false) }
            case UInt8(ascii: "n"):
                try literal("null")
                if let wanted { values[wanted] = .null }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let number = try number()
                if let wanted { values[wanted] = .number(number) }
            default:
                return false // a nested object or array, or not JSON
            }
            skipSpace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return atEnd()
            } else {
                return false
            }
        }
    }

    private mutating func atEnd() -> Bool {
        skipSpace()
        return index == bytes.count
    }

    /// A key of printable ASCII with no escape (every key beacontop reads), as a range of `bytes`.
    private mutating func plainKey() -> Range<Int>? {
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            guard bytes[end] >= 0x20, bytes[end] < 0x80, bytes[end] != UInt8(ascii: "\\") else { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        index = end + 1
        return start..<end
    }

    /// A string with no escape, checked as `string()` checks it, as the range of its text; nil
    /// for one with an escape.
    private mutating func plainString() throws(JSONValueError) -> Range<Int>? {
        var end = index + 1
        var ascii = true
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
            if bytes[end] >= 0x80 { ascii = false }
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
        let range = (index + 1)..<end
        if !ascii { _ = try string() } else { index = end + 1 } // validated the long way
        return range
    }

    /// Steps over a string value nobody asked for, checked as `string()` checks it.
    private mutating func skipString() throws(JSONValueError) {
        var end = index + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20, bytes[end] < 0x80 {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            index = end + 1
        } else {
            _ = try string() // an escape or a non-ASCII byte: validated the long way
        }
    }

    private static func equal(_ range: Range<Int>, _ key: StaticString, in bytes: [UInt8]) -> Bool {
        guard range.count == key.utf8CodeUnitCount else { return false }
        let start = key.utf8Start
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != start[offset] { return false }
        return true
    }
}

/// Appends JSON tokens to a UTF-8 byte buffer by hand: no Foundation, no reflection, no
/// intermediate dictionaries, because a replay writes a line per tick per second of capture time
/// and must keep up with millions of reports a second. The one writer behind every NDJSON line
/// beacontop prints (ranging ticks, frame and summary lines, ground truth, the dwell report), so
/// escaping and number formatting are written once.
///
/// Strings are escaped as RFC 8259 section 7 requires (quote, backslash and every control
/// character below U+0020); numbers are written in fixed point with a bounded number of decimals
/// and trailing zeros trimmed; non-finite numbers become `null` (JSON has no NaN).
///
/// Tokens are written through a `JSONCursor` into room reserved at the end of the buffer: a whole
/// beacon object is one reservation (`withCursor`), not an `Array.append` per byte with its
/// uniqueness and capacity checks, which were most of the encoding time (callgrind,
/// `beacontop-bench replay-stages`).
public struct JSONWriter: Sendable {
    /// Written bytes, then spare room.
    private var storage: [UInt8]
    private var count = 0

    public init(capacity: Int = 4096) {
        storage = [UInt8](repeating: 0, count: max(capacity, 64))
    }

    /// What has been written.
    public var bytes: ArraySlice<UInt8> { storage[0..<count] }

    public mutating func removeAll() { count = 0 }

    /// Runs `body` with a cursor over room for `maximum` bytes at the end of the buffer. The cursor
    /// traps rather than write past that room (`JSONCursor.limit`).
    public mutating func withCursor(reserving maximum: Int, _ body: (inout JSONCursor) -> Void) {
        if storage.count - count < maximum {
            storage.append(contentsOf: repeatElement(0, count: max(storage.count, maximum)))
        }
        let start = count
        count += storage.withUnsafeMutableBufferPointer { buffer in
            var cursor = JSONCursor(start: buffer.baseAddress! + start, limit: maximum)
            body(&cursor)
            return cursor.written
        }
    }

    public mutating func raw(_ text: StaticString) {
        withCursor(reserving: text.utf8CodeUnitCount) { $0.raw(text) }
    }

    public mutating func byte(_ value: UInt8) {
        withCursor(reserving: 1) { $0.byte(value) }
    }

    public mutating func string(_ text: String) {
        withCursor(reserving: JSONCursor.maximumLength(of: text)) { $0.string(text) }
    }

    public mutating func integer(_ value: Int) {
        withCursor(reserving: JSONCursor.maximumIntegerLength) { $0.integer(value) }
    }

    /// Writes `value` rounded to `decimals` (0...9) places, trailing zeros trimmed but at least
    /// one decimal kept when `keepPoint` (so `1700000000.0` stays recognisably a time).
    public mutating func number(_ value: Double, decimals: Int, keepPoint: Bool = false) {
        withCursor(reserving: JSONCursor.maximumNumberLength) { $0.number(value, decimals: decimals, keepPoint: keepPoint) }
    }

    /// Writes `value` with exactly `decimals` (0...9) places, trailing zeros kept: capture times as
    /// microseconds (`decimals: 6`), the resolution of btsnoop and pcap.
    public mutating func fixed(_ value: Double, decimals: Int) {
        withCursor(reserving: JSONCursor.maximumNumberLength) { $0.fixed(value, decimals: decimals) }
    }

    public mutating func unsigned(_ value: UInt64) {
        withCursor(reserving: JSONCursor.maximumIntegerLength) { $0.unsigned(value) }
    }

    public mutating func null() { raw("null") }

    /// What has been written, as text (a number formatted for a table, a line for a test).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The text one token makes: `JSONWriter.text { $0.number(x, decimals: 1) }`.
    public static func text(_ body: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter(capacity: 64)
        body(&writer)
        return writer.text
    }
}

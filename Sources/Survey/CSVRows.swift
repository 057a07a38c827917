import NDJSON
import PrintableText
import Ranging

/// Builds CSV text row by row into one byte buffer (`JSONWriter`'s, whose fixed-point numbers are
/// the project's one number format): text cells through `PrintableText.csvField`, numbers rounded to a fixed
/// number of decimals with trailing zeros trimmed, a missing value as an empty cell, rows ended
/// by CR LF as RFC 4180 asks.
public struct CSVRows: Sendable {
    private var writer: JSONWriter
    private var cellsInRow = 0

    public init(capacity: Int = 4096) {
        writer = JSONWriter(capacity: capacity)
    }

    /// The header row.
    public init(header: [String]) {
        self.init()
        for name in header { text(name) }
        endRow()
    }

    private mutating func separate() {
        if cellsInRow > 0 { writer.byte(UInt8(ascii: ",")) }
        cellsInRow += 1
    }

    public mutating func text(_ value: String?) {
        separate()
        guard let value else { return }
        let cell = PrintableText.csvField(value)
        writer.withCursor(reserving: cell.utf8.count) { cursor in
            for byte in cell.utf8 { cursor.byte(byte) }
        }
    }

    public mutating func number(_ value: Double?, decimals: Int) {
        separate()
        guard let value, value.isFinite else { return }
        writer.number(value, decimals: decimals)
    }

    public mutating func integer(_ value: Int?) {
        separate()
        guard let value else { return }
        writer.integer(value)
    }

    public mutating func endRow() {
        writer.raw("\r\n")
        cellsInRow = 0
    }

    /// Everything written so far.
    public var string: String { String(decoding: writer.bytes, as: UTF8.self) }

    /// Starts over, keeping the buffer.
    public mutating func removeAll() {
        writer.removeAll()
        cellsInRow = 0
    }
}

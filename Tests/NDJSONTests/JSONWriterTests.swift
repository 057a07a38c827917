import Foundation
import NDJSON
import Testing

/// The one JSON writer every NDJSON line goes through: escaping and each number format, exactly.
@Suite struct JSONWriterTests {
    static func text(_ body: (inout JSONWriter) -> Void) -> String { JSONWriter.text(body) }

    @Test func stringsAreEscapedAsRFC8259SaysAndParseBack() throws {
        let nasty = "a\"b\\c\nd\u{1}e\u{1F}f→g"
        let line = Self.text { $0.raw("{\"id\":"); $0.string(nasty); $0.raw("}") }
        #expect(line == #"{"id":"a\"b\\c\nd\u0001e\u001ff→g"}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(object["id"] == nasty)
        #expect(Self.text { $0.string("é\u{7F}\r\t\u{8}\u{C}/") } == "\"é\u{7F}\\r\\t\\b\\f/\"")
    }

    /// Capture times: exactly six decimals, the microseconds btsnoop and pcap record.
    @Test func fixedKeepsEveryDecimal() {
        #expect(Self.text { $0.fixed(0, decimals: 6) } == "0.000000")
        #expect(Self.text { $0.fixed(-1.5, decimals: 6) } == "-1.500000")
        #expect(Self.text { $0.fixed(-0.0000001, decimals: 6) } == "0.000000")
        #expect(Self.text { $0.fixed(1_700_000_000.25, decimals: 6) } == "1700000000.250000")
        #expect(Self.text { $0.fixed(1_700_000_000.123, decimals: 6) } == "1700000000.123000")
        #expect(Self.text { $0.fixed(12.345, decimals: 0) } == "12")
        #expect(Self.text { $0.fixed(.nan, decimals: 6) } == "null")
        #expect(Self.text { $0.fixed(-.infinity, decimals: 6) } == "null")
    }

    /// Rounded to the decimals asked for, trailing zeros dropped: medians, distances, truth files.
    @Test func numberTrimsTrailingZeros() {
        #expect(Self.text { $0.number(-72.5, decimals: 1) } == "-72.5")
        #expect(Self.text { $0.number(-72, decimals: 1) } == "-72")
        #expect(Self.text { $0.number(1767258000.12349, decimals: 3) } == "1767258000.123")
        #expect(Self.text { $0.number(2, decimals: 3) } == "2")
        #expect(Self.text { $0.number(.nan, decimals: 3) } == "null")
    }

    @Test func integersAtTheirLimits() {
        #expect(Self.text { $0.integer(Int.min + 1) } == String(Int.min + 1))
        #expect(Self.text { $0.integer(Int.min) } == String(Int.min))
        #expect(Self.text { $0.unsigned(UInt64.max) } == String(UInt64.max))
        #expect(Self.text { $0.withCursor(reserving: 2) { $0.upperHex(0xAF) } } == "AF")
    }
}

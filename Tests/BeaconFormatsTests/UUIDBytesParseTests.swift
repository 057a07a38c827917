import BeaconFormats
import Testing

/// `UUIDBytes(text)` reads catalogs, region constraints and every ESPresense id a venue hears:
/// what it accepts and refuses, byte by byte.
struct UUIDBytesParseTests {
    static let canonical = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4"
    static let value = UUIDBytes(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E4)

    @Test(arguments: [
        canonical,
        "e2c56db5-dffb-48d2-b060-d0f5a71096e4",
        "E2C56DB5DFFB48D2B060D0F5A71096E4",
        "e2C56db5-DFFB48d2-b060-d0f5a71096E4",
        "-E2C56DB5-DFFB-48D2-B060-D0F5A71096E4-",
    ])
    func acceptsHexWithDashesAnywhereInAnyCase(_ text: String) {
        #expect(UUIDBytes(text) == Self.value)
        #expect(UUIDBytes(Substring(text)) == Self.value)
    }

    @Test func roundTripsItsDescription() {
        let values = [Self.value, UUIDBytes(high: 0, low: 0), UUIDBytes(high: .max, low: .max), UUIDBytes(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)]
        for value in values {
            #expect(UUIDBytes(value.description) == value)
            #expect(value.description.count == 36)
        }
    }

    @Test(arguments: [
        "",
        "-",
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096E",      // 31 digits
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096E40",    // 33 digits
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096EG",     // not hex
        "E2C56DB5 DFFB 48D2 B060 D0F5A71096E4",     // spaces are not dashes
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096Ｅ4",    // a fullwidth E (Character.isHexDigit says yes)
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4\u{301}", // a combining accent on the last digit
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096é4",
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096E\u{0}4",
    ])
    func refusesAnythingButThirtyTwoAsciiHexDigits(_ text: String) {
        #expect(UUIDBytes(text) == nil)
    }

    /// `hexBytes` reads Eddystone ids (CLI beacon specs, ESPresense `eddy:` ids) by the same rule:
    /// pairs of ASCII hex digits, nothing else.
    @Test func hexBytesReadsPairsOfAsciiHexDigits() {
        #expect(UUIDBytes.hexBytes("00aAfF19") == [0x00, 0xAA, 0xFF, 0x19])
        #expect(UUIDBytes.hexBytes("") == [])
    }

    @Test(arguments: ["0", "abc", "0g", "Ｅ4", "e\u{301}4", "é4", "0\u{0}", "12 4", "-12"])
    func hexBytesRefusesAnythingElse(_ text: String) {
        #expect(UUIDBytes.hexBytes(Substring(text)) == nil)
    }
}

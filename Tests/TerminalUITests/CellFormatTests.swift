import Testing
@testable import TerminalUI

/// The replay clock and ages on screen: any Double a replay can produce formats, none traps.
@Suite struct CellFormatTests {
    @Test("the replay clock spells out days past 100 hours and gives up past the accepted time span")
    func clock() {
        #expect(CellFormat.clock(83) == "01:23")
        #expect(CellFormat.clock(3723) == "1:02:03")
        #expect(CellFormat.clock(99 * 3600) == "99:00:00")
        #expect(CellFormat.clock(12 * 86_400 + 3 * 3600 + 4 * 60 + 5) == "12d 03:04:05")
        // The most a capture inside TimestampPolicy can span (1970 to 2200).
        #expect(CellFormat.clock(7_258_118_399) == "84005d 23:59:59")
        for absurd in [9.3e18, 1e300, .infinity, .nan, 4.6e21] {
            #expect(CellFormat.clock(absurd) == "--:--", "\(absurd)")
        }
        #expect(CellFormat.clock(-5) == "00:00")
    }

    @Test("a scanner's clock offset fits its column however far the scanner's clock is (an agent replaying a 2023 capture)")
    func offsets() {
        #expect(CellFormat.offset(-0.421) == "-0.42")
        #expect(CellFormat.offset(12.3) == "+12.30")
        #expect(CellFormat.offset(4 * 3600) == "+4h")
        #expect(CellFormat.offset(183_269_012.64) == "+2121d")
        for value in [-1e300, 1e300, .infinity, 183_269_012.64, -99.99, -7.3e9 /* 1970 against 2200, the timestamp policy's span */] {
            #expect(CellFormat.offset(value).count <= 8, "\(value)")
        }
    }

    @Test("ages of any size format without trapping")
    func ages() {
        #expect(CellFormat.age(0.25) == "0.3s")
        #expect(CellFormat.age(7200) == "2h")
        #expect(CellFormat.age(5 * 86_400) == "5d")
        #expect(CellFormat.age(1e300) == "long")
        #expect(CellFormat.age(.infinity) == "long")
        #expect(CellFormat.age(.nan) == "?")
    }
}

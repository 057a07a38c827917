import Testing
import TestFixtures
@testable import Ranging

/// CSV text cells from names and ids nobody checked: quoting, CR LF, control characters, formulas.
@Suite struct CSVFieldTests {
    @Test func aNameWithACRLFPairStaysInItsCell() {
        // "\r\n" is one Character in Swift, equal to neither "\r" nor "\n".
        let name = "Rosetta\r\nStone"
        #expect(Array(name).contains("\r\n"))
        #expect(CSVTable.parse(CSVField.text(name) + ",next\r\n") == [[name, "next"]])
    }

    @Test func theDwellReportCSVKeepsHostileNamesInTheirRows() {
        let report = DwellReport(
            totals: ["id-a": DwellTracker.Totals(visits: 1, total: 10, longest: 10)],
            catalog: ExhibitCatalog(exhibits: [Exhibit(id: "id-a", name: "Line one\r\nline two")])
        )
        let rows = CSVTable.parse(DwellReportRenderer.csv(report))
        #expect(rows.count == 2, "header and one row: \(rows)")
        #expect(rows.last == ["id-a", "Line one\r\nline two", "1", "10.0", "10.0", "10.0"])
    }

    @Test func quotesCommasAndLineBreaksAreQuoted() {
        #expect(CSVField.text("plain id:1:2") == "plain id:1:2")
        #expect(CSVField.text("a,b") == "\"a,b\"")
        #expect(CSVField.text("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVField.text("two\nlines") == "\"two\nlines\"")
    }

    @Test func controlsAndBidiOverridesBecomeReplacementCharacters() {
        #expect(CSVField.text("red\u{1B}[31m") == "red\u{FFFD}[31m", "ESC cannot reach a terminal that cats the file")
        #expect(CSVField.text("abc\u{202E}def") == "abc\u{FFFD}def")
        #expect(CSVField.text("caf\u{E9} \u{1F600}") == "caf\u{E9} \u{1F600}", "ordinary text is kept")
    }

    @Test func aCellAFormulaWouldRunIsShownAsText() {
        #expect(CSVField.text("=HYPERLINK(\"http://x\")") == "\"'=HYPERLINK(\"\"http://x\"\")\"")
        #expect(CSVField.text("@SUM(A1)") == "'@SUM(A1)")
        #expect(CSVField.text("-2+3") == "'-2+3")
        #expect(CSVField.text("+1") == "'+1")
    }
}

import Foundation
import TestFixtures
import Testing
@testable import Ranging

/// A catalog is anyone's text: its names reach `report`'s outputs, and its bytes may not be UTF-8.
@Suite struct HostileCatalogTextTests {
    static func isHarmful(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (v < 0x20 && v != 0x0A) || (0x7F...0x9F).contains(v) || scalar.properties.generalCategory == .format
            || v == 0x2028 || v == 0x2029
    }

    static func report() throws -> DwellReport {
        let catalog = try ExhibitCatalog(contentsOf: URL(fileURLWithPath: HostileInputs.path("catalog-escapes.yaml")))
        return DwellReport(totals: [:], catalog: catalog)
    }

    @Test("the loaded names really hold ESC, BEL, C1, CR LF, bidi and joiners (the test would prove nothing otherwise)")
    func namesAreHostile() throws {
        let names = try Self.report().rows.map(\.name).joined()
        for scalar: Unicode.Scalar in ["\u{1B}", "\u{07}", "\u{9B}", "\r", "\n", "\u{202E}", "\u{200D}", "\u{2067}"] {
            #expect(names.unicodeScalars.contains(scalar), "\(scalar.value)")
        }
    }

    @Test("report's text table shows escapes visibly: no ESC, OSC, BEL, C1, bidi or joiner reaches stdout")
    func textTable() throws {
        let text = DwellReportRenderer.text(try Self.report())
        #expect(!text.unicodeScalars.contains(where: Self.isHarmful))
        #expect(text.split(separator: "\n").count == 4, "title, header and two rows:\n\(text)")
        #expect(text.hasPrefix("Hall \\u{1B}]0;owned\\u{7}\n"))
        #expect(text.contains("Clear \\u{1B}[2J\\u{1B}[31mred\\u{1B}[0m, bell \\u{7}, 8-bit CSI \\u{9B}31m"))
    }

    @Test("report --csv: a name with CR LF stays in its row; nothing harmful reaches the CSV")
    func csvRows() throws {
        let csv = DwellReportRenderer.csv(try Self.report())
        let rows = csv.split(separator: "\r\n", omittingEmptySubsequences: true)
        #expect(rows.count == 3, "header and two rows:\n\(csv)")
        #expect(!csv.unicodeScalars.contains { Self.isHarmful($0) && $0 != "\r" })
        #expect(rows[2].hasPrefix("494E5445-4C4C-495F-524F-434B535F4857:20597:62207,\"Row\\u{D}\\u{A}break, \\u{202E}right-to-left"))
        // Every line ends in CR LF and no other CR or LF appears.
        #expect(csv.unicodeScalars.filter { $0 == "\r" }.count == 3 && csv.unicodeScalars.filter { $0 == "\n" }.count == 3)
    }

    @Test("a catalog that is not UTF-8 names the line and byte and says to save it as UTF-8")
    func notUTF8() throws {
        #expect {
            try ExhibitCatalog(contentsOf: URL(fileURLWithPath: HostileInputs.path("catalog-not-utf8.yaml")))
        } throws: { error in
            "\(error)" == "catalog line 3, file: byte 83 (0xE9) is not UTF-8; save the catalog as UTF-8"
        }
        // A multi-byte character before the bad byte counts its bytes, not one.
        #expect(throws: CatalogError(line: 2, field: "file", reason: "byte 11 (0xFF) is not UTF-8; save the catalog as UTF-8")) {
            try ExhibitCatalog(utf8: Array("title: é\n ".utf8) + [0xFF])
        }
    }
}

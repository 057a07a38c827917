import Foundation
import Monitor
import Ranging
import TestFixtures
import Testing

/// The wizard's save edits one exhibit's lines and leaves the rest of a hand-written catalog alone.
@Suite struct CatalogCalibrationEditorTests {
    static let museum = try! String(contentsOf: SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml"), encoding: .utf8)
    static let second = "8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35:1:2"

    static func changedLines(_ a: String, _ b: String) -> [(String, String)] {
        zip(a.split(separator: "\n", omittingEmptySubsequences: false), b.split(separator: "\n", omittingEmptySubsequences: false))
            .filter { $0 != $1 }.map { (String($0), String($1)) }
    }

    @Test func anExistingOverrideIsRewrittenInPlace() throws {
        let edited = CatalogCalibrationEditor.setMeasuredPower(-67, forID: Self.second.lowercased(), name: "x", in: Self.museum)
        let changes = Self.changedLines(Self.museum, edited)
        #expect(changes.count == 1)
        #expect(changes.first?.0 == "    measuredPower: -61")
        #expect(changes.first?.1 == "    measuredPower: -67")
        #expect(edited.hasPrefix("# The Little Museum of Clever Things"))
        let catalog = try ExhibitCatalog(yaml: edited)
        #expect(catalog.exhibit(forID: Self.second)?.measuredPower == -67)
        #expect(catalog.exhibits.filter { $0.id != Self.second } == (try ExhibitCatalog(yaml: Self.museum)).exhibits.filter { $0.id != Self.second })
    }

    @Test func aMissingOverrideIsAddedUnderTheIdAndATrailingCommentStays() throws {
        let text = """
            # my venue
            title: Booths
            exhibits:
              # the door
              - id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1"   # door beacon
                name: Door
              - name: Bar
                id: E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:2
                measuredPower: -60   # guessed
            """
        let added = CatalogCalibrationEditor.setMeasuredPower(-58, forID: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1", name: "Door", in: text)
        #expect(added.contains("""
              - id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1"   # door beacon
                measuredPower: -58
                name: Door
            """))
        let rewritten = CatalogCalibrationEditor.setMeasuredPower(-71, forID: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:2", name: "Bar", in: added)
        #expect(rewritten.contains("    measuredPower: -71   # guessed"))
        #expect(rewritten.contains("# the door"))
        let catalog = try ExhibitCatalog(yaml: rewritten)
        #expect(catalog.exhibits.map(\.measuredPower) == [-58, -71])
        #expect(catalog.exhibits.map(\.name) == ["Door", "Bar"])
    }

    @Test func anExhibitNotInTheCatalogGetsANewEntryAtTheEndOfTheList() throws {
        let id = "11111111-2222-3333-4444-555555555555:9:9"
        let edited = CatalogCalibrationEditor.setMeasuredPower(-55, forID: id, name: "New \"one\"", in: Self.museum)
        let before = try ExhibitCatalog(yaml: Self.museum)
        let catalog = try ExhibitCatalog(yaml: edited)
        #expect(catalog.exhibits.count == before.exhibits.count + 1)
        #expect(Array(catalog.exhibits.dropLast()) == before.exhibits)
        #expect(catalog.exhibits.last?.id == id)
        #expect(catalog.exhibits.last?.name == "New \"one\"")
        #expect(catalog.exhibits.last?.measuredPower == -55)
    }

    @Test func withoutACatalogANewFileHoldsTheCalibration() throws {
        let text = CatalogCalibrationEditor.newCatalog(power: -62, id: "edd1ebeac04e5defa017:0badc0ffee01", name: "Eddystone")
        let catalog = try ExhibitCatalog(yaml: text)
        #expect(catalog.exhibits.count == 1)
        #expect(catalog.exhibits[0].measuredPower == -62)
        // A second calibration edits the file it made.
        let again = CatalogCalibrationEditor.setMeasuredPower(-64, forID: "edd1ebeac04e5defa017:0badc0ffee01", name: "Eddystone", in: text)
        #expect(try ExhibitCatalog(yaml: again).exhibits.map(\.measuredPower) == [-64])
        #expect(CatalogCalibrationEditor.defaultPath == "beacontop-calibration.yaml")
    }
}

import BeaconFormats
import Foundation
import Testing
@testable import Ranging

@Suite struct ExhibitCatalogTests {
    static let example = """
    title: The Little Museum
    exhibits:
      - id: "e2c56db5-dffb-48d2-b060-d0f5a71096e4:1:1"
        name: Rosetta Stone (cast)
        description: One or two sentences shown while the visitor is near.
        position: [2.0, 3.5]
        measuredPower: -59
        pathLossExponent: 2.2
      - id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"
        name: Sundial
    """

    @Test func theDocumentedSchemaLoads() throws {
        let catalog = try ExhibitCatalog(yaml: Self.example)
        #expect(catalog.title == "The Little Museum")
        #expect(catalog.exhibits.count == 2)
        let first = catalog.exhibits[0]
        #expect(first.id == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1", "UUID upper-cased to match BeaconIdentity")
        #expect(first.name == "Rosetta Stone (cast)")
        #expect(first.position == FloorPosition(x: 2.0, y: 3.5))
        #expect(first.measuredPower == -59)
        #expect(first.pathLossExponent == 2.2)
        #expect(catalog.exhibits[1].description == nil)
        let identity = BeaconIdentity.iBeacon(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 1, minor: 2)
        #expect(catalog.exhibit(forID: identity.description)?.name == "Sundial")
        #expect(catalog.regions.map(\.spec) == ["E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"])
    }

    @Test func explicitRegionsReplaceThePerExhibitOnes() throws {
        let catalog = try ExhibitCatalog(yaml: Self.example + """

        regions:
          - name: Whole museum
            uuid: E2C56DB5DFFB48D2B060D0F5A71096E4
          - uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E4
            major: 1
        """)
        #expect(catalog.regions.map(\.identifier) == ["Whole museum", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1"])
    }

    static func error(_ yaml: String) -> CatalogError? {
        do {
            _ = try ExhibitCatalog(yaml: yaml)
            return nil
        } catch {
            return error
        }
    }

    @Test func errorsNameTheLineAndTheField() throws {
        let power = try #require(Self.error("""
        exhibits:
          - id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1"
            measuredPower: 12
        """))
        #expect(power.line == 3)
        #expect(power.field == "exhibits[0].measuredPower")
        #expect(power.description.hasPrefix("catalog line 3, exhibits[0].measuredPower:"))

        let missingID = try #require(Self.error("exhibits:\n  - name: Vase\n"))
        #expect(missingID.field == "exhibits[0].id")
        #expect(missingID.line == 2)

        let unknown = try #require(Self.error("exhibits:\n  - id: a\n    colour: red\n"))
        #expect(unknown.field == "exhibits[0].colour")
        #expect(unknown.line == 3)

        let duplicate = try #require(Self.error("exhibits:\n  - id: a\n  - id: a\n"))
        #expect(duplicate.field == "exhibits[1].id")
        #expect(duplicate.line == 3)

        let position = try #require(Self.error("exhibits:\n  - id: a\n    position: [1]\n"))
        #expect(position.field == "exhibits[0].position")

        let notNumber = try #require(Self.error("exhibits:\n  - id: a\n    pathLossExponent: steep\n"))
        #expect(notNumber.field == "exhibits[0].pathLossExponent")

        let minorOnly = try #require(Self.error("exhibits: []\nregions:\n  - uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E4\n    minor: 3\n"))
        #expect(minorOnly.field == "regions[0].minor")

        let badUUID = try #require(Self.error("exhibits: []\nregions:\n  - uuid: not-a-uuid\n"))
        #expect(badUUID.field == "regions[0].uuid")
        #expect(badUUID.line == 3)

        #expect(try #require(Self.error("title: x\n")).field == "exhibits")
        #expect(try #require(Self.error("- 1\n- 2\n")).field == "document")
        let syntax = try #require(Self.error("exhibits:\n  - id: \"unterminated\n"))
        #expect(syntax.field == "YAML")
        #expect(syntax.line != nil)

        // The reader's and the composer's errors said Yams' whole description: the offending line
        // and a caret on lines of their own, and no line number of ours.
        let control = try #require(Self.error("exhibits:\n  - id: a\n    name: \"a\u{1B}[2Jb\"\n"))
        #expect(control == CatalogError(line: 3, field: "YAML", reason: "control characters are not allowed (U+001B)"))
        let alias = try #require(Self.error("exhibits:\n  - id: a\n    name: *nowhere\n"))
        #expect(alias.field == "YAML" && alias.line == 3 && !alias.reason.contains("\n"), "\(alias)")
    }

    @Test func aMissingFileIsAClearError() {
        #expect(throws: CatalogFileError(path: "/nonexistent/catalog.yaml", reason: "No such file or directory")) {
            try ExhibitCatalog(contentsOf: URL(fileURLWithPath: "/nonexistent/catalog.yaml"))
        }
    }

    /// Foundation says "NSCocoaErrorDomain error 256" for both, and reads an empty path as the
    /// working directory.
    @Test func anEmptyPathAndADirectorySayWhatTheyAre() {
        #expect(throws: CatalogError(line: nil, field: "file", reason: "no file named (the path is empty)")) {
            try ExhibitCatalog(path: "")
        }
        let directory = FileManager.default.temporaryDirectory.path
        #expect(throws: CatalogError(line: nil, field: "file", reason: "cannot read \(directory): it is a directory, not a catalog file")) {
            try ExhibitCatalog(path: directory)
        }
    }
}

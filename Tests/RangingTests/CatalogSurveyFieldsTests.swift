import Foundation
import Testing
@testable import Ranging

/// The catalog's survey fields: walls, and each beacon's advertising interval and low-battery
/// threshold (docs/formats.md "Catalog format"). All optional: every older catalog still loads.
@Suite struct CatalogSurveyFieldsTests {
    static let venue = """
    title: Hall B
    exhibits:
      - id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1"
        position: [2.0, 3.5]
        advertisingIntervalMs: 100
        lowBatteryMillivolts: 3000
      - id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"
        advertisingIntervalMs: 1022.5
    walls:
      - [[0, 0], [12, 0], [12, 8], [0, 8], [0, 0]]
      - [[6, 0], [6, 5]]
    """

    @Test func wallsIntervalsAndBatteryThresholdsLoad() throws {
        let catalog = try ExhibitCatalog(yaml: Self.venue)
        #expect(catalog.exhibits[0].advertisingInterval == 0.1)
        #expect(catalog.exhibits[0].lowBatteryMillivolts == 3000)
        #expect(catalog.exhibits[1].advertisingInterval == 1.0225)
        #expect(catalog.exhibits[1].lowBatteryMillivolts == nil)
        #expect(catalog.walls.count == 2)
        #expect(catalog.walls[0].segments.count == 4, "a closed outline of five points is four walls")
        #expect(catalog.walls[1].points == [FloorPosition(x: 6, y: 0), FloorPosition(x: 6, y: 5)])
    }

    @Test func aCatalogWithoutThemLoadsAsBefore() throws {
        let catalog = try ExhibitCatalog(yaml: "exhibits:\n  - id: a\n")
        #expect(catalog.walls.isEmpty)
        #expect(catalog.exhibits[0].advertisingInterval == nil)
        #expect(catalog.exhibits[0].lowBatteryMillivolts == nil)
    }

    static func error(_ yaml: String) -> CatalogError? { ExhibitCatalogTests.error(yaml) }

    @Test func badValuesNameTheLineAndTheField() throws {
        let fast = try #require(Self.error("exhibits:\n  - id: a\n    advertisingIntervalMs: 5\n"))
        #expect(fast.field == "exhibits[0].advertisingIntervalMs")
        #expect(fast.line == 3)
        #expect(fast.reason.contains("20 ms"))
        let battery = try #require(Self.error("exhibits:\n  - id: a\n    lowBatteryMillivolts: 2.6\n"))
        #expect(battery.field == "exhibits[0].lowBatteryMillivolts", "volts instead of millivolts is an error, not 2 mV")
        let onePoint = try #require(Self.error("exhibits: []\nwalls:\n  - [[0, 0]]\n"))
        #expect(onePoint.field == "walls[0]")
        #expect(onePoint.line == 3)
        let badPoint = try #require(Self.error("exhibits: []\nwalls:\n  - [[0, 0], [1, x]]\n"))
        #expect(badPoint.field == "walls[0][1][1]")
        let notList = try #require(Self.error("exhibits: []\nwalls: 3\n"))
        #expect(notList.field == "walls")
        let position = try #require(Self.error("exhibits:\n  - id: a\n    position: [1, two]\n"))
        #expect(position.field == "exhibits[0].position[1]", "positions read as before")
    }

    /// fuzz-survey: any finite coordinate was taken, and the survey's maps grid the plan (a wall at
    /// 1.8e31 m drew 10^29 grid lines; at +-1.7e308 m the plan was infinitely wide and trapped).
    @Test func coordinatesFartherThan1000KmAreRefused() throws {
        let wall = try #require(Self.error("exhibits: []\nwalls:\n  - [[0, 0], [1.7e308, 8]]\n"))
        #expect(wall.field == "walls[0][1][0]" && wall.line == 3)
        #expect(wall.reason == "1.7e+308 m is more than 1000 km from the plan's origin")
        let position = try #require(Self.error("exhibits:\n  - id: a\n    position: [1, -1000000.5]\n"))
        #expect(position.field == "exhibits[0].position[1]")
        let scanner = try #require(Self.error("exhibits: []\nrooms: [{id: hall}]\nscanners:\n  - {id: pi-a, room: hall, position: [18888888888888888888888888888882, 0]}\n"))
        #expect(scanner.field == "scanners[0].position[0]")
        let edge = try ExhibitCatalog(yaml: "exhibits:\n  - id: a\n    position: [1000000, -1000000]\nwalls:\n  - [[-1000000, 0], [1000000, 0]]\n")
        #expect(edge.exhibits[0].position == FloorPosition(x: 1_000_000, y: -1_000_000), "1000 km itself is a coordinate")
    }
}

import Foundation
import Ranging
import Testing
import TestFixtures
@testable import Simulation

/// The demo catalogs and the built-in scenarios describe the same venues.
@Suite struct DemoCatalogTests {
    static func catalog(_ name: String) throws -> ExhibitCatalog {
        try ExhibitCatalog(contentsOf: SharedData.repositoryRoot.appendingPathComponent("demo").appendingPathComponent(name))
    }

    @Test func theMuseumCatalogIsTheBuiltInMuseum() throws {
        let catalog = try Self.catalog("museum.yaml")
        #expect(catalog.title == MuseumScenario.title)
        #expect((6...10).contains(catalog.exhibits.count))
        #expect(catalog.exhibits.allSatisfy { ($0.description ?? "").count > 40 })
        let beacons = try SimulatedBeacon.beacons(from: catalog)
        #expect(beacons == MuseumScenario.beacons)
        #expect(MuseumScenario.make(beacons: beacons, seed: 9) == MuseumScenario.make(seed: 9))
    }

    @Test func theTradeShowCatalogIsTheBuiltInTradeShow() throws {
        let catalog = try Self.catalog("tradeshow.yaml")
        #expect(catalog.title == TradeShowScenario.title)
        let beacons = try SimulatedBeacon.beacons(from: catalog, advertisingInterval: 0.25)
        #expect(beacons == TradeShowScenario.beacons)
    }

    @Test func exhibitsTheSimulatorCannotPlaceAreNamed() throws {
        let noPosition = try ExhibitCatalog(yaml: """
            exhibits:
              - id: "8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35:1:1"
                name: A
                position: [1, 2]
              - id: "8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35:1:2"
                name: B
            """)
        #expect(throws: SimulationCatalogError(field: "exhibits[1].position", reason: "missing: the simulator needs each exhibit's place on the floor")) {
            try SimulatedBeacon.beacons(from: noPosition)
        }
        let eddystone = try ExhibitCatalog(yaml: """
            exhibits:
              - id: "12345678901234678901:000000000001"
                name: A
                position: [1, 2]
            """)
        #expect { try SimulatedBeacon.beacons(from: eddystone) } throws: { error in
            (error as? SimulationCatalogError)?.field == "exhibits[0].id"
        }
    }
}

import Ranging
import Testing

@Suite("Catalog: rooms and scanners of a venue")
struct VenueCatalogTests {
    static let yaml = """
    title: BLE Expo 2026, Hall B
    exhibits:
      - id: 3d1e9b47-72a5-4c8e-9f06-b5c2a8e41d73:2026:101
        name: Northwind Sensors
    rooms:
      - id: booth-101
        name: "Booth 101: Northwind Sensors"
      - id: aisle
    scanners:
      - id: pi-booth-101
        room: booth-101
        position: [4, 3]
        referenceBeacon: 3d1e9b47-72a5-4c8e-9f06-b5c2a8e41d73:2026:901
      - id: esp-aisle
        room: aisle
        rssiOffset: -3.5
    """

    @Test("Rooms and scanners are read; reference beacon ids are normalised like exhibit ids")
    func reads() throws {
        let catalog = try ExhibitCatalog(yaml: Self.yaml)
        #expect(catalog.rooms == [VenueRoom(id: "booth-101", name: "Booth 101: Northwind Sensors"), VenueRoom(id: "aisle")])
        #expect(catalog.scanners == [
            VenueScanner(id: "pi-booth-101", room: "booth-101", position: FloorPosition(x: 4, y: 3),
                         referenceBeacon: "3D1E9B47-72A5-4C8E-9F06-B5C2A8E41D73:2026:901"),
            VenueScanner(id: "esp-aisle", room: "aisle", rssiOffset: -3.5),
        ])
        #expect(catalog.exhibits.count == 1)
    }

    @Test("A catalog without them reads as before")
    func additive() throws {
        let catalog = try ExhibitCatalog(yaml: "exhibits:\n  - id: a\n")
        #expect(catalog.rooms.isEmpty && catalog.scanners.isEmpty)
    }

    @Test("Mistakes name the line and the field", arguments: [
        ("rooms: [{id: a}, {id: a}]", "rooms[1].id"),
        ("rooms: [{id: a}]\nscanners: [{id: s, room: b}]", "scanners[0].room"),
        ("scanners: [{id: s}]", "scanners[0].room"),
        ("scanners: [{id: s, room: a, rssiOffset: 55}]", "scanners[0].rssiOffset"),
        ("scanners: [{id: s, room: a, rssiOffset: loud}]", "scanners[0].rssiOffset"),
        ("scanners: [{id: s, room: a}, {id: s, room: b}]", "scanners[1].id"),
        ("scanners: [{id: s, room: a, referenceBeacon: r}, {id: t, room: b, referenceBeacon: r}]", "scanners[1].referenceBeacon"),
        ("scanners: [{id: s, room: a, colour: red}]", "scanners[0].colour"),
        ("rooms: {id: a}", "rooms"),
        ("rooms: [{id: \"a\\u001b[2J\"}]", "rooms[0].id"),
        // A scanner is known by its topic level: `pi/1` is heard as `pi_1`, never as itself.
        ("scanners: [{id: pi/1, room: a}]", "scanners[0].id"),
        ("scanners: [{id: \"booth+1\", room: a}]", "scanners[0].id"),
        // Both publish their occupancy on beacontop/occupancy/a_b.
        ("rooms: [{id: a+b}, {id: \"a#b\"}]", "rooms[1].id"),
        ("rooms: [{id: a_b}, {id: a/b}]", "rooms[1].id"),
    ])
    func errors(extra: String, field: String) {
        #expect {
            _ = try ExhibitCatalog(yaml: "exhibits: []\n" + extra)
        } throws: { error in
            guard let error = error as? CatalogError else { return false }
            return error.field == field && error.line != nil
        }
    }
}
